"""A wrong show played through the page, in a real browser against a live daphne: the result
sheet says why in words. Saves the README's screenshot of a result sheet."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import act_now, login, two_seat_table

PASSWORD = "tiles-and-tigers-42"
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "result-sheet.png"

# Meera's planted hand, arranged as she declares it (the cut joker QC makes every Queen wild):
# two sequences with a joker standing in, two sets and a loose card, and no pure sequence.
GROUPS = [["5H", "6H", "QS"], ["9D", "10D", "QH"], ["KC", "KD", "KH"], ["2C", "2D", "2S"], ["7S"]]
# Ravi's cards, as he keeps them (he wins the deal as the last player in, so they count 0).
RAVI = [["3C", "4C", "5C", "6C"], ["7D", "8D", "9D"], ["JS", "JH", "JD"], ["AH", "4H", "9S"]]
FINISH = "8C"  # the top of the closed deck: she picks it and puts it in the finish slot
REASON = "No pure sequence: a show needs at least one sequence with no joker standing in."


@pytest.fixture
def planted_table(transactional_db, monkeypatch):
    """A two-seat Pool 101 table with Meera (seat 1, to play first) and Ravi seated, the first
    deal planted and each hand arranged (``GROUPS``, ``RAVI``). Long timers: only Meera
    moves."""
    from tables.models import Game

    table, users = two_seat_table(
        monkeypatch,
        people=[("meera", "Meera"), ("ravi", "Ravi")],
        password=PASSWORD,
        chips=5000,
        deal={
            "hands": {1: [c for g in GROUPS for c in g], 2: [c for g in RAVI for c in g]},
            "open_card": "JC",
            "cut_card": "QC",
            "closed_top": FINISH,
        },
        name="Evening 101",
        variant="pool101",
        entry_fee=1000,
        break_s=300,
    )
    game = Game.objects.get(table=table)
    for user, groups in zip(users, (GROUPS, RAVI), strict=True):
        act_now(game, user, "arrange", groups=groups)
    return table


def pick_the_finish_card(page, table) -> None:
    """On ``table``'s page Meera picks from the closed deck (``FINISH``) and selects the card
    she picked, for the finish slot."""
    page.goto(f"/tables/{table.pk}/")
    page.wait_for_selector(".act-pick_closed button")
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    page.locator(f'#my-hand .pcard.picked[data-code="{FINISH}"]').click()


def show_wrongly(page, table) -> None:
    """Meera declares her planted hand (no pure sequence) with ``FINISH`` in the finish slot:
    the result sheet shows her wrong show."""
    pick_the_finish_card(page, table)
    page.click(".act-declare button")
    page.wait_for_selector("#scoreboard .wrong-reason")


def test_a_wrong_show_through_the_page_shows_its_reason_on_the_result_sheet(
    browser, live_server_url, planted_table, tmp_path
):
    from tables.models import Game

    context = browser.new_context(base_url=live_server_url, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    questions: list[str] = []

    def answer(dialog) -> None:
        questions.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    login(page, "meera", PASSWORD)
    # The picked card goes in the finish slot: select it, then declare.
    pick_the_finish_card(page, planted_table)
    declare = page.locator(".act-declare button")
    assert declare.is_enabled()
    declare.click()
    page.wait_for_selector("#scoreboard .wrong-reason")
    assert questions and "finish slot" in questions[0]

    row = page.locator("#scoreboard tr.sheet-row", has_text="Meera")
    assert row.locator(".wrong-reason").inner_text().strip() == REASON
    assert "wrong show" in row.inner_text()
    kinds = row.locator(".mini-kind").all_inner_texts()
    assert kinds == ["sequence", "sequence", "set", "set", "invalid", "finish card"]
    assert row.locator(".mini-group.finish .pcard").get_attribute("data-code") == FINISH
    assert row.locator("td.num").first.inner_text().strip() == "80"
    sheet = page.locator("#scoreboard").inner_text()
    assert "Meera made a wrong show: Ravi, the last player in, wins the deal." in sheet
    game = Game.objects.get(table=planted_table)
    results = {r["seat"]: r["outcome"] for r in game.state["history"][-1]["results"]}
    assert results == {1: "wrong_show", 2: "won"}

    # The README's screenshot: the table head and the result sheet in one 1280 x 800 view.
    # Written to docs/ only when asked (UPDATE_SCREENSHOTS=1), so a test run leaves the
    # working tree alone.
    page.evaluate("() => window.scrollTo(0, 0)")  # the sheet sits right under the table's head
    shot = SCREENSHOT if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path / SCREENSHOT.name
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot))
    assert shot.read_bytes()[16:24] == (1280).to_bytes(4, "big") + (800).to_bytes(4, "big")
    context.close()


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def test_classic_sort_orders_the_hand_by_rank_or_suit_and_remembers_it(
    page, transactional_db, live_server_url
):
    from ledger.services import wallet_deposit
    from tests.browser.test_table_browser import _hand_codes, _practice_table

    user = get_user_model().objects.create_user(username="meera", password=PASSWORD)
    wallet_deposit(user=user, currency="practice", amount=1000, idempotency_key="t:fund:sort")
    _practice_table("Browser classic", "classic")
    login(page, "meera", PASSWORD)
    page.locator("tr.lobby-row", has_text="Browser classic").locator("button").click()
    page.wait_for_selector("#my-hand .pcard")
    cards = _hand_codes(page)
    assert page.locator("#sort-hand").inner_text() == "Sort by rank"
    page.click("#sort-hand")
    by_rank = _hand_codes(page)
    assert sorted(by_rank) == sorted(cards)
    ranks = [RANKS.index(code[:-1]) for code in by_rank]
    assert ranks == sorted(ranks)
    assert page.locator("#sort-hand").inner_text() == "Sort by suit"
    # A re-fetch (here a reload) keeps the player's order.
    page.reload()
    page.wait_for_selector("#my-hand .pcard")
    ranks = [RANKS.index(code[:-1]) for code in _hand_codes(page)]
    assert ranks == sorted(ranks)
    page.click("#sort-hand")
    suits = [code[-1] for code in _hand_codes(page)]
    assert suits == sorted(suits, key="SHCD".index)
