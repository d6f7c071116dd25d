from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tables.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: Django imports this module while loading the apps,
        # before any model may be imported (app loading: these modules import the models).
        from tables.tournaments import tasks  # noqa: F401  (registers the Celery tasks)
        from tables.tournaments.hooks import register

        register()
