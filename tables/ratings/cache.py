"""The cached rating badges the table shows beside each name (one cache read a render; a
miss reads the missing players in one statement). A rating written drops its players' badges
after the commit (``ratings_forget``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

from tables.ratings.models import Family

__all__ = ["BADGE_CACHE_S", "badge_key", "ratings_forget"]

BADGE_CACHE_S = 3600


def badge_key(user_id: int, family: str) -> str:
    return f"ratings:badge:{family}:{user_id}"


def ratings_forget(*, user_ids: Iterable[int]) -> None:
    cache.delete_many([badge_key(u, f) for u in user_ids for f in Family.values])
