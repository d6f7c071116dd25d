from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "accounts.push"
    label = "push"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: Django imports this module while loading the apps,
        # before any model may be imported (app loading: these modules import the models).
        from accounts.push import tasks  # noqa: F401  (registers the Celery task)
        from accounts.push.receivers import connect

        connect()
