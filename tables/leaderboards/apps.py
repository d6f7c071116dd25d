from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    name = "tables.leaderboards"
    label = "leaderboards"
    verbose_name = "Leaderboards and seasons"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: Django imports this module while loading the apps,
        # before any model may be imported (these modules import the models).
        from tables.leaderboards import (
            admin,  # noqa: F401  (registers the admin pages)
            tasks,  # noqa: F401  (registers the Celery tasks)
        )
        from tables.leaderboards.hooks import register

        register()
