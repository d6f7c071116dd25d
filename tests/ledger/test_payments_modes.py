"""Chips-only mode (``MONEY_GAMES`` off) refuses every cash path; the daily free practice chips
are given once a day, below the staff's cap, even to parallel requests."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from ledger import selectors
from ledger.models import PracticeChipsPolicy, Transaction
from ledger.payments import services as payments
from ledger.services import PracticeTopUpRefused, practice_chips_top_up_daily
from tests.threads import race

pytestmark = pytest.mark.django_db


def _template(currency: str) -> Any:
    from tables.models import TableTemplate

    fields: dict[str, Any] = {"practice": True, "bot_count": 1} if currency == "practice" else {}
    template = TableTemplate(
        name=f"{currency} pool",
        variant="pool101",
        seats_min=2,
        seats_max=2,
        currency=currency,
        entry_fee=1000,
        **fields,
    )
    template.full_clean()
    template.save()
    return template


@pytest.fixture
def chips_only(settings: Any) -> None:
    settings.MONEY_GAMES = False


@pytest.fixture
def cash_table(settings: Any) -> Any:
    from tables.services import table_create

    settings.MONEY_GAMES = True
    return table_create(template=_template("cash"))


def test_chips_only_hides_cash_tables_from_the_lobby(cash_table, client, player, settings):
    client.force_login(player)
    lobby = reverse("lobby")
    assert cash_table.template.name in client.get(lobby).content.decode()
    settings.MONEY_GAMES = False
    assert cash_table.template.name not in client.get(lobby).content.decode()


def test_chips_only_refuses_joining_a_cash_table(cash_table, player, settings):
    from tables.services import table_join
    from tables.services.errors import TableClosed

    settings.MONEY_GAMES = False
    with pytest.raises(TableClosed, match="Money games are off"):
        table_join(table=cash_table, user=player)


def test_chips_only_header_and_wallet_show_no_cash(client, player, chips_only):
    client.force_login(player)
    html = client.get(reverse("wallet") + "?currency=cash").content.decode()
    assert "Cash" not in html
    assert 'id="cashier"' not in html
    assert selectors.wallet_balances_for_header(user=player)[0]["currency"] == "practice"


def test_chips_only_a_player_who_owns_cash_can_withdraw_it_but_not_deposit(
    client, user_factory, fund, chips_only
):
    player = user_factory(identity_verified=True)
    fund(player, 12_345)
    client.force_login(player)
    html = client.get(reverse("wallet") + "?currency=cash").content.decode()
    assert 'id="withdraw-form"' in html and 'id="deposit-form"' not in html
    assert "₹123.45" in html and 'id="money-off-withdraw"' in html
    response = client.post(reverse("wallet_withdraw"), {"amount": "123.45"})
    assert response.status_code == 302
    assert selectors.wallet_balance(user=player, currency="cash") == 0
    assert player.withdrawals.get().amount == 12_345


def test_chips_only_cash_endpoints_refuse(client, player, chips_only, user_factory):
    client.force_login(player)
    response = client.post(reverse("wallet_deposit"), {"amount": "100"})
    assert response.status_code == 403
    assert "Money games are off" in response.content.decode()
    with pytest.raises(payments.MoneyGamesOff):
        payments.deposit_start(user=player, amount=10_000)


def test_chips_only_admin_creates_no_cash_table(client, user_factory, settings):
    from tables.services import table_create
    from tables.services.errors import TableClosed
    from tables.staff.admin import TableForm

    cash, practice = _template("cash"), _template("practice")
    settings.MONEY_GAMES = False
    choices = list(TableForm().fields["template"].queryset)
    assert practice in choices and cash not in choices
    with pytest.raises(TableClosed, match="cash tables cannot be opened"):
        table_create(template=cash)
    client.force_login(user_factory(is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:tables_tabletemplate_add")).content.decode()
    assert 'value="cash"' not in page


def test_chips_only_sign_up_asks_no_age(client, chips_only):
    page = client.get(reverse("signup")).content.decode()
    assert "18 or older" not in page


# --- daily practice chips ---------------------------------------------------------------------


def test_the_daily_practice_chips_once_a_day_below_the_cap(client, player):
    PracticeChipsPolicy.objects.create(daily_amount=5_000, balance_cap=2_000)
    client.force_login(player)
    done = client.post(reverse("wallet_practice_topup"), follow=True).content.decode()
    assert "5,000 chips added." in done
    assert selectors.wallet_balance(user=player, currency="practice") == 5_000
    again = client.post(reverse("wallet_practice_topup"), follow=True).content.decode()
    assert "for balances under 2,000 chips; you have 5,000 chips" in again


def test_the_daily_practice_chips_come_once_even_when_low_again(player):
    from datetime import timedelta

    from django.utils import timezone

    PracticeChipsPolicy.objects.create(daily_amount=500, balance_cap=2_000)
    now = timezone.now()
    practice_chips_top_up_daily(user=player, now=now)
    with pytest.raises(PracticeTopUpRefused, match="already had today's"):
        practice_chips_top_up_daily(user=player, now=now)
    practice_chips_top_up_daily(user=player, now=now + timedelta(days=1))
    assert selectors.wallet_balance(user=player, currency="practice") == 1_000


@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_top_ups_credit_once(user_factory):
    player = user_factory()
    results = race(20, lambda i: practice_chips_top_up_daily(user=player))
    credited = [r for r in results if isinstance(r, Transaction)]
    refused = [r for r in results if isinstance(r, PracticeTopUpRefused)]
    assert len(credited) + len(refused) == 20, results
    assert len({tx.pk for tx in credited}) == 1
    assert selectors.wallet_balance(user=player, currency="practice") == 10_000
