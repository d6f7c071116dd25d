from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and games"

    def ready(self) -> None:
        # Give the ledger's reconciliation the game facts (pots, entry fees, settlements).
        from tables.live.realtime import subscribe
        from tables.reconcile import register
        from tables.staff import admin  # noqa: F401  (registers the admin pages)
        from tables.timers import tasks  # noqa: F401  (registers the Celery tasks the services queue by name)

        register()
        subscribe()  # the live pushes hear every committed change of a table
