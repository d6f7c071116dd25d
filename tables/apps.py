from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables and games"

    def ready(self) -> None:
        # Imported here, not at the top: Django imports this module while loading the apps,
        # before any model may be imported (app loading: these modules import the models).
        from accounts.hooks import page_section_register
        from tables.live.realtime import subscribe
        from tables.live.turn_push import subscribe as turn_push_subscribe
        from tables.reconcile import register
        from tables.staff import admin  # noqa: F401  (registers the admin pages)
        from tables.timers import tasks  # noqa: F401  (registers the Celery tasks the services queue by name)
        from tables.web.friends import friends_page_section

        register()  # the ledger's reconciliation gets the game facts (pots, fees, settlements)
        subscribe()  # the live pushes hear every committed change of a table
        turn_push_subscribe()  # a turn's Web Push to a player whose page is out of view
        page_section_register("friends", friends_page_section)  # invites atop Friends
