"""Languages in a real browser (issue 17): a player who chose Hindi and one who reads English
play a deal at one practice table; each reads the pages in their own language, pushed views
included, and the Hindi player's header shows Indian digit grouping (₹1,00,000.00)."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import login

PASSWORD = "tiles-and-tigers-42"


@pytest.fixture
def mixed_table(transactional_db):
    from accounts.models import User
    from ledger.services import practice_chips_welcome_grant
    from tables import services
    from tables.models import TableTemplate
    from tests.tables.tables_testkit import fund

    template = TableTemplate(
        name="Two languages",
        variant="pool101",
        seats_min=2,
        seats_max=2,
        currency="practice",
        entry_fee=100,
        practice=True,
        bot_count=1,
        human_wait_s=60,  # both people sit at once: no computer player is needed
        turn_s=60,
    )
    template.full_clean()
    template.save()
    table = services.table_create(template=template)
    players = {}
    for name, language in (("asha", "hi"), ("bilal", "en")):
        user = User(username=name, display_name=name.title(), language=language)
        user.set_password(PASSWORD)
        user.save()
        practice_chips_welcome_grant(user=user)  # as a sign-up does: practice is paid in chips
        players[name] = user
    fund(players["asha"], 10_000_000)  # ₹1,00,000.00 of cash: shown in the header
    for user in players.values():
        services.table_join(table=table, user=user)
    return table, players


def _turn_username(table) -> str:
    from tables.models import Game, Seat

    game = Game.objects.filter(table=table).order_by("-pk").first()
    turn = game.state["deal"]["turn"]
    return Seat.objects.get(game=game, seat_no=turn).user.username


def test_a_hindi_and_an_english_player_play_a_deal_each_in_their_language(new_page, mixed_table):
    table, _players = mixed_table
    pages = {"asha": new_page(), "bilal": new_page()}
    for name, page in pages.items():
        login(page, name, PASSWORD)
        page.goto(f"/tables/{table.pk}/")
        page.wait_for_selector("#my-hand .pcard")

    asha, bilal = pages["asha"], pages["bilal"]
    assert asha.locator("html").get_attribute("lang") == "hi"
    assert bilal.locator("html").get_attribute("lang") == "en"
    assert "लॉबी" in asha.locator(".site-header").inner_text()
    assert "Lobby" in bilal.locator(".site-header").inner_text()
    assert "₹1,00,000.00" in asha.locator("#header-balance").inner_text()
    assert asha.locator("#language-switcher button[aria-current]").inner_text() == "हिन्दी"
    assert "के शू की प्रतिबद्धता" in asha.locator("#shoe-commitment summary").inner_text()
    assert "shoe commitment" in bilal.locator("#shoe-commitment summary").inner_text()

    # The player on turn picks and discards; the other drops: the deal ends.
    first = _turn_username(table)
    second = "bilal" if first == "asha" else "asha"
    mover = pages[first]
    mover.wait_for_selector(".act-pick_closed button")
    mover.click(".act-pick_closed button")
    mover.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    mover.locator("#my-hand .pcard").first.click()
    mover.locator(".act-discard button").click()
    mover.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 13")

    dropper = pages[second]
    dropper.wait_for_selector(".act-drop button", timeout=15_000)  # pushed: the turn moved
    dropper.once("dialog", lambda dialog: dialog.accept())
    dropper.locator(".act-drop button").click()
    for page in pages.values():
        page.wait_for_selector("#scoreboard", timeout=15_000)  # the other page by a push

    # After the pushes, each page is still in its reader's language.
    assert re.search(r"डील \d+ के शू की प्रतिबद्धता", asha.locator("#shoe-commitment").inner_text())
    assert re.search(r"Deal \d+ shoe commitment", bilal.locator("#shoe-commitment").inner_text())
    assert "प्रतिबद्धता" not in bilal.content()
    assert "₹1,00,000.00" in asha.locator("#header-balance").inner_text()

    # The rules page, in each reader's language.
    asha.goto(f"/rules/pool101/?table={table.pk}")
    assert "कैसे खेली जाती है" in asha.locator("h1").inner_text()
    bilal.goto(f"/rules/pool101/?table={table.pk}")
    assert "played and scored" in bilal.locator("h1").inner_text()
