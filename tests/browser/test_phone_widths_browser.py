"""Phones: on a 390 px wide screen the pages with tables (a finished deal's result sheet on the
table page, My games, a deal's review, the statistics, the tournaments list) fit the width:
no element reaches past the right edge and the page never scrolls sideways."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import act_now, login, two_seat_table

PASSWORD = "tiles-and-tigers-42"
PHONE = {"width": 390, "height": 844}
# Meera could show at once; she picks 8C, throws 5H, Ravi throws 2D, then Meera drops.
MEERA = ["AS", "2S", "3S", "4S", "5H", "6H", "7H", "9D", "10D", "JD", "KC", "KD", "KH"]
RAVI = ["2C", "5D", "8H", "JS", "KD", "3H", "6S", "9C", "4D", "7S", "10H", "AD", "QS"]

# Elements whose right edge is past the viewport's (fixed ones aside), and the page's width.
OVERFLOW = """() => ({
    wide: Array.from(document.querySelectorAll('body *'))
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                     && getComputedStyle(e).position !== 'fixed')
        .map(e => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
})"""


def _assert_fits(page) -> None:
    found = page.evaluate(OVERFLOW)
    assert found["inner"] == PHONE["width"]
    assert found["wide"] == [], found
    assert found["scroll"] <= found["inner"], found


@pytest.fixture
def phone(page):
    page.set_viewport_size(PHONE)
    return page


@pytest.fixture
def finished_game(transactional_db, monkeypatch):
    """A two-seat cash Points game between Meera and Ravi (planted shoe), played to its end:
    Meera throws, Ravi throws, Meera drops. Returns the game."""
    from tables.models import Game, GameStatus

    table, users = two_seat_table(
        monkeypatch,
        people=[("meera", "Meera Krishnamurthy"), ("ravi", "Ravi Venkataraman")],
        password=PASSWORD,
        chips=50_000,
        deal={
            "hands": {1: MEERA, 2: RAVI},
            "open_card": "JC",
            "cut_card": "QC",
            "closed_top": ["8C", "2D", "9H"],
        },
        name="Evening points at ten",
        variant="points",
        point_value=10,
    )
    game = Game.objects.get(table=table)
    for seat, action, payload in (
        (1, "pick_closed", {}),
        (1, "discard", {"card": "5H"}),
        (2, "pick_closed", {}),
        (2, "discard", {"card": "2D"}),
        (1, "drop", {}),
    ):
        act_now(game, users[seat - 1], action, **payload)
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.FINISHED
    return game


def test_the_result_sheet_on_the_table_page_fits_a_phone(phone, live_server_url, finished_game):
    login(phone, "meera", PASSWORD)
    phone.goto(f"/tables/{finished_game.table_id}/")
    phone.wait_for_selector("#scoreboard tr.sheet-row")
    assert "Meera Krishnamurthy" in phone.locator("#scoreboard").inner_text()
    # the deal's money and the game's settlement: each player's "Won / lost" is on the screen
    for money in ("#scoreboard td.money", "#settlement td.money"):
        cells = phone.locator(money)
        assert cells.count() == 2
        assert all(cells.nth(i).is_visible() for i in range(2))
    _assert_fits(phone)
    # the shoe's commitment, opened: the hashes and the shoe wrap
    phone.click("#shoe-commitment summary")
    phone.wait_for_selector("#commitment-preimage")
    _assert_fits(phone)


def test_my_games_fits_a_phone(phone, live_server_url, finished_game):
    login(phone, "meera", PASSWORD)
    phone.goto("/me/games/")
    row = phone.locator("tr.game-row")
    assert row.count() == 1
    assert row.locator("a", has_text="Deal 1").is_visible()
    _assert_fits(phone)


def test_a_deals_review_fits_a_phone(phone, live_server_url, finished_game):
    from tables.models import Deal

    deal = Deal.objects.get(game=finished_game)
    login(phone, "meera", PASSWORD)
    phone.goto(f"/me/games/deal/{deal.pk}/")
    phone.wait_for_selector("#review-controls:not([hidden])")
    hands = phone.locator("#review-hands tbody tr")
    assert hands.count() == 2
    _assert_fits(phone)
    # Shared: the link is long, and it still fits.
    phone.click("#share-on")
    phone.wait_for_selector("#share-link")
    _assert_fits(phone)


def test_statistics_fit_a_phone(phone, live_server_url, finished_game):
    login(phone, "meera", PASSWORD)
    phone.goto("/me/stats/")
    assert phone.locator("#stats tbody tr").count() == 1
    _assert_fits(phone)


def test_the_tournaments_list_fits_a_phone(phone, live_server_url, transactional_db):
    from django.utils import timezone

    from ledger.services import wallet_deposit
    from tables.models import TableTemplate
    from tables.tournaments.services import tournament_create_sit_and_go, tournament_register

    user = get_user_model().objects.create_user(
        username="asha", password=PASSWORD, display_name="Asha"
    )
    wallet_deposit(user=user, currency="cash", amount=50_000, idempotency_key="t:fund:asha")
    template = TableTemplate(
        name="Tournament deals", variant="deals", currency="cash", entry_fee=100, is_active=False
    )
    template.full_clean()
    template.save()
    common = {
        "template": template,
        "currency": "cash",
        "entry_fee": 25_000,
        "fee_bps": 1000,
        "players_min": 2,
        "players_max": 120,
        "seats_per_table": 6,
        "qualifiers_per_table": 2,
        "deals_per_round": 2,
    }
    sit_and_go = tournament_create_sit_and_go(name="Saturday evening sit & go", **common)
    tournament_register(tournament=sit_and_go, user=user)
    tournament_create_sit_and_go(
        name="Sunday scheduled championship",
        kind="scheduled",
        starts_at=timezone.now() + timedelta(days=3),
        **common,
    )
    login(phone, "asha", PASSWORD)
    phone.goto("/tournaments/")
    rows = phone.locator("#tournaments tbody tr")
    assert rows.count() == 2
    assert rows.first.locator("a.button", has_text="Open").is_visible()
    _assert_fits(phone)
