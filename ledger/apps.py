from django.apps import AppConfig
from django.db.backends.signals import connection_created


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"

    def ready(self) -> None:
        from accounts.services import support_permissions_register

        from .db import sqlite_connection_created

        connection_created.connect(sqlite_connection_created, dispatch_uid="ledger_sqlite_guard")
        support_permissions_register(
            permissions=[
                ("ledger", "view_account"),
                ("ledger", "view_transaction"),
                ("ledger", "view_entry"),
                ("ledger", "reverse_transaction"),
            ]
        )
