from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and games"

    def ready(self) -> None:
        # Give the ledger's reconciliation the game facts (pots, entry fees, settlements).
        from . import tasks  # noqa: F401  (registers the Celery tasks the services queue by name)
        from .realtime import subscribe
        from .reconcile import register

        register()
        subscribe()  # the live pushes hear every committed change of a table
