"""A write's moves are written at its end with the game row (``tables.services._saved``): in
the order recorded, at the versions they made, with the game at the last of them; never lost
when a write records a move and does not save the game; never written when the write fails;
read back by a write that reads the move log (the computer players' record of the deal)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tables_testkit import Clock, TableDriver

from tables.models import Game, Move
from tables.services import _context, _saved
from tables.services._context import in_transaction, lock_game, record_move
from tables.services._pipeline import save_game
from tables.services.bots import _deal_events

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def t(seated: Callable[..., TableDriver], toss: Callable[[int], None]) -> TableDriver:
    toss(1)
    return seated(3, turn_s=30, extra_time_s=0)


def _log(game: Game) -> list[tuple[int, str]]:
    return list(Move.objects.filter(game=game).order_by("version").values_list("version", "action"))


def test_several_moves_of_one_write_are_written_in_order_with_the_game(
    t: TableDriver, clock: Clock
) -> None:
    before = t.game()
    logged = _log(before)

    def work() -> None:
        ctx = lock_game(before.pk, clock())
        for name in ("note_a", "note_b", "note_c"):
            record_move(ctx, action=name, payload={"n": name}, seat_no=1)
        save_game(ctx)

    in_transaction(work)
    game = t.game()
    assert game.version == before.version + 3
    assert _log(game) == [
        *logged,
        (before.version + 1, "note_a"),
        (before.version + 2, "note_b"),
        (before.version + 3, "note_c"),
    ]
    last = Move.objects.get(game=game, version=game.version)
    assert last.payload == {"n": "note_c"} and last.seat_no == 1 and last.created_at is not None
    assert game.state == before.state  # the game row written with them, its state as it was


def test_a_move_recorded_without_saving_the_game_is_still_written(
    t: TableDriver, clock: Clock
) -> None:
    before = t.game()

    def work() -> None:
        ctx = lock_game(before.pk, clock())
        record_move(ctx, action="note", payload={})
        assert not Move.objects.filter(game=before, version=before.version + 1).exists()

    in_transaction(work)
    assert _log(t.game())[-1] == (before.version + 1, "note")
    assert _saved._unsaved() == []  # nothing kept for the thread's next write


def test_a_write_that_fails_writes_none_of_its_moves(t: TableDriver, clock: Clock) -> None:
    before = t.game()
    logged = _log(before)

    def work() -> None:
        ctx = lock_game(before.pk, clock())
        record_move(ctx, action="note", payload={})
        raise RuntimeError("refused after the move was recorded")

    with pytest.raises(RuntimeError):
        in_transaction(work)
    assert _log(t.game()) == logged
    assert _saved._unsaved() == []

    def empty() -> None:  # the thread's next write writes nothing of the failed one
        lock_game(before.pk, clock())

    in_transaction(empty)
    assert _log(t.game()) == logged


def test_a_write_reading_the_move_log_reads_its_own_moves(t: TableDriver, clock: Clock) -> None:
    before = t.game()

    def work() -> list[object]:
        ctx = lock_game(before.pk, clock())
        record_move(
            ctx,
            action="note",
            payload={},
            events=[{"type": "noted"}],
            deal=_context.open_deal(ctx),
        )
        return list(_deal_events(ctx))

    events = in_transaction(work)
    assert events[-1] == {"type": "noted"}
    assert _log(t.game())[-1] == (before.version + 1, "note")


def test_a_whole_turn_over_the_service_logs_each_move_once(t: TableDriver) -> None:
    before = t.game()
    t.act(1, "pick_closed")
    picked = t.view(1)["hand"]["picked"]
    t.act(1, "discard", card=picked)
    game = t.game()
    assert game.version == before.version + 2
    versions = list(Move.objects.filter(game=game).values_list("version", flat=True))
    assert versions == list(range(1, game.version + 1))
    assert _log(game)[-2:] == [(before.version + 1, "pick_closed"), (before.version + 2, "discard")]


def test_values_that_look_like_sql_are_written_and_read_back_as_they_are(
    t: TableDriver, clock: Clock
) -> None:
    """The one statement that writes the moves and the game (on PostgreSQL its values quoted
    into it by psycopg) keeps quotes, backslashes and placeholders as they are."""
    before = t.game()
    tricky = {"note": "it's a \\ back'slash; %s %(x)s $1 -- not SQL", "list": ["'", '"', "\\"]}

    def work() -> None:
        ctx = lock_game(before.pk, clock())
        record_move(ctx, action="note", payload=tricky, seat_no=2)
        save_game(ctx)

    in_transaction(work)
    game = t.game()
    assert game.version == before.version + 1
    assert Move.objects.get(game=game, version=game.version).payload == tricky
