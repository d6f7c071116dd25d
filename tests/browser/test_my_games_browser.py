"""My games in a real browser: a player plays a practice deal against a computer player
(planted shoe), opens My games and steps through the deal's review with the buttons and the
keyboard to the turn where the engine says a better discard (and a show) was there."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import login

PASSWORD = "tiles-and-tigers-42"
# Meera can show at once with any card; she picks 8C and throws 5H from her hearts run.
MEERA = ["AS", "2S", "3S", "4S", "5H", "6H", "7H", "9D", "10D", "JD", "KC", "KD", "KH"]
BOT = ["2C", "5D", "8H", "JS", "KD", "3H", "6S", "9C", "4D", "7S", "10H", "AD", "QS"]


@pytest.fixture
def planted_practice(transactional_db, monkeypatch):
    from ledger.services import wallet_deposit
    from tables.models import TableTemplate
    from tables.services import _context, table_create, table_join
    from tests.tables.tables_testkit import Planter

    planter = Planter()
    planter.add(
        hands={1: MEERA, 2: BOT}, open_card="JC", cut_card="QC", closed_top=["8C", "2D", "9H"]
    )
    monkeypatch.setattr(_context, "deal_shoe_new", planter)
    monkeypatch.setattr(_context, "game_toss", lambda *, game, seats: 1)
    user = get_user_model().objects.create_user(
        username="meera", password=PASSWORD, display_name="Meera"
    )
    wallet_deposit(user=user, currency="practice", amount=1000, idempotency_key="t:fund:meera")
    template = TableTemplate(
        name="Review practice",
        variant="points",
        seats_min=2,
        seats_max=2,
        currency="practice",
        point_value=1,
        practice=True,
        bot_count=1,
        bot_delay_s=0.3,
        human_wait_s=0,
        turn_s=120,
        extra_time_s=0,
    )
    template.full_clean()
    template.save()
    table = table_create(template=template, name="Review practice")
    # Sat down here, in the test's process, so the planted shoe deals (the computer player
    # takes the other seat at once); daphne plays the computer player's turns.
    table_join(table=table, user=user, seat_no=1)
    return user, table


def test_a_played_deal_is_reviewed_step_by_step_with_the_engines_advice(
    page, live_server_url, planted_practice
):
    from tables import services
    from tables.models import Game, GameStatus

    user, table = planted_practice
    login(page, "meera", PASSWORD)
    row = page.locator("tr.lobby-row", has_text="Review practice")
    assert "computer players: medium" in row.inner_text()
    row.locator("a", has_text="Open your table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    page.wait_for_selector(".act-pick_closed button", timeout=20_000)
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    page.locator('#my-hand .pcard[data-code="5H"]').click()
    page.locator(".act-discard button").click()
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 13")
    # the computer player takes its turn; then Meera drops (middle drop) and the deal ends
    page.wait_for_selector(".act-pick_closed button", timeout=20_000)
    game = Game.objects.get(table=table)
    services.game_act(
        game_id=game.pk, user=user, action="drop", payload={}, expected_version=game.version
    )
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED

    page.goto("/")
    page.locator("header nav a", has_text="My games").click()
    page.wait_for_url("**/me/games/")
    game_row = page.locator("tr.game-row")
    assert game_row.count() == 1 and "Review practice" in game_row.inner_text()
    game_row.locator("a", has_text="Deal 1").click()
    page.wait_for_selector("#review-controls:not([hidden])")
    assert "1 turn lost" in page.locator("#review-summary").inner_text()
    visible = page.locator(".review-step:not([hidden])")
    assert visible.count() == 1 and "Cards dealt" in visible.inner_text()
    page.click("#review-next")  # the button
    assert "You took 8♣ from the closed deck" in visible.inner_text()
    for _ in range(5):  # then the keyboard, to the turn the advice is about
        if page.locator(".review-step:not([hidden]) .advice-lost").count():
            break
        page.keyboard.press("ArrowRight")
    advice = page.locator(".review-step:not([hidden]) .advice-lost")
    assert advice.count() == 1
    text = advice.inner_text()
    assert "Your turn 1" in text
    assert "Best discard: 8♣, leaving 0; you threw 5♥" in text
    assert "A valid show was possible here" in text
    # A step is a turn: the pick, the throw and the advice together.
    assert "You took 8♣ from the closed deck" in visible.inner_text()
    page.keyboard.press("ArrowLeft")
    assert "Cards dealt" in visible.inner_text()
    page.keyboard.press("End")
    assert "The deal ended" in visible.inner_text()
