"""Tournaments in a real browser (issue 23): two fresh sign-ups open the lobby's Tournaments
tab, register for a practice sit & go, computer players fill the other places after the
people-first wait, each finds their table from the tournament page, and the tournament plays
through (the people away: their turns run out) to the result page with their ranks."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import sign_up

PASSWORD = "tiles-and-tigers-42"


@pytest.fixture
def practice_sit_and_go(transactional_db):
    from tables.models import TableTemplate
    from tables.tournaments.services import tournament_create_sit_and_go

    template = TableTemplate(
        name="Tournament practice deals",
        variant="deals",
        currency="practice",
        entry_fee=100,
        is_active=False,
        practice=True,
        bot_count=1,
        bot_delay_s=0.2,
        turn_s=2.0,
        extra_time_s=0.0,
        meld_window_s=3.0,
        break_s=1.0,
    )
    template.full_clean()
    template.save()
    return tournament_create_sit_and_go(
        name="Practice sit & go",
        template=template,
        currency="practice",
        entry_fee=100,
        fee_bps=0,
        players_min=4,
        players_max=4,
        seats_per_table=4,
        qualifiers_per_table=2,
        deals_per_round=1,
        bots_fill=True,
        human_wait_s=8.0,
        break_s=1.0,
    )


def test_register_from_the_lobby_and_play_a_practice_sit_and_go_to_its_result(
    new_page, practice_sit_and_go
):
    asha, bilal = new_page(), new_page()
    sign_up(asha, "asha23", "Asha T", PASSWORD)
    sign_up(bilal, "bilal23", "Bilal T", PASSWORD)
    for page in (asha, bilal):
        page.click("#tab-tournaments")
        page.wait_for_url("**/tournaments/")
        row = page.locator("tr", has_text="Practice sit & go")
        assert "when full" in row.inner_text()  # people wait 8 s for each other
        row.locator("a", has_text="Open").click()
        page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
        page.click("#register")
        page.wait_for_selector("#unregister")
        assert "You are registered" in page.content()
    assert "2 / 4 registered" in bilal.content()
    # After the people-first wait computer players fill the two other places; the page says
    # when the player's table is ready.
    asha.wait_for_selector("#your-table", timeout=30_000)
    asha.click("#your-table a")
    asha.wait_for_url(re.compile(r"/tables/\d+/$"))
    asha.wait_for_selector("#my-hand .pcard", timeout=15_000)
    table_url = asha.url
    asha.go_back()
    for page in (asha, bilal):
        page.wait_for_selector("#my-result", timeout=150_000)
        assert "Results" in page.locator("#results").inner_text()
        assert re.search(r"You (finished \d|share places)", page.locator("#my-result").inner_text())
    from tables.tournaments.models import Registration, Tournament

    # Back at her table, the finished game speaks of the tournament: her place in it, the
    # final's places with its winner, the way back; no money words of a cash table.
    asha.goto(table_url)
    asha.wait_for_selector("#tournament-result #my-tournament-verdict")
    result = asha.locator("#game-result").inner_text()
    assert "This table's game is over" in result and "The final of" in result
    assert re.search(r"You (finished \d|share places)", result)
    assert "winner" in asha.locator("#tourney-places").inner_text()
    assert "Winnings are in your wallet" not in result and "Game over" not in result
    assert asha.locator("#tournament-result a", has_text="Back to the tournament").count() == 1
    t = Tournament.objects.get(pk=practice_sit_and_go.pk)
    assert t.status == "finished"
    regs = list(Registration.objects.filter(tournament=t))
    assert len(regs) == 4 and sum(r.prize or 0 for r in regs) == 400
