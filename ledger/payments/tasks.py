"""Celery tasks of the payments: the sandbox's late and duplicate callback deliveries."""

from __future__ import annotations

from celery import shared_task

from .sandbox import SANDBOX_TASK, sandbox_deliver


@shared_task(name=SANDBOX_TASK)
def sandbox_deliver_task(body: str) -> None:
    sandbox_deliver(body=body.encode())
