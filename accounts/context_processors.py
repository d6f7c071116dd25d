"""Header data for every page: the player's name and wallet balances."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def player(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from ledger.selectors import wallet_balances_for_header

    return {"header_balances": wallet_balances_for_header(user=user)}
