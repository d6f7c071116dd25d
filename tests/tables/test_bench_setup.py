"""The load harness's fixture (``manage.py bench_setup``), with its games brought to a later
deal, and the move the harness reads off the view such a game's seat is given."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from benchmarks.load_player import CODE, Seat, next_move
from tables.engines import game_state
from tables.models import Game, GameStatus
from tables.rules.game import GameState


def _fixture(tmp_path: Path, **options: Any) -> list[dict[str, Any]]:
    out = tmp_path / "fixture.json"
    call_command("bench_setup", out=str(out), **options)
    fixture: list[dict[str, Any]] = json.loads(out.read_text())
    return fixture


def _state(table_id: int) -> tuple[Game, GameState]:
    game = Game.objects.get(table_id=table_id, status=GameStatus.RUNNING)
    state = game_state(game)
    assert isinstance(state, GameState)
    return game, state


@pytest.mark.django_db
def test_the_fixtures_games_start_in_their_first_deal(tmp_path: Path) -> None:
    fixture = _fixture(tmp_path, tables=2, seats=3)
    assert len(fixture) == 2
    for entry in fixture:
        assert [p["seat"] for p in entry["players"]] == [1, 2, 3]
        _, state = _state(entry["table_id"])
        assert state.deal_number == 1 and not state.history
        assert state.deal is not None and state.deal.turn is not None


@pytest.mark.django_db
def test_deal_brings_each_game_to_that_deal_through_drops(tmp_path: Path) -> None:
    fixture = _fixture(tmp_path, tables=2, seats=3, deal=3)
    for entry in fixture:
        _, state = _state(entry["table_id"])
        assert state.deal_number == 3 and state.phase == "turn"
        assert state.deal is not None and state.deal.turn is not None
        # The two deals before it ended with every player but one dropped.
        assert [r.number for r in state.history] == [1, 2]
        for result in state.history:
            assert sorted(r.outcome for r in result.results) == ["dropped", "dropped", "won"]


@pytest.mark.django_db
def test_the_harness_discards_a_card_its_seat_holds_from_a_whole_view_of_a_later_deal(
    tmp_path: Path,
) -> None:
    """A whole view (what a seat fetches when it starts or catches up) goes on, after the hand
    and its actions, to the felt's result sheet of the last deal and its cards."""
    fixture = _fixture(tmp_path, tables=1, seats=3, deal=2)
    table_id = fixture[0]["table_id"]
    game, state = _state(table_id)
    assert state.deal is not None and state.deal.turn is not None
    seat_no = state.deal.turn
    by_seat = {p["seat"]: p for p in fixture[0]["players"]}
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = by_seat[seat_no]["session"]
    act = reverse("table_act", args=[table_id])
    fields = {"action": "pick_closed", "version": game.version, "game": game.pk}
    picked = client.post(act, fields, HTTP_HX_REQUEST="true")
    assert picked.status_code in (200, 204)
    assert Game.objects.get(pk=game.pk).version == game.version + 1

    view = client.get(reverse("table_view", args=[table_id]))
    assert view.status_code == 200
    html = view.content.decode()
    assert 'id="scoreboard"' in html  # the last deal's result sheet, with its cards
    seat = Seat(table_id=table_id, seat=seat_no, session="", base="", html=html)
    move = next_move(seat)

    assert move is not None and move["action"] == "discard"
    # The hand's last card as the view shows it, not the last card of the view (the sheet's).
    hand = html[html.index('id="my-hand"') : html.index('id="my-actions"')]
    sheet = html[html.index('id="scoreboard"') :]
    assert CODE.findall(sheet)
    assert move["card"] == CODE.findall(hand)[-1]
    _, state = _state(table_id)
    assert state.deal is not None
    held = {card.code for hand in state.deal.hands if hand.seat == seat_no for card in hand.cards}
    assert move["card"] in held
