"""Money in and out in a real browser on PostgreSQL: a new player signs up, deposits through
the sandbox checkout (credited by the server-side signed callback, delivered twice), joins a
cash table, wins when the other player leaves, and requests a withdrawal that waits for staff."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.live_server import running_daphne, server_env

pytestmark = [pytest.mark.postgres]

PASSWORD = "tiles-and-tigers-42"


@pytest.fixture
def money_server(transactional_db: None) -> Iterator[str]:
    """Daphne with the sandbox delivering every callback twice (once at once, once later)."""
    env = server_env(
        MONEY_GAMES="1",
        PAYMENTS_SANDBOX_LATE_RATE="0",
        PAYMENTS_SANDBOX_DUPLICATE_RATE="1",
        PAYMENTS_SANDBOX_DELAY_S="0.5",
    )
    with running_daphne(env) as url:
        yield url


@pytest.fixture
def cash_table(transactional_db: None) -> Any:
    from tables.models import TableTemplate
    from tables.services import table_create

    template = TableTemplate(
        name="Cash duel",
        variant="pool101",
        seats_min=2,
        seats_max=2,
        currency="cash",
        entry_fee=5_000,
        turn_s=60,
    )
    template.full_clean()
    template.save()
    return table_create(template=template, name="Cash duel")


@pytest.fixture
def opponent(transactional_db: None) -> Any:
    from django.contrib.auth import get_user_model

    from ledger.services import wallet_deposit

    user = get_user_model().objects.create_user(username="dev", password=PASSWORD)
    wallet_deposit(user=user, currency="cash", amount=5_000, idempotency_key="t:fund:dev")
    return user


def _reload_until(page: Any, selector: str, text: str, tries: int = 30) -> None:
    for _ in range(tries):
        if text in page.locator(selector).inner_text():
            return
        page.wait_for_timeout(500)
        page.reload()
    raise AssertionError(f"{text!r} never appeared in {selector}")


def test_deposit_join_win_and_request_a_withdrawal(browser, money_server, cash_table, opponent):
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from accounts.services import user_identity_set
    from ledger.models import Transaction
    from ledger.payments.models import Deposit
    from ledger.reconcile import reconcile_run
    from ledger.selectors import wallet_balance
    from tables.models import Game, GameStatus, Table
    from tables.services import table_join, table_leave

    context = browser.new_context(base_url=money_server, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto("/accounts/signup/")
        page.fill("#id_username", "kiran")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.check("#id_age_confirmed")
        page.click("button[type=submit]")
        page.wait_for_url("**/")
        kiran = get_user_model().objects.get(username="kiran")
        assert kiran.age_confirmed_at is not None
        user_identity_set(user=kiran, verified=True)  # staff checked the identity

        # Deposit ₹100 through the sandbox's hosted checkout.
        page.goto("/wallet/?currency=cash")
        page.fill("#deposit_amount", "100")
        page.click("#deposit-form button[type=submit]")
        page.wait_for_url(re.compile(r"/payments/sandbox/dep_[0-9a-f]+/$"))
        assert "Pay ₹100.00" in page.locator("h1").inner_text()
        page.click("button[value=pay]")
        page.wait_for_url(re.compile(r"/wallet/\?currency=cash$"))
        _reload_until(page, "#deposits", "Paid")
        assert "₹100.00" in page.locator("#header-balance").inner_text()
        deposit = Deposit.objects.get(user=kiran)
        page.wait_for_timeout(1_500)  # the duplicate delivery arrives and changes nothing
        assert deposit.events.filter(detail__startswith="Paid again").exists()
        assert Transaction.objects.filter(idempotency_key__endswith=deposit.reference).count() == 1
        assert wallet_balance(user=kiran, currency="cash") == 10_000

        # Play now on the cash game; the other player sits, the game starts, and they leave.
        page.goto("/")
        play = reverse("template_play", args=[cash_table.template_id])
        page.locator(f"form[action='{play}'] button[type=submit]").click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        table = Table.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
        assert table.template_id == cash_table.template_id
        assert wallet_balance(user=kiran, currency="cash") == 5_000
        table_join(table=table, user=opponent)
        table_leave(table=table, user=opponent)
        game = Game.objects.filter(table=table).order_by("-pk").first()
        assert game is not None and game.status == GameStatus.FINISHED
        won = wallet_balance(user=kiran, currency="cash")
        assert won > 5_000

        # Ask for ₹100 of it; it is held and waits for staff.
        page.goto("/wallet/?currency=cash")
        page.fill("#withdraw_amount", "100")
        page.click("#withdraw-form button[type=submit]")
        page.wait_for_url(re.compile(r"/wallet/\?currency=cash$"))
        assert "Withdrawal of ₹100.00 requested" in page.locator("#messages").inner_text()
        assert "Pending approval" in page.locator("#withdrawals").inner_text()
        assert wallet_balance(user=kiran, currency="cash") == won - 10_000
        report = reconcile_run()
        assert report.ok, report.discrepancies
    finally:
        context.close()
