"""Celery tasks of the ledger app (found by ``autodiscover_tasks``)."""

from .payments.tasks import sandbox_deliver_task

__all__ = ["sandbox_deliver_task"]
