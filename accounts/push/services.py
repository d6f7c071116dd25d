"""Writes of Web Push: subscriptions saved and dropped, preferences set, and notices queued
(``push_notify``, in ``transaction.on_commit``) and delivered from the Celery task
(``push_deliver``: never in a request).

A notice is a small JSON document (``title``, ``body``, ``url``, ``kind``) encrypted to each of
the player's browsers (RFC 8291, aes128gcm) and posted to its push service with a VAPID
signature (RFC 8292) by ``pywebpush``. Nothing goes to a player who switched the kind off, is
self-excluded or closed; a subscription the push service answers 404 or 410 is gone and is
deleted."""

from __future__ import annotations

import json
import logging
import threading
from typing import TYPE_CHECKING

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone
from pywebpush import WebPushException, webpush

from accounts.models import User
from accounts.selectors import self_exclusion_active

from .models import PushKind, PushPreferences, PushSent, PushSubscription
from .selectors import push_configured, push_kind_wanted, push_subscriptions_of

if TYPE_CHECKING:
    from collections.abc import Mapping

logger = logging.getLogger(__name__)

PUSH_TASK = "accounts.push.tasks.push_send"
# The threads that deliver on the embedded default (no Celery worker) are named after this.
DELIVERY_THREAD = "push-deliver"
# The push services' answers for a subscription that no longer exists.
GONE_STATUSES = frozenset({404, 410})
TITLE_MAX = 120
BODY_MAX = 400


def push_subscription_save(
    *, user: User, endpoint: str, p256dh: str, auth: str
) -> PushSubscription:
    """Save the browser's subscription for ``user`` (a browser subscribed before by another
    player who logged out there now notifies this one: an endpoint is one browser)."""
    with transaction.atomic():
        subscription, _created = PushSubscription.objects.select_for_update().update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
        )
        # A player's browsers beyond the most allowed: the oldest are forgotten.
        keep = settings.PUSH_SUBSCRIPTIONS_PER_USER
        extra = PushSubscription.objects.filter(user=user).order_by("-created", "-pk")[keep:]
        PushSubscription.objects.filter(pk__in=list(extra.values_list("pk", flat=True))).delete()
    return subscription


def push_subscription_drop(*, user: User, endpoint: str) -> bool:
    """Forget ``user``'s subscription at ``endpoint`` (the page turned notifications off)."""
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted > 0


def push_preferences_set(
    *,
    user: User,
    tournament_starting: bool,
    your_turn: bool,
    friend_invite: bool,
    friend_request: bool,
) -> PushPreferences:
    with transaction.atomic():
        preferences, _created = PushPreferences.objects.update_or_create(
            user=user,
            defaults={
                "tournament_starting": tournament_starting,
                "your_turn": your_turn,
                "friend_invite": friend_invite,
                "friend_request": friend_request,
            },
        )
    return preferences


def _same_site_path(url: str) -> str:
    """Only a path of this site is opened from a notice."""
    return url if url.startswith("/") and not url.startswith("//") and "\\" not in url else "/"


def push_notify(
    *,
    user_id: int,
    kind: str,
    title: str,
    body: str,
    url: str,
    once_key: str | None = None,
) -> bool:
    """Queue a notice to every browser of the player, once the current transaction commits
    (at once outside one); the Celery task sends it. ``once_key``: a notice sent at most once
    (recorded in this transaction: ``PushSent``). Returns whether it was queued."""
    if kind not in PushKind.values:
        raise ValueError(f"unknown push kind {kind!r}")
    if not push_configured():
        return False
    payload = {
        "title": title[:TITLE_MAX],
        "body": body[:BODY_MAX],
        "url": _same_site_path(url),
        "kind": kind,
    }

    def queue() -> None:
        _enqueue(user_id=user_id, kind=kind, payload=payload)

    if once_key is None:  # no write: queued with the caller's commit (at once outside one)
        transaction.on_commit(queue)
        return True
    with transaction.atomic():
        _row, created = PushSent.objects.get_or_create(
            user_id=user_id, key=once_key, defaults={"kind": kind}
        )
        if created:
            transaction.on_commit(queue)
    return created


def _enqueue(*, user_id: int, kind: str, payload: Mapping[str, str]) -> None:
    """Hand the notice to Celery (``TIMERS_BACKEND == "celery"``), else to a thread of this
    process (the embedded default has no worker): never sent in the request itself."""
    args = [user_id, kind, dict(payload)]
    if settings.TIMERS_BACKEND == "celery":
        try:
            current_app.send_task(PUSH_TASK, args=args)
        except Exception:  # a broker outage: a notice is best effort
            logger.exception("push: could not queue a notice to user %s", user_id)
        return
    name = f"{DELIVERY_THREAD}-{user_id}"
    threading.Thread(target=_deliver_in_thread, args=args, name=name, daemon=True).start()


def _deliver_in_thread(user_id: int, kind: str, payload: dict[str, str]) -> None:
    try:
        push_deliver(user_id=user_id, kind=kind, payload=payload)
    except Exception:
        logger.exception("push: delivery to user %s failed", user_id)
    finally:
        close_old_connections()


def push_deliver(*, user_id: int, kind: str, payload: Mapping[str, str]) -> int:
    """Send the notice to each of the player's subscriptions (the Celery task's body); drop
    those the push service says are gone. Returns how many push services accepted it."""
    if not push_configured():
        return 0
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not push_kind_wanted(user_id=user_id, kind=kind):
        return 0
    if self_exclusion_active(user=user) is not None:
        return 0
    data = json.dumps(dict(payload), ensure_ascii=False)
    sent = 0
    for subscription in push_subscriptions_of(user_id=user_id):
        if _post(subscription, data):
            sent += 1
    return sent


def _post(subscription: PushSubscription, data: str) -> bool:
    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        webpush(
            subscription_info=info,
            data=data,
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=settings.PUSH_TTL_S,
            timeout=settings.PUSH_TIMEOUT_S,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE_STATUSES:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            logger.info("push: subscription %s is gone (%s): dropped", subscription.pk, status)
        else:
            logger.warning("push: subscription %s refused the notice: %s", subscription.pk, status)
        return False
    except Exception as error:  # the push service unreachable: the notice is lost, not retried
        logger.warning("push: could not reach subscription %s: %r", subscription.pk, error)
        return False
    PushSubscription.objects.filter(pk=subscription.pk).update(last_used=timezone.now())
    return True
