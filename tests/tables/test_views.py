"""The player-facing pages: lobby, table page and the action endpoint (per-viewer rendering and
bad input of every kind)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import reverse
from tables_testkit import balance

from tables.models import Game, Move

HTMX = {"HTTP_HX_REQUEST": "true"}


def _codes_in(html: str) -> set[str]:
    return set(re.findall(r'data-code="([0-9AJQKTSHDC]{2,3})"', html))


@pytest.fixture
def two(seated: Any, toss: Any) -> Any:
    toss(1)
    return seated(2)


def _state(t: Any) -> tuple[int, int, int, int]:
    game = t.game()
    return (
        game.version,
        Move.objects.filter(game=game).count(),
        balance(t.users[1]),
        balance(t.users[2]),
    )


def test_lobby_lists_templates_with_stakes_and_a_play_now_button(client, table_factory, players):
    table = table_factory(name="Evening 101", entry_fee=2500, seats_max=6)
    html = client.get(reverse("lobby")).content.decode()
    assert "Evening 101" in html
    assert "Pool 101 · ₹25.00 · 6 seats" in html
    assert "Log in to play" in html
    client.force_login(players[0])
    html = client.get(reverse("lobby")).content.decode()
    assert f'action="{reverse("template_play", args=[table.template_id])}"' in html
    partial = client.get(reverse("lobby") + "?partial=lobby-tables").content.decode()
    assert "Evening 101" in partial and "<html" not in partial


def test_joining_from_the_lobby_holds_the_entry_fee_and_opens_the_table(
    client, table_factory, players
):
    table = table_factory(entry_fee=1000, seats_max=3)
    client.force_login(players[0])
    before = balance(players[0])
    response = client.post(reverse("table_join", args=[table.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[table.pk])
    assert balance(players[0]) == before - 1000
    html = client.get(response["Location"]).content.decode()
    assert "Waiting for players" in html
    assert "Leave (refund)" in html
    # Leaving before the start refunds the fee.
    client.post(reverse("table_leave", args=[table.pk]))
    assert balance(players[0]) == before


def test_joining_without_funds_is_refused_with_a_message(client, table_factory, user_factory):
    table = table_factory(entry_fee=1000)
    poor = user_factory()
    client.force_login(poor)
    response = client.post(reverse("table_join", args=[table.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("lobby")
    assert "message-error" in response.content.decode()
    assert not Game.objects.filter(table=table, seats__user=poor, seats__left_at=None).exists()


def test_each_player_sees_only_their_own_cards(client, two):
    game = two.game()
    hands = {}
    for seat in (1, 2):
        view = two.view(seat)
        hands[seat] = set(view["hand"]["cards"])
    for seat, other in ((1, 2), (2, 1)):
        client.force_login(two.users[seat])
        html = client.get(reverse("table", args=[two.table.pk])).content.decode()
        shown = _codes_in(
            html.split('id="my-hand"')[1].split('</div>\n      <div class="hand-info')[0]
        )
        assert shown == hands[seat]
        # No card that only the other player holds appears anywhere in the page.
        assert not (hands[other] - hands[seat]) & _codes_in(html) - {
            two.view(seat)["deal"]["open_top"],
            two.view(seat)["deal"]["cut_joker"],
        }
    assert f'data-version="{game.version}"' in html


def test_a_spectator_sees_no_hand(client, two, user_factory):
    client.force_login(user_factory())
    html = client.get(reverse("table", args=[two.table.pk])).content.decode()
    assert 'id="my-hand"' not in html
    view = two.view(1)
    assert not set(view["hand"]["cards"]) - {view["deal"]["open_top"]} & _codes_in(html) - {
        view["deal"]["cut_joker"]
    }


def test_pick_and_discard_through_the_action_endpoint(client, two):
    client.force_login(two.users[1])
    url = reverse("table_act", args=[two.table.pk])
    version = two.game().version
    response = client.post(url, {"action": "pick_closed", "version": version}, **HTMX)
    assert response.status_code == 200
    assert two.game().version == version + 1
    assert "<html" not in response.content.decode()  # the partial only
    card = two.view(1)["hand"]["cards"][0]
    response = client.post(
        url, {"action": "discard", "version": version + 1, "card": card.lower()}, **HTMX
    )
    assert response.status_code == 200
    assert two.view(1)["deal"]["open_top"] == card
    assert two.turn() == 2


def test_a_double_click_is_a_stale_no_op_with_a_clear_answer(client, two):
    client.force_login(two.users[1])
    url = reverse("table_act", args=[two.table.pk])
    version = two.game().version
    client.post(url, {"action": "pick_closed", "version": version}, **HTMX)
    before = _state(two)
    response = client.post(url, {"action": "pick_closed", "version": version}, **HTMX)
    assert response.status_code == 409
    assert "moved on" in response.content.decode()
    assert _state(two) == before


def test_a_late_move_is_refused_in_words_and_the_page_shows_the_turn_passed(client, two, settings):
    settings.DEADLINE_GRACE_S = 0.5
    client.force_login(two.users[1])
    html = client.get(reverse("table", args=[two.table.pk])).content.decode()
    assert "within 0.5 s of the end of the timer" in html
    game = two.game()
    two.clock.t = game.deadline.timestamp() + 120  # long after the turn and its extra time
    url = reverse("table_act", args=[two.table.pk])
    response = client.post(url, {"action": "pick_closed", "version": game.version}, **HTMX)
    assert response.status_code == 409  # the timer's move came first: a conflict, in words
    assert "Time ran out before your move arrived" in response.content.decode()
    assert two.turn() == 2  # the timeout stands
    assert Move.objects.filter(game=game, action="timeout").exists()


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"action": "fly_away"}, 400, "Unknown action"),
        ({"action": "discard", "card": "ZZ"}, 400, "ZZ"),
        ({"action": "discard"}, 400, "Missing fields for discard: card."),
        ({"action": "declare", "finish_card": "QH", "groups": "[[1,2]"}, 400, "could not be read"),
        ({"action": "set_auto_drop", "on": "maybe"}, 400, "on or off"),
        ({"action": "pick_open", "version": "x"}, 400, "version"),
        ({"action": "pick_open", "version": ""}, 400, "version"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(client, two, data, status, message):
    client.force_login(two.users[1])
    url = reverse("table_act", args=[two.table.pk])
    data = dict(data)
    data.setdefault("version", two.game().version)
    if data["action"] == "discard":
        # Discard needs a picked card first: pick so that only the payload is wrong.
        client.post(url, {"action": "pick_closed", "version": data["version"]}, **HTMX)
        data["version"] = two.game().version
    before = _state(two)
    response = client.post(url, data, **HTMX)
    assert response.status_code == status
    html = response.content.decode()
    assert 'id="action-error"' in html
    assert message in html
    assert _state(two) == before


def test_a_forged_seat_field_cannot_act_for_another_player(client, two):
    client.force_login(two.users[1])
    url = reverse("table_act", args=[two.table.pk])
    client.post(url, {"action": "pick_closed", "version": two.game().version}, **HTMX)
    theirs = sorted(two.view(2)["hand"]["cards"])
    mine = two.view(1)["hand"]["cards"]
    response = client.post(
        url,
        {"action": "discard", "version": two.game().version, "card": mine[0], "seat": "2"},
        **HTMX,
    )
    assert response.status_code == 200
    # The discard was the signed-in player's own; the other hand did not change.
    assert len(two.view(1)["hand"]["cards"]) == 13
    assert sorted(two.view(2)["hand"]["cards"]) == theirs
    last = Move.objects.filter(game=two.game(), action="discard").latest("version")
    assert last.seat_no == 1 and last.actor == two.users[1]


def test_a_move_out_of_turn_is_refused(client, two):
    client.force_login(two.users[2])
    before = _state(two)
    response = client.post(
        reverse("table_act", args=[two.table.pk]),
        {"action": "pick_closed", "version": two.game().version},
        **HTMX,
    )
    assert response.status_code == 400
    assert 'id="action-error"' in response.content.decode()
    assert _state(two) == before


def test_without_htmx_an_error_comes_back_as_a_message(client, two):
    client.force_login(two.users[2])
    response = client.post(
        reverse("table_act", args=[two.table.pk]),
        {"action": "pick_closed", "version": two.game().version},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("table", args=[two.table.pk])
    assert "message-error" in response.content.decode()


def test_unknown_tables_and_wrong_methods(client, players):
    client.force_login(players[0])
    assert client.get(reverse("table", args=[999999])).status_code == 404
    assert client.get(reverse("table_view", args=[999999])).status_code == 404
    assert client.post(reverse("table_act", args=[999999]), {"action": "drop"}).status_code == 404
    assert client.post(reverse("table_join", args=[999999])).status_code == 404
    assert client.get(reverse("table_join", args=[1])).status_code == 405


def test_actions_need_a_login(client, two):
    url = reverse("table_act", args=[two.table.pk])
    before = _state(two)
    response = client.post(url, {"action": "pick_closed", "version": two.game().version})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert _state(two) == before


def test_sort_and_arrange_keep_every_card(client, two):
    client.force_login(two.users[1])
    url = reverse("table_act", args=[two.table.pk])
    cards = sorted(two.view(1)["hand"]["cards"])
    response = client.post(url, {"action": "sort", "version": two.game().version}, **HTMX)
    assert response.status_code == 200
    groups = two.view(1)["hand"]["groups"]
    assert sorted(c for g in groups for c in g) == cards
    mine = [[c] for c in cards]
    response = client.post(
        url, {"action": "arrange", "version": 0, "groups": json.dumps(mine)}, **HTMX
    )
    assert response.status_code == 200
    assert sorted(two.view(1)["hand"]["groups"]) == sorted(mine)
    # An arrangement with a card the player does not hold is refused.
    forged = [*mine[:-1], ["JK"] if "JK" not in cards else ["2C"]]
    response = client.post(
        url, {"action": "arrange", "version": 0, "groups": json.dumps(forged)}, **HTMX
    )
    assert response.status_code == 400
    assert sorted(two.view(1)["hand"]["groups"]) == sorted(mine)


def test_the_scoreboard_shows_each_deal(client, seated, toss):
    toss(1)
    t = seated(3)
    t.act(1, "drop")
    client.force_login(t.users[2])
    html = client.get(reverse("table", args=[t.table.pk])).content.decode()
    assert 'id="score-history"' not in html  # no deal has ended yet
    t.act(2, "drop")  # one player left: the deal ends
    html = client.get(reverse("table", args=[t.table.pk])).content.decode()
    assert 'id="score-history"' in html
    assert 'id="scoreboard"' in html
    history = html.split('id="score-history"')[1]
    assert ">20<" in history  # both first drops scored 20


def test_an_action_at_a_table_without_a_game_is_refused(client, table_factory, players):
    table = table_factory()
    client.force_login(players[0])
    response = client.post(
        reverse("table_act", args=[table.pk]), {"action": "pick_closed", "version": 0}, **HTMX
    )
    assert response.status_code == 400
    assert "No game is being played at this table." in response.content.decode()
    assert not Game.objects.filter(table=table).exists()


def test_the_card_just_picked_is_marked_in_the_hand(client, two):
    client.force_login(two.users[1])
    client.post(
        reverse("table_act", args=[two.table.pk]),
        {"action": "pick_closed", "version": two.game().version},
        **HTMX,
    )
    picked = two.view(1)["hand"]["picked"]
    html = client.get(reverse("table", args=[two.table.pk])).content.decode()
    marked = re.findall(r'class="pcard[^"]*\bpicked\b[^"]*" data-code="([^"]+)"', html)
    assert marked == [picked]


def test_a_refusal_without_htmx_is_in_a_players_words(client, two):
    """Without htmx the refusal goes to the page's messages, in the same words as the partial:
    no seat numbers or card codes."""
    client.force_login(two.users[2])  # seat 1 is on turn
    url = reverse("table_act", args=[two.table.pk])
    response = client.post(
        url, {"action": "pick_closed", "version": two.game().version}, follow=True
    )
    html = response.content.decode()
    assert "message-error" in html
    assert "not your turn" in html.lower()
    assert "seat 1" not in html.lower() and "seat 2" not in html.lower()


def test_a_waiting_table_offers_one_way_to_leave(client, table_factory, players):
    """Waiting for players, the seat shows "Leave (refund)" only; once the game runs,
    "Leave table" (with its warning) only."""
    from tables import services

    table = table_factory(seats_min=2, seats_max=3)
    services.table_join(table=table, user=players[0], seat_no=1)
    client.force_login(players[0])
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert page.count("Leave (refund)") == 1 and "Leave table" not in page
    services.table_join(table=table, user=players[1], seat_no=2)
    services.table_join(table=table, user=players[2], seat_no=3)  # full: the game starts
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "Leave (refund)" not in page and page.count("Leave table") == 1


def test_the_hands_count_is_shown_capped_at_full_count(client, seated, planter):
    """A Points hand of 121 (no meld in it) shows the 80 it would score, not 121."""
    planter.add(
        hands={
            1: "KS KH QD QC JS JH 10D 10C 9S 9H 8D 8C 7S",
            2: "AS 3S 4S 5S 6S AH 3H 4H 5H 6H AD 3D 4D",
        },
        open_card="5D",
        cut_card="2C",
    )
    table = seated(2, variant="points").table
    client.force_login(table.seats.get(seat_no=1).user)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert '<strong id="hand-count">80</strong>' in page
