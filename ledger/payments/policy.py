"""What a player's own rules allow at the cashier: deposit limits, self-exclusion and whether
staff verified their identity. The rules are kept by the accounts app; the ledger reads them
through the callable named by ``settings.PAYMENTS_PLAYER_POLICY`` (``accounts.selectors.
player_money_policy``), so neither app imports the other. Without the setting nobody has a
limit, an exclusion or a verified identity."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # the AUTH_USER_MODEL


@dataclass(frozen=True)
class PlayerPolicy:
    daily_limit: int | None = None  # paise, None: no limit
    monthly_limit: int | None = None
    self_excluded_until: datetime | None = None
    identity_verified: bool = False


def player_policy(*, user: User, now: datetime) -> PlayerPolicy:
    path = getattr(settings, "PAYMENTS_PLAYER_POLICY", "")
    if not path:
        return PlayerPolicy()
    data = import_string(path)(user=user, now=now)
    return PlayerPolicy(
        daily_limit=data.get("daily_limit"),
        monthly_limit=data.get("monthly_limit"),
        self_excluded_until=data.get("self_excluded_until"),
        identity_verified=bool(data.get("identity_verified")),
    )
