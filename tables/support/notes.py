"""Support's notes on a deal (written by ``services.deal_note_add``; never changed)."""

from __future__ import annotations

from django.db.models import QuerySet

from tables.models import Deal, DealNote

__all__ = ["deal_notes"]


def deal_notes(*, deal: Deal) -> QuerySet[DealNote]:
    """Support's notes on the deal, oldest first, with their authors."""
    return DealNote.objects.filter(deal=deal).select_related("author").order_by("created_at", "pk")
