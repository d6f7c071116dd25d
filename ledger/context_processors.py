"""Header data for every page: the signed-in player's wallet balances."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from .selectors import wallet_balances_for_header


def header_balances(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"header_balances": wallet_balances_for_header(user=user)}
