from django.apps import AppConfig
from django.db.backends.signals import connection_created


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

    def ready(self) -> None:
        from .db import sqlite_connection_created

        connection_created.connect(sqlite_connection_created, dispatch_uid="ledger_sqlite_guard")
