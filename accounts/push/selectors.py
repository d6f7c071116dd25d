"""Reads of Web Push: whether it is configured, a player's preferences and subscriptions, and
who has had a once-only notice."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet

from .models import PushKind, PushPreferences, PushSent, PushSubscription


def push_configured() -> bool:
    """Whether the site has its VAPID keys (without them nothing is sent and the profile page
    says that notifications are not set up)."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def push_preferences_of(*, user_id: int) -> PushPreferences:
    """The player's preferences (unsaved, every kind on, when the player never changed them)."""
    found = PushPreferences.objects.filter(user_id=user_id).first()
    return found if found is not None else PushPreferences(user_id=user_id)


def push_kind_wanted(*, user_id: int, kind: str) -> bool:
    return kind in PushKind.values and push_preferences_of(user_id=user_id).wants(kind)


def push_subscriptions_of(*, user_id: int) -> QuerySet[PushSubscription]:
    return PushSubscription.objects.filter(user_id=user_id).order_by("pk")


def push_sent_user_ids(*, key: str) -> set[int]:
    """The players who have had the once-only notice ``key``."""
    return set(PushSent.objects.filter(key=key).values_list("user_id", flat=True))
