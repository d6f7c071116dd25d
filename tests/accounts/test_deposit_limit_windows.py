"""Issue 21, point 1: a deposit limit counts over a window the player cannot move (the last 24
hours, the last 30 days), not the calendar day of the profile's time zone, and the refusal says
when more is allowed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts import services
from ledger.payments import services as payments
from ledger.payments.models import Deposit

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 10, 19, 45, tzinfo=UTC)  # 01:15 in India, 23:45 in Dubai


class Clock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    settings.MONEY_GAMES = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    clock = Clock(T0)
    monkeypatch.setattr(timezone, "now", clock)
    return clock


def test_switching_the_profile_time_zone_does_not_reset_the_daily_limit(client, player, clock):
    player.time_zone = "Asia/Kolkata"
    player.save()
    services.limits_set(user=player, period="daily", amount=1000, now=T0 - timedelta(days=2))
    client.force_login(player)
    first = client.post("/wallet/deposit/", {"amount": "10"})
    assert first.status_code == 302 and "/payments/sandbox/" in first["Location"]

    clock.at = T0 + timedelta(minutes=20)  # 00:05 in Dubai: a new calendar day there
    saved = client.post(
        "/accounts/profile/",
        {"display_name": player.display_name, "language": "en", "time_zone": "Asia/Dubai"},
    )
    assert saved.status_code == 302
    second = client.post("/wallet/deposit/", {"amount": "10"}, follow=True)
    html = second.content.decode()
    assert Deposit.objects.filter(user=player).count() == 1
    assert "counted over the last 24 hours" in html
    # When more is allowed, in the player's (Dubai) time: 24 hours after the first deposit.
    assert "From March 11, 2026, 11:45 p.m., ₹10.00 fits again." in html


def test_seven_deposits_spread_over_20_hours_take_one_limit(player, clock):
    services.limits_set(user=player, period="daily", amount=1000, now=T0 - timedelta(days=2))
    taken = 0
    for step in range(7):
        at = T0 + timedelta(minutes=step * 201)  # the last one 20 h 6 min after the first
        try:
            payments.deposit_start(user=player, amount=1000, now=at)
        except payments.DepositRefused as refused:
            assert refused.details["allowed_from"] == T0 + timedelta(hours=24)
        else:
            taken += 1
    assert taken == 1
    payments.deposit_start(user=player, amount=1000, now=T0 + timedelta(hours=24, seconds=1))


def test_the_monthly_limit_rolls_over_30_days(player, clock):
    services.limits_set(user=player, period="monthly", amount=3000, now=T0 - timedelta(days=40))
    payments.deposit_start(user=player, amount=2000, now=T0)
    payments.deposit_start(user=player, amount=1000, now=T0 + timedelta(days=25))
    with pytest.raises(payments.DepositRefused, match="counted over the last 30 days") as refused:
        payments.deposit_start(user=player, amount=1500, now=T0 + timedelta(days=29))
    assert refused.value.details["allowed_from"] == T0 + timedelta(days=30)
    # More than the limit itself never fits: no date is promised.
    with pytest.raises(payments.DepositRefused) as never:
        payments.deposit_start(user=player, amount=5000, now=T0 + timedelta(days=29))
    assert never.value.details["allowed_from"] is None and "fits again" not in never.value.message
    payments.deposit_start(user=player, amount=2000, now=T0 + timedelta(days=30, seconds=1))
