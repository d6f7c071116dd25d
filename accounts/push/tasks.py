"""The Celery task of Web Push: it only calls the service."""

from __future__ import annotations

from celery import shared_task

from accounts.push import services


@shared_task(name="accounts.push.tasks.push_send", ignore_result=True)
def push_send(user_id: int, kind: str, payload: dict[str, str]) -> int:
    return services.push_deliver(user_id=user_id, kind=kind, payload=payload)
