"""Support and admin words (issue 22, point 9): the header says "Support" once and shows no
empty wallets for staff; the step-through shows each discarded card once; "After the deal" is
filled for Points; the admin shows proper names."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from tables_testkit import Planter, TableDriver
from test_support_review import agent, disputed, support  # noqa: F401  (fixtures)

from accounts.models import User
from ledger import services as ledger_services
from ledger.payments.services import deposit_start
from rummy_site.demo import demo_seed
from tables.models import Deal

pytestmark = pytest.mark.django_db


def _header(html: str) -> str:
    header = html[html.index('<header class="site-header">') : html.index("</header>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", header))


def test_the_demo_support_agent_reads_support_once_and_no_empty_wallets(client: Client) -> None:
    demo_seed()
    client.force_login(User.objects.get(username="support"))
    header = _header(client.get(reverse("support_deals")).content.decode())
    assert header.split().count("Support") == 1
    assert "₹0.00" not in header and "0 chips" not in header


def test_staff_with_a_wallet_still_see_their_balance(client: Client, user_factory) -> None:
    staff = user_factory(is_staff=True)
    ledger_services.wallet_deposit(
        user=staff, currency="practice", amount=300, idempotency_key="staff-chips"
    )
    client.force_login(staff)
    assert "300 chips" in _header(client.get(reverse("lobby")).content.decode())


def test_the_step_through_shows_each_discarded_card_once(
    disputed: tuple[TableDriver, dict[int, Any]],  # noqa: F811
    support: Client,  # noqa: F811
) -> None:
    t, _groups = disputed
    deal = Deal.objects.get(game=t.game())
    html = support.get(reverse("support_deal", args=[deal.pk])).content.decode()
    replay = html[html.index('id="replay"') :]
    rows = re.findall(
        r'<tr class="replay-step[^"]*" data-version="\d+">(.*?)</tr>\s*(?=<tr|</tbody>)',
        replay,
        re.S,
    )
    # a player's own discards (a turn the server played picks and throws: two cards)
    discards = [row for row in rows if "<strong>server</strong>" not in row and "discarded" in row]
    assert len(discards) >= 2
    for row in discards:
        # the "Table after this move" details show hands, not the move: look before them
        move = row.split("<details>")[0]
        codes = re.findall(r'data-code="([^"]+)"', move)
        assert len(codes) == len(set(codes)) == 1, move


def test_after_the_deal_is_filled_for_points(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
    support: Client,  # noqa: F811
) -> None:
    toss(1)
    t = seated(2, variant="points", point_value=5, platform_fee_bps=0)
    t.act(1, "drop")
    deal = Deal.objects.get(game=t.game())
    html = support.get(reverse("support_deal", args=[deal.pk])).content.decode()
    cells = re.findall(r'<td class="after">(.*?)</td>', html, re.S)
    assert [c.strip() for c in cells] == [
        "game over · settled \u2212₹1.00",
        "game over · settled +₹1.00",
    ]


def test_the_admin_shows_proper_names(client: Client, user_factory) -> None:
    admin = user_factory(is_staff=True, is_superuser=True)
    deposit_start(user=user_factory(), amount=10_000)
    client.force_login(admin)
    deposits = client.get(reverse("admin:ledger_deposit_changelist")).content.decode()
    headings = re.findall(
        r'<th scope="col" class="column-(\w+)[^"]*">\s*<div class="text">'
        r"(?:<span>|<a [^>]*>)([^<]*)<",
        deposits,
    )
    assert ("amount_display", "Amount") in headings
    access = client.get(reverse("admin:tables_dealaccess_changelist")).content.decode()
    assert "deal access log" not in access and "deal access records" in access
    add = client.get(reverse("admin:tables_tabletemplate_add")).content.decode()
    assert "Classic 10-card None" not in add and "Classic 10-card no limit" in add


def test_the_pair_signals_sort_links_are_words(support: Client) -> None:  # noqa: F811
    html = support.get(reverse("support_signals")).content.decode()
    sorts = html[html.index("Sort by:") : html.index("</p>", html.index("Sort by:"))]
    assert "big_losses" not in re.sub(r'href="[^"]*"', "", sorts)
    assert "big losses" in sorts and "money flow" in sorts


def test_the_review_reads_in_the_staff_members_language(
    disputed: tuple[TableDriver, dict[int, Any]],  # noqa: F811
    support: Client,  # noqa: F811
) -> None:
    """The review's words come from translated presenters: in Hindi, the step-through's
    actions, the server's turn and the think times are Hindi."""
    t, _groups = disputed
    deal = Deal.objects.get(game=t.game())
    support.cookies["django_language"] = "hi"
    with translation.override("en"):  # the request's language ends with it
        html = support.get(reverse("support_deal", args=[deal.pk])).content.decode()
    replay = html[html.index('id="replay"') : html.index('id="notes"')]
    assert "टाइमर खत्म हो गया" in replay and "(सर्वर ने खेला)" in replay
    assert "7.0 सेकंड" in replay and "timer ran out" not in replay
    assert "सर्वर" in replay and "<strong>server</strong>" not in replay
