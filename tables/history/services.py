"""Writes of My games: a player's public link to one deal's review."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.db import transaction

from tables.models import Deal, DealShare

if TYPE_CHECKING:
    from accounts.models import User

__all__ = ["deal_share_set"]


def deal_share_set(*, user: User, deal: Deal, on: bool) -> DealShare | None:
    """Turn ``user``'s public link to the review of ``deal`` on or off. The link's token is
    made once (unguessable: 32 random bytes) and kept, so turning it on again gives the same
    link. The caller has checked that ``user`` may review the deal. Returns the share (``None``
    when turning off a link never made)."""
    with transaction.atomic():
        share = DealShare.objects.select_for_update().filter(deal=deal, user=user).first()
        if share is None:
            if not on:
                return None
            return DealShare.objects.create(
                deal=deal, user=user, token=secrets.token_urlsafe(32), active=True
            )
        if share.active != on:
            share.active = on
            share.save(update_fields=["active"])
        return share
