from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "tables.ratings"
    label = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: Django imports this module while loading the apps,
        # before any model may be imported (app loading: these modules import the models).
        from tables.ratings import (
            admin,  # noqa: F401  (registers the admin pages)
            tasks,  # noqa: F401  (registers the Celery tasks)
        )
        from tables.ratings.hooks import register

        register()
