"""Celery tasks of the payments: the sandbox's late and duplicate callback deliveries, and the
periodic expiry of abandoned checkouts (``CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task

from .sandbox import SANDBOX_TASK, sandbox_deliver
from .services import deposits_expire


@shared_task(name=SANDBOX_TASK)
def sandbox_deliver_task(body: str) -> None:
    sandbox_deliver(body=body.encode())


@shared_task(name="ledger.payments.deposits_expire")
def deposits_expire_task() -> int:
    return deposits_expire()
