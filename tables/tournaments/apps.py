from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tables.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables.tournaments import tasks  # noqa: F401  (registers the Celery tasks)
        from tables.tournaments.hooks import register

        register()
