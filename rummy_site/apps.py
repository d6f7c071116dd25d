from django.apps import AppConfig


class RummySiteConfig(AppConfig):
    name = "rummy_site"
    verbose_name = "Rummy site"

    def ready(self) -> None:
        from django.core import checks

        from . import observers
        from .checks import frontend_packages

        # `manage.py check` (runserver, migrate) fails when the npm packages are not installed.
        checks.register(frontend_packages)
        # Metrics and structured logs observe the write path through its signals.
        observers.connect()
