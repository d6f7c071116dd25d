"""Reads of the ledger (placeholder until the ledger lands)."""

from __future__ import annotations

from typing import Any


def wallet_balances_for_header(*, user: Any) -> list[dict[str, Any]]:
    return []
