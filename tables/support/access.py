"""The access log: who opened which deal's review or export, and when (recorded by
``services.deal_access_record``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import QuerySet

from tables.models import Deal, DealAccess

if TYPE_CHECKING:
    from accounts.models import User

__all__ = ["deal_accesses"]


def deal_accesses(*, deal: Deal | None = None, user: User | None = None) -> QuerySet[DealAccess]:
    """The access log (who opened which deal's review or export, when), newest first."""
    rows = DealAccess.objects.select_related("user", "deal", "deal__game").order_by("-at", "-pk")
    if deal is not None:
        rows = rows.filter(deal=deal)
    if user is not None:
        rows = rows.filter(user=user)
    return rows
