"""What the ledger tells observers above it (metrics): ``transaction_posted`` is sent for every
new transaction (not a replay of an idempotency key) when its database transaction commits,
with ``kind``, ``currency`` and ``entries`` (the number of entries it posted)."""

from __future__ import annotations

from django.db import transaction as db_transaction
from django.dispatch import Signal

transaction_posted = Signal()


def posted(*, kind: str, currency: str, entries: int) -> None:
    """Announce a new posting once the surrounding database transaction commits."""
    db_transaction.on_commit(
        lambda: transaction_posted.send_robust(
            sender=None, kind=kind, currency=currency, entries=entries
        )
    )
