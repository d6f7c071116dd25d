"""Stale, duplicate, forged and malformed actions: a clear error, and nothing changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tables_testkit import Planter, TableDriver

from ledger.models import Transaction
from tables import services
from tables.models import Game, Move
from tables.rules.errors import InvalidCard, InvalidMove


@pytest.fixture
def t(showable_three: TableDriver) -> TableDriver:
    return showable_three


def snapshot(t: TableDriver) -> tuple[Any, ...]:
    game = Game.objects.get(pk=t.game().pk)
    return (
        game.version,
        game.state,
        game.deadline,
        Move.objects.count(),
        Transaction.objects.count(),
    )


def test_a_stale_version_is_refused(t: TableDriver) -> None:
    before = snapshot(t)
    game = t.game()
    with pytest.raises(services.StaleAction, match="nothing was done") as info:
        services.game_act(
            game_id=game.pk,
            user=t.users[1],
            action="pick_closed",
            expected_version=game.version - 1,
        )
    assert info.value.current == game.version
    assert snapshot(t) == before


def test_a_double_click_acts_once(t: TableDriver) -> None:
    game = t.game()
    kwargs = {
        "game_id": game.pk,
        "user": t.users[1],
        "action": "pick_closed",
        "expected_version": game.version,
    }
    services.game_act(**kwargs)
    after_first = snapshot(t)
    with pytest.raises(services.StaleAction):
        services.game_act(**kwargs)
    assert snapshot(t) == after_first
    assert len(t.view(1)["hand"]["cards"]) == 14


@pytest.mark.parametrize(
    ("seat", "action", "payload", "error", "message"),
    [
        (1, "discard", {"card": "ZZ"}, InvalidCard, "ZZ"),
        (1, "discard", {"card": "11H"}, InvalidCard, "11H"),
        (1, "discard", {"card": 7}, InvalidCard, "7"),
        (1, "discard", {}, services.ActionNotAllowed, "Missing fields"),
        (1, "discard", {"card": "AS"}, InvalidMove, "pick a card"),
        (2, "pick_closed", {}, InvalidMove, "not seat 2's turn"),
        (1, "pick_closed", {"seat": 2}, services.ActionNotAllowed, "Unexpected fields"),
        (1, "timeout", {}, services.ActionNotAllowed, "Unknown action"),
        (1, "start_deal", {}, services.ActionNotAllowed, "Unknown action"),
        (1, "set_connected", {"connected": False}, services.ActionNotAllowed, "Unknown action"),
        (1, "win_the_pot", {}, services.ActionNotAllowed, "Unknown action"),
        (1, None, {}, services.ActionNotAllowed, "Unknown action"),
        (1, "arrange", {"groups": "AS 2S"}, InvalidMove, "malformed arrange"),
        (1, "arrange", {"groups": [["AS", "2S"]]}, InvalidMove, "exactly your cards"),
        (1, "declare", {"finish_card": "AS", "groups": []}, InvalidMove, "pick a card"),
        (1, "rejoin", {}, InvalidMove, "no rejoin"),
        (1, "split_accept", {}, InvalidMove, "no split"),
        (1, "lay_down", {"melds": [["AS", "2S", "3S"]]}, InvalidMove, "unknown action"),
    ],
)
def test_bad_actions_change_nothing(
    t: TableDriver,
    seat: int,
    action: Any,
    payload: Any,
    error: type[Exception],
    message: str,
) -> None:
    before = snapshot(t)
    game = t.game()
    with pytest.raises(error, match=message):
        services.game_act(
            game_id=game.pk,
            user=t.users[seat],
            action=action,
            payload=payload,
            expected_version=game.version,
        )
    assert snapshot(t) == before


@pytest.mark.parametrize("game_id", [987654, -1, 0, "1", None, 1.5])
def test_unknown_game(t: TableDriver, game_id: Any) -> None:
    before = snapshot(t)
    with pytest.raises(services.NotFound):
        services.game_act(
            game_id=game_id, user=t.users[1], action="pick_closed", expected_version=1
        )
    assert snapshot(t) == before


@pytest.mark.parametrize("version", ["5", None, 1.0, True])
def test_malformed_version(t: TableDriver, version: Any) -> None:
    before = snapshot(t)
    with pytest.raises(services.ActionNotAllowed, match="version"):
        services.game_act(
            game_id=t.game().pk, user=t.users[1], action="pick_closed", expected_version=version
        )
    assert snapshot(t) == before


def test_strangers_and_anonymous_users_cannot_act(t: TableDriver, players: list[Any]) -> None:
    from django.contrib.auth.models import AnonymousUser

    before = snapshot(t)
    game = t.game()
    with pytest.raises(services.NotSeated):
        services.game_act(
            game_id=game.pk, user=players[5], action="pick_closed", expected_version=game.version
        )
    with pytest.raises(services.NotSeated):
        services.game_act(
            game_id=game.pk,
            user=AnonymousUser(),  # type: ignore[arg-type]  # on purpose: refused
            action="pick_closed",
            expected_version=game.version,
        )
    assert snapshot(t) == before


def test_wrappers_validate_their_arguments(t: TableDriver) -> None:
    game = t.game()
    with pytest.raises(services.ActionNotAllowed):
        services.deal_pick(game_id=game.pk, user=t.users[1], source="middle", expected_version=1)
    with pytest.raises(services.ActionNotAllowed):
        services.deal_arrange(
            game_id=game.pk,
            user=t.users[1],
            groups=42,  # type: ignore[arg-type]  # on purpose: refused
            expected_version=game.version,
        )
    services.deal_pick(
        game_id=game.pk, user=t.users[1], source="closed", expected_version=game.version
    )
    game.refresh_from_db()
    picked = t.view(1)["hand"]["picked"]
    services.deal_discard(
        game_id=game.pk, user=t.users[1], card=picked.lower(), expected_version=game.version
    )
    assert t.turn() == 2


def test_auto_sort_arranges_the_best_groups(t: TableDriver) -> None:
    game = t.game()
    services.deal_sort(game_id=game.pk, user=t.users[1], expected_version=game.version)
    hand = t.view(1)["hand"]
    assert hand["count"] == 0  # seat 1 holds a valid show: sorted, nothing counts
    assert sorted(map(len, hand["groups"])) == [3, 3, 3, 4]
    # Sorting is the player's own arrangement: a second press (a double click, or a page that
    # missed another seat's move) is not refused as stale and leaves the same groups.
    services.deal_sort(game_id=game.pk, user=t.users[1], expected_version=game.version)
    assert t.view(1)["hand"]["groups"] == hand["groups"]


def test_moves_are_append_only(t: TableDriver) -> None:
    move = Move.objects.filter(game=t.game()).first()
    assert move is not None
    move.action = "forged"
    with pytest.raises(TypeError, match="append-only"):
        move.save()
    with pytest.raises(TypeError, match="append-only"):
        move.delete()
    with pytest.raises(TypeError, match="append-only"):
        Move.objects.filter(pk=move.pk).update(action="forged")
    with pytest.raises(TypeError, match="append-only"):
        Move.objects.filter(pk=move.pk).delete()
    assert Move.objects.get(pk=move.pk).action == "seat_join"


def test_best_groups_keeps_the_sequences_a_player_built_when_no_show_is_possible(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> None:
    # Two sequences with jokers and no pure sequence: nothing can be shown and every card
    # counts, yet Best groups keeps both sequences and leaves only the rest loose.
    toss(1)
    planter.add(hands={1: "QH KH JK JS QS 2D AC 3D 4H 6S 8C 10D 9H"}, open_card="5C", cut_card="2C")
    t = seated(3)
    game = t.game()
    services.deal_sort(game_id=game.pk, user=t.users[1], expected_version=game.version)
    groups = t.view(1)["hand"]["groups"]
    assert len(groups) == 3
    built = [{c for c in group if c not in ("JK", "2D")} for group in groups[:2]]
    assert sorted(map(sorted, built)) == [["JS", "QS"], ["KH", "QH"]]
    assert sorted(groups[2]) == sorted(["AC", "3D", "4H", "6S", "8C", "10D", "9H"])
