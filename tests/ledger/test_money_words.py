"""Money words a player reads (issue 22, point 5): one label per statement line, the staff's
internal reasons kept from the player, the unverified-withdrawal refusal with a link to the
contact page."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from ledger import services as ledger_services
from ledger.payments import services
from ledger.payments.models import Deposit
from ledger.payments.sandbox import SIGNATURE_HEADER, sandbox_body, sandbox_sign

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("payments_sandbox")]


def _paid(client: Any, deposit: Deposit) -> None:
    body = sandbox_body(reference=deposit.reference, status="paid", amount=deposit.amount)
    response = client.post(
        "/payments/webhook/sandbox/",
        data=body,
        content_type="application/json",
        headers={SIGNATURE_HEADER: sandbox_sign(body)},
    )
    assert response.status_code == 200


def _statement_whats(html: str) -> list[str]:
    section = html[html.index('id="statement"') :]
    body = section[section.index("<tbody>") : section.index("</tbody>")]
    cells = [row.split("<td>")[2].split("</td>")[0] for row in body.split("<tr>")[1:]]
    return [cell.strip() for cell in cells]


def test_statement_lines_say_each_label_once(client, user_factory, staff):
    player = user_factory(identity_verified=True)
    client.force_login(player)
    _paid(client, services.deposit_start(user=player, amount=50_000))
    withdrawal = services.withdrawal_request(user=player, amount=10_000)
    services.withdrawal_reject(
        withdrawal=withdrawal, staff_user=staff, reason="KYC mismatch flagged by fraud desk"
    )
    ledger_services.wallet_adjust(
        user=player,
        currency="cash",
        amount=500,
        staff_user=staff,
        reason="goodwill, ticket 4411",
        idempotency_key="adj-1",
    )
    html = client.get(reverse("wallet") + "?currency=cash").content.decode()
    whats = _statement_whats(html)
    assert whats == [
        "Adjustment",
        "Withdrawal rejected (returned)",
        "Withdrawal requested (held)",
        "Deposit (sandbox)",
    ]
    assert "Deposit: Deposit" not in html and "(held): Withdrawal" not in html
    # the staff's reasons are their internal notes: neither a "Note" column nor the statement
    assert "KYC mismatch" not in html and "ticket 4411" not in html
    assert ">Note<" not in html


def test_the_unverified_withdrawal_refusal_links_to_the_contact_page(client, user_factory):
    player = user_factory()
    ledger_services.wallet_deposit(
        user=player, currency="cash", amount=10_000, idempotency_key="fund-1"
    )
    client.force_login(player)
    response = client.post(reverse("wallet_withdraw"), {"amount": "50"}, follow=True)
    html = response.content.decode()
    assert "contact support" in html
    link = f'<a href="{reverse("contact")}">Contact support</a>'
    assert link in html
    contact = client.get(reverse("contact"))
    assert contact.status_code == 200
    assert "support@example.com" in contact.content.decode()


def test_the_contact_page_is_open_without_logging_in(client, settings):
    settings.SUPPORT_EMAIL = "help@rummy.test"
    page = client.get(reverse("contact"))
    assert page.status_code == 200
    assert 'href="mailto:help@rummy.test"' in page.content.decode()
