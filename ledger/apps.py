from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"

    # Given to the support role when its group is set up (``support_permissions`` on any
    # app's config is collected by the accounts app): the ledger read-only, and reversals.
    support_permissions: tuple[tuple[str, str], ...] = (
        ("ledger", "view_account"),
        ("ledger", "view_transaction"),
        ("ledger", "view_entry"),
        ("ledger", "reverse_transaction"),
    )
