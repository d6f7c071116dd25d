"""Names of the staff roles. The group and its permissions are set by ``role_groups_ensure``.

The support group gets ``SUPPORT_PERMISSIONS`` (the accounts app's own) plus whatever other
installed apps declare as ``support_permissions`` on their ``AppConfig``: a tuple of
``(app_label, codename)`` pairs. The accounts app does not import those apps."""

SUPPORT_GROUP = "support"

# (app_label, codename) pairs given to the support group.
SUPPORT_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("accounts", "view_user"),
    ("accounts", "review_deals"),
)
