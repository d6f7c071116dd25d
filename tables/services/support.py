"""Support's writes on deals: notes and the access log. Both are append-only; reading them is
in ``tables.support.notes`` (``deal_notes``) and ``tables.support.access`` (``deal_accesses``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tables.models import Deal, DealAccess, DealAccessKind, DealNote
from tables.services.errors import TableError, TableRefusal

if TYPE_CHECKING:
    from accounts.models import User

NOTE_MAX = 4000


def deal_note_add(*, deal: Deal, author: User, text: str) -> DealNote:
    """Add support's note to a deal (blank or over ``NOTE_MAX`` characters is refused)."""
    text = (text or "").strip()
    if not text:
        raise TableError(TableRefusal.NOTE_EMPTY)
    if len(text) > NOTE_MAX:
        raise TableError(TableRefusal.NOTE_TOO_LONG, count=NOTE_MAX)
    return DealNote.objects.create(deal=deal, author=author, text=text)


def deal_access_record(*, deal: Deal, user: User, kind: str = DealAccessKind.REVIEW) -> DealAccess:
    """Record that ``user`` opened the deal's hand review (or downloaded its export)."""
    if kind not in DealAccessKind.values:
        raise ValueError(f"unknown access kind {kind!r}")
    return DealAccess.objects.create(deal=deal, user=user, kind=kind)
