"""Two copies of a card at a table: the page names the copy it throws, a discard by code alone
takes the loose copy, and a timed-out turn throws back the card it drew (a deals game)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse
from tables_testkit import Planter, TableDriver

from tables import services
from tables.models import Move
from tables.rules.melds import count_points

CUT = "JC"
RUN = ["2H", "3H", "4H"]
ARRANGED = [RUN, ["5S", "6S", "7S"], ["9C", "9D", "9S"], ["KD"], ["QS"], ["8D"], ["2C"]]
OTHER = ["AS", "AD", "AC", "3S", "3D", "3C", "6D", "6C", "7D", "7C", "10S", "10D", "10C"]
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def deals(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> TableDriver:
    """A deals game of two; seat 1 holds a pure run 2H-3H-4H and draws the second 3H."""
    toss(1)
    planter.add(
        hands={1: [c for g in ARRANGED for c in g], 2: OTHER},
        open_card="10H",
        cut_card=CUT,
        closed_top=["3H"],
    )
    t = seated(2, variant="deals", deals_count=2, turn_s=30, extra_time_s=0)
    t.act(1, "arrange", groups=ARRANGED)
    return t


def _groups(t: TableDriver) -> list[list[str]]:
    return [list(g) for g in t.view(1)["hand"]["groups"]]


def test_a_discard_by_code_throws_the_loose_copy_and_the_count_does_not_rise(
    deals: TableDriver,
) -> None:
    before = count_points(_groups(deals), CUT)
    deals.act(1, "pick_closed")
    deals.act(1, "discard", card="3H")
    assert RUN in _groups(deals)
    assert count_points(_groups(deals), CUT) == before
    assert deals.view()["deal"]["open_top"] == "3H"


def test_the_page_names_the_copy_it_throws(client: Any, deals: TableDriver) -> None:
    deals.act(1, "pick_closed")
    client.force_login(deals.users[1])
    url = reverse("table_act", args=[deals.table.pk])
    data = {
        "action": "discard",
        "card": "3H",
        "group": 0,
        "index": 1,
        "version": deals.game().version,
    }
    response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    groups = _groups(deals)
    assert ["2H", "4H"] in groups and ["3H"] in groups  # the player chose to break the run
    move = Move.objects.filter(game=deals.game(), action="discard").get()
    assert (move.payload["group"], move.payload["index"]) == (0, 1)


@pytest.mark.parametrize("place", [{"group": "x", "index": 1}, {"group": "-1", "index": "0"}])
def test_a_malformed_place_is_refused_and_changes_nothing(
    client: Any, deals: TableDriver, place: dict[str, Any]
) -> None:
    deals.act(1, "pick_closed")
    client.force_login(deals.users[1])
    version = deals.game().version
    url = reverse("table_act", args=[deals.table.pk])
    response = client.post(
        url, {"action": "discard", "card": "3H", "version": version, **place}, **HTMX
    )
    assert response.status_code == 400
    assert deals.game().version == version


def test_a_timed_out_turn_throws_back_the_drawn_copy(deals: TableDriver) -> None:
    before = count_points(_groups(deals), CUT)
    deals.act(1, "pick_closed")
    assert deals.fire() == 1  # the turn ran out: the server plays it
    assert RUN in _groups(deals)
    assert count_points(_groups(deals), CUT) == before
    assert deals.view()["deal"]["open_top"] == "3H" and deals.turn() == 2
    assert services.PLAYER_ACTIONS["discard"] >= {"group", "index"}
