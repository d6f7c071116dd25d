"""Names of the staff roles. The group and its permissions are set by ``role_groups_ensure``."""

SUPPORT_GROUP = "support"

# (app_label, codename) pairs given to the support group.
SUPPORT_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("accounts", "view_user"),
    ("accounts", "review_deals"),
)
