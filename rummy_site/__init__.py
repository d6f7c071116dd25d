"""The rummy site project package. Importing it loads the Celery app for shared_task."""

from .celery import app as celery_app

__all__ = ["celery_app"]
