"""Practice chips for a new player (issue 22, point 3): a welcome grant at sign-up (once, keyed
by the player, the amount in the staff's practice chips policy), said in words in the lobby and
the wallet; Play now credits nothing behind the player's back; the daily top-up is unchanged."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse
from tables_testkit import Clock, balance

from accounts.models import User
from ledger import services as ledger_services
from ledger.models import PracticeChipsPolicy, Transaction
from tables import services
from tables.models import TableTemplate

pytestmark = pytest.mark.django_db

PASSWORD = "tiles-and-tigers-42"


def _sign_up(client: Any, username: str) -> User:
    response = client.post(
        reverse("signup"),
        {
            "username": username,
            "display_name": username.title(),
            "password1": PASSWORD,
            "password2": PASSWORD,
            "age_confirmed": "on",
        },
    )
    assert response.status_code == 302
    return User.objects.get(username=username)


@pytest.fixture
def practice_template(template_factory: Callable[..., TableTemplate]) -> TableTemplate:
    return template_factory(
        name="Practice Points",
        variant="points",
        currency="practice",
        point_value=20,
        practice=True,
        seats_min=2,
        seats_max=2,
        bot_count=1,
        human_wait_s=20,
    )


def test_a_new_player_gets_the_welcome_practice_chips_once(client: Any) -> None:
    user = _sign_up(client, "meera")
    assert balance(user, "practice") == 10_000
    grant = Transaction.objects.get(idempotency_key=f"practice-welcome:{user.pk}")
    assert grant.memo == "Welcome practice chips"
    # a repeat (a retried request, a second call) returns the same grant and credits nothing
    assert ledger_services.practice_chips_welcome_grant(user=user) == grant
    assert balance(user, "practice") == 10_000


def test_the_welcome_amount_is_the_staffs_policy_then_the_setting(client: Any, settings) -> None:
    settings.LEDGER_PRACTICE_WELCOME_AMOUNT = 2_500
    assert balance(_sign_up(client, "asha"), "practice") == 2_500
    client.logout()
    PracticeChipsPolicy.objects.create(daily_amount=10_000, balance_cap=1_000, welcome_amount=700)
    assert balance(_sign_up(client, "bilal"), "practice") == 700
    client.logout()
    PracticeChipsPolicy.objects.update(welcome_amount=0)
    nothing = _sign_up(client, "chand")
    assert balance(nothing, "practice") == 0
    assert not Transaction.objects.filter(idempotency_key=f"practice-welcome:{nothing.pk}")


def test_the_lobby_and_the_wallet_say_it_in_words(client: Any) -> None:
    _sign_up(client, "meera")
    for page in (reverse("lobby"), reverse("wallet") + "?currency=practice"):
        html = client.get(page).content.decode()
        assert "You have <strong>10,000 chips</strong>." in html
        assert "You got 10,000 chips as a welcome gift when you signed up." in html
        assert "Whenever you have less than 1,000 chips, you can take 10,000 chips free" in html


def test_play_now_credits_no_practice_chips_behind_the_players_back(
    client: Any, practice_template: TableTemplate, clock: Clock
) -> None:
    user = _sign_up(client, "meera")
    seat = services.template_play_now(template=practice_template, user=user)
    credits = Transaction.objects.filter(entries__account__user=user, kind="deposit")
    assert list(credits.values_list("memo", flat=True)) == ["Welcome practice chips"]
    stake = seat.game.stake
    assert balance(user, "practice") == 10_000 - stake


def test_a_player_out_of_practice_chips_is_told_and_the_daily_top_up_still_works(
    client: Any,
    user_factory: Callable[..., Any],
    practice_template: TableTemplate,
    clock: Clock,
) -> None:
    broke = user_factory()  # an account from before the welcome grant: no chips at all
    with pytest.raises(services.NotEnoughFunds, match="Free practice chips are in your wallet"):
        services.template_play_now(template=practice_template, user=broke)
    assert not Transaction.objects.filter(entries__account__user=broke).exists()
    ledger_services.practice_chips_top_up_daily(user=broke)  # not used up by Play now
    assert balance(broke, "practice") == 10_000
    services.template_play_now(template=practice_template, user=broke)


def test_staff_set_the_welcome_amount_beside_the_daily_top_up(client: Any, user_factory) -> None:
    client.force_login(user_factory(is_staff=True, is_superuser=True))
    url = reverse("admin:ledger_practicechipspolicy_add")
    html = client.get(url).content.decode()
    assert 'name="welcome_amount"' in html and 'value="10000"' in html
    response = client.post(
        url, {"daily_amount": "10000", "balance_cap": "1000", "welcome_amount": "2000"}
    )
    assert response.status_code == 302
    assert PracticeChipsPolicy.objects.get().welcome_amount == 2_000
    client.logout()
    assert balance(_sign_up(client, "dev"), "practice") == 2_000
