"""Celery tasks of the ledger app (found by ``autodiscover_tasks``)."""

from .payments.tasks import deposits_expire_task, sandbox_deliver_task

__all__ = ["deposits_expire_task", "sandbox_deliver_task"]
