"""A new player's first ten minutes in a real browser (issue 22): the welcome practice chips in
words, the wallet following a pending deposit live with Resume and Cancel, money words that
are right (a 20-digit amount, the unverified-withdrawal refusal with its contact link), Best
groups keeping the sequences built, the last player in shown without a verdict, the lobby in
Hindi, and the support header."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import acted, login, sign_up, two_seat_table

PASSWORD = "tiles-and-tigers-42"


def _player(username: str, **fields):
    return get_user_model().objects.create_user(username=username, password=PASSWORD, **fields)


def test_a_new_player_reads_the_welcome_practice_chips_in_words(page):
    sign_up(page, "asha", "Asha", PASSWORD)
    words = page.locator("#practice-words").inner_text()
    assert "You have 10,000 chips." in words
    assert "You got 10,000 chips as a welcome gift when you signed up." in words
    assert "10,000 chips" in page.locator("#header-balance").inner_text()
    page.goto("/wallet/?currency=practice")
    assert "welcome gift" in page.locator("#practice-words").inner_text()
    statement = page.locator("#statement").inner_text()
    assert "Welcome practice chips" in statement and "Deposit" not in statement


def test_the_wallet_follows_a_pending_deposit_and_resumes_or_cancels_it(page):
    from ledger.payments.models import Deposit
    from ledger.payments.sandbox import SIGNATURE_HEADER, sandbox_body, sandbox_sign
    from ledger.payments.services import deposit_callback_apply

    _player("meera")
    login(page, "meera", PASSWORD)
    page.goto("/wallet/?currency=cash")
    page.fill("#deposit_amount", "500")
    page.click("#deposit-form button[type=submit]")
    page.wait_for_url(re.compile(r"/payments/sandbox/dep_\w+/$"))
    page.goto("/wallet/?currency=cash")  # she came back without paying
    deposit = Deposit.objects.get()
    row = page.locator(f"#deposit-{deposit.reference}")
    assert "Pending" in row.inner_text()
    assert row.locator("a", has_text="Resume payment").get_attribute("href") == (
        deposit.checkout_url
    )
    # the provider confirms the payment: the page shows it without a reload, balance too
    body = sandbox_body(reference=deposit.reference, status="paid", amount=deposit.amount)
    deposit_callback_apply(
        provider="sandbox", body=body, headers={SIGNATURE_HEADER: sandbox_sign(body)}
    )
    page.wait_for_function(
        "ref => (document.getElementById('deposit-' + ref) || {}).textContent.includes('Paid')",
        arg=deposit.reference,
        timeout=10_000,
    )
    page.wait_for_function(
        "() => document.getElementById('header-balance').textContent.includes('₹500.00')"
    )
    assert page.locator(f"#deposit-{deposit.reference} a", has_text="Resume").count() == 0
    # an abandoned checkout: resumed, then cancelled
    page.fill("#deposit_amount", "200")
    page.click("#deposit-form button[type=submit]")
    page.wait_for_url(re.compile(r"/payments/sandbox/dep_\w+/$"))
    page.goto("/wallet/?currency=cash")
    second = Deposit.objects.exclude(pk=deposit.pk).get()
    row = page.locator(f"#deposit-{second.reference}")
    row.locator("a", has_text="Resume payment").click()
    page.wait_for_url(f"**{second.checkout_url}")
    page.go_back()
    page.locator(f"#deposit-{second.reference} button", has_text="Cancel").click()
    page.wait_for_url("**/wallet/?currency=cash")
    assert "Deposit of ₹200.00 cancelled" in page.locator("#messages").inner_text()
    assert "Cancelled" in page.locator(f"#deposit-{second.reference}").inner_text()
    second.refresh_from_db()
    assert second.status == "cancelled"


def test_money_words_for_a_huge_amount_and_an_unverified_withdrawal(page):
    from ledger.services import wallet_deposit

    user = _player("meera")
    wallet_deposit(user=user, currency="cash", amount=10_000, idempotency_key="t:fund:meera")
    login(page, "meera", PASSWORD)
    page.goto("/wallet/?currency=cash")
    page.fill("#deposit_amount", "12345678901234567890")
    page.click("#deposit-form button[type=submit]")
    page.wait_for_url("**/wallet/?currency=cash")
    said = page.locator("#messages").inner_text()
    assert "That amount is too large" in said and "-5" not in said
    page.fill("#withdraw_amount", "50")
    page.click("#withdraw-form button[type=submit]")
    page.wait_for_url("**/wallet/?currency=cash")
    assert "Please contact support." in page.locator("#messages").inner_text()
    page.locator("#messages a", has_text="Contact support").click()
    page.wait_for_url("**/accounts/contact/")
    assert page.locator("h1").inner_text() == "Contact support"
    assert page.locator("#contact a[href^='mailto:']").count() == 1


@pytest.fixture
def two_sequences_table(transactional_db, monkeypatch):
    """Meera (seat 1) holds two sequences with jokers and no pure sequence; her hand is laid
    out as dealt, one group."""
    table, _users = two_seat_table(
        monkeypatch,
        people=[("meera", "Meera"), ("ravi", "Ravi")],
        password=PASSWORD,
        chips=5000,
        deal={
            "hands": {
                1: ["QH", "KH", "JK", "JS", "QS", "2D", "AC", "3D", "4H", "6S", "8C", "10D", "9H"]
            },
            "open_card": "5C",
            "cut_card": "2C",
        },
        name="Evening 101",
        variant="pool101",
        entry_fee=1000,
        break_s=300,
    )
    return table


def test_best_groups_keeps_the_two_sequences_meera_built(page, two_sequences_table):
    login(page, "meera", PASSWORD)
    page.goto(f"/tables/{two_sequences_table.pk}/")
    page.wait_for_selector("#my-hand .pcard")
    with acted(page, "sort"):
        page.click(".act-sort button")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#my-hand .group-kind')]"
        ".filter(e => e.textContent.includes('sequence')).length === 2"
    )
    kept = set()
    for group in page.locator("#my-hand .group:not(.new-group)").all():
        if "sequence" in group.locator(".group-kind").inner_text():
            codes = group.locator(".pcard").evaluate_all("els => els.map(e => e.dataset.code)")
            kept.add(frozenset(c for c in codes if c not in ("JK", "2D")))
    assert kept == {frozenset({"QH", "KH"}), frozenset({"JS", "QS"})}


def test_the_last_player_in_is_shown_without_a_verdict(page, two_sequences_table):
    from tables import services
    from tables.models import Game

    ravi = get_user_model().objects.get(username="ravi")
    meera = get_user_model().objects.get(username="meera")
    game = Game.objects.get(table=two_sequences_table)
    services.game_act(game_id=game.pk, user=meera, action="drop", expected_version=game.version)
    login(page, "ravi", PASSWORD)
    page.goto(f"/tables/{two_sequences_table.pk}/")
    row = page.locator("#scoreboard tr.sheet-row", has_text="Ravi")
    assert "last player in" in row.inner_text()
    assert row.locator(".mini-kind").count() == 0  # no "invalid" (nor any label) on his cards
    assert "invalid" not in row.inner_text()
    assert ravi.pk


def test_the_lobby_in_hindi(page):
    from tables import services
    from tables.models import TableTemplate

    template = TableTemplate(
        name="Evening Pool",
        name_hi="शाम का पूल",
        variant="pool101",
        seats_min=2,
        seats_max=3,
        currency="practice",
        entry_fee=100,
    )
    template.full_clean()
    template.save()
    from ledger.services import wallet_deposit

    seated = _player("ravi")
    wallet_deposit(user=seated, currency="practice", amount=500, idempotency_key="t:fund:ravi")
    services.template_play_now(template=template, user=seated)
    _player("meera", language="hi")
    login(page, "meera", PASSWORD)
    row = page.locator(f'tr.lobby-row[data-template-id="{template.pk}"]')
    assert "शाम का पूल" in row.inner_text() and "Evening Pool" not in row.inner_text()
    assert "1 बैठा है" in row.locator(".players").inner_text()
    headings = page.locator("table.lobby thead th").all_inner_texts()
    named = [h.strip() for h in headings if h.strip()]
    assert len(named) == len(set(named)), named


def test_the_support_header_says_support_once(page):
    from rummy_site.demo import demo_seed

    demo_seed()
    support = get_user_model().objects.get(username="support")
    support.set_password(PASSWORD)
    support.save()
    login(page, "support", PASSWORD)
    page.goto("/support/deals/")
    header = page.locator(".site-header").inner_text()
    assert header.split().count("Support") == 1
    assert "₹0.00" not in header and "0 chips" not in header
