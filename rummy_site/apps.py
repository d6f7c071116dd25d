from django.apps import AppConfig


class RummySiteConfig(AppConfig):
    name = "rummy_site"
    verbose_name = "Rummy site"

    def ready(self) -> None:
        # Metrics and structured logs observe the write path through its signals.
        from . import observers

        observers.connect()
