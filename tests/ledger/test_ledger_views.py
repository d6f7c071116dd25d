"""The wallet page, the practice top-up and the page header balances."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ledger import selectors, services
from ledger.currencies import format_amount
from ledger.forms import to_minor_units

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("amount", "currency", "shown"),
    [
        (0, "cash", "₹0.00"),
        (5, "cash", "₹0.05"),
        (1250, "cash", "₹12.50"),
        (-1250, "cash", "-₹12.50"),
        (100000, "cash", "₹1,000.00"),
        (12345678, "cash", "₹1,23,456.78"),
        (1234567890123, "cash", "₹12,34,56,78,901.23"),
        (999, "practice", "999 chips"),
        (1, "practice", "1 chip"),
        (-1, "practice", "-1 chip"),
        (1000, "practice", "1,000 chips"),
        (150000, "practice", "1,50,000 chips"),
        (-20, "practice", "-20 chips"),
    ],
)
def test_format_amount(amount, currency, shown):
    assert format_amount(amount, currency) == shown
    assert selectors.format_amount(amount, currency) == shown


@pytest.mark.parametrize(
    ("typed", "currency", "minor"),
    [
        ("12.50", "cash", 1250),
        ("-5", "cash", -500),
        ("0.01", "cash", 1),
        ("1,000", "practice", 1000),
    ],
)
def test_staff_amounts_convert_exactly(typed, currency, minor):
    assert to_minor_units(typed, currency) == minor


@pytest.mark.parametrize(
    ("typed", "currency"), [("1.005", "cash"), ("1.5", "practice"), ("x", "cash"), ("nan", "cash")]
)
def test_staff_amounts_refuse_fractions_of_a_unit(typed, currency):
    from django import forms

    with pytest.raises(forms.ValidationError):
        to_minor_units(typed, currency)


def test_the_wallet_needs_a_login(client):
    response = client.get(reverse("wallet"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_wallet_shows_balances_and_a_paginated_statement(client, player, fund):
    for n in range(30):
        fund(player, 100 + n)
    fund(player, 5000, "practice")
    client.force_login(player)
    page1 = client.get(reverse("wallet"))
    html = page1.content.decode()
    assert page1.status_code == 200
    total = sum(100 + n for n in range(30))
    assert format_amount(total, "cash") in html
    assert "5,000 chips" in html
    rows = re.findall(r'<td class="credit">\+(₹[\d,.]+)</td>', html)
    assert len(rows) == 25
    assert rows[0] == "₹1.29"  # newest first
    assert "Page 1 of 2" in html
    page2 = client.get(reverse("wallet"), {"page": 2})
    rows2 = re.findall(r'<td class="credit">\+(₹[\d,.]+)</td>', page2.content.decode())
    assert rows2 == ["₹1.04", "₹1.03", "₹1.02", "₹1.01", "₹1.00"]
    # The header (base.html) shows the same balances.
    header = re.search(r'id="header-balance">(.*?)</a>', html, re.S).group(1)
    assert format_amount(total, "cash") in header and "5,000 chips" in header


@pytest.mark.parametrize("page", ["abc", "0", "-3", "999", ""])
def test_bad_page_numbers_show_a_valid_page(client, player, fund, page):
    for _ in range(27):
        fund(player, 100)
    client.force_login(player)
    response = client.get(reverse("wallet"), {"page": page})
    assert response.status_code == 200
    assert response.context["page_obj"].number in (1, 2)


def test_statement_per_currency_and_unknown_currency_falls_back(client, player, fund):
    fund(player, 1234)
    fund(player, 777, "practice")
    client.force_login(player)
    practice = client.get(reverse("wallet"), {"currency": "practice"}).content.decode()
    assert "+777 chips" in practice and "+₹12.34" not in practice
    odd = client.get(reverse("wallet"), {"currency": "gold"})
    assert odd.context["currency"] == "cash"
    assert "+₹12.34" in odd.content.decode()


def test_statement_shows_game_movements_with_running_balance(client, player, fund):
    fund(player, 1000)
    services.pot_hold_entry(
        user=player, currency="cash", pot_ref="game:5", amount=300, idempotency_key="e5"
    )
    client.force_login(player)
    html = client.get(reverse("wallet")).content.decode()
    assert "Entry fee" in html and "game:5" in html
    assert "-₹3.00" in html and "₹7.00" in html


def test_practice_top_up_only_when_low_and_only_once(client, player, settings):
    settings.LEDGER_PRACTICE_TOPUP_AMOUNT = 10_000
    settings.LEDGER_PRACTICE_TOPUP_BELOW = 1_000
    client.force_login(player)
    assert client.get(reverse("wallet_practice_topup")).status_code == 405
    assert "Get 10,000 chips" in client.get(reverse("wallet")).content.decode()
    response = client.post(reverse("wallet_practice_topup"))
    assert response.status_code == 302
    assert selectors.wallet_balance(user=player, currency="practice") == 10_000
    again = client.post(reverse("wallet_practice_topup"), follow=True)
    assert "for balances under 1,000 chips; you have 10,000 chips" in again.content.decode()
    assert selectors.wallet_balance(user=player, currency="practice") == 10_000
    assert "Get 10,000 chips" not in again.content.decode()


def test_header_balances_shape(player, fund):
    fund(player, 1250)
    assert selectors.wallet_balances_for_header(user=player) == [
        {"currency": "cash", "label": "Cash", "amount": 1250, "display": "₹12.50"},
        {"currency": "practice", "label": "Practice chips", "amount": 0, "display": "0 chips"},
    ]
