"""A player's moves in a game: one action endpoint (``game_act``) for every action of
``PLAYER_ACTIONS``, a named service per move, auto-sort, and starting a game or a deal by hand
(the timers and a full table normally do that)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction

from tables.engines import OPTIONAL_FIELDS, PLAYER_ACTIONS
from tables.models import Deal, Game, GameStatus, Seat
from tables.rules.errors import RulesError
from tables.services._context import Ctx, check_user, engine_action, now_or_clock
from tables.services._pipeline import apply_action, begin_game, continue_play, deal_next, game_write
from tables.services.errors import (
    ActionNotAllowed,
    NotFound,
    NotSeated,
    StaleAction,
    TableClosed,
    TableError,
    TableRefusal,
    TimeRanOut,
)
from tables.services.seating import leave_game
from tables.services.timers import fire_overdue

if TYPE_CHECKING:
    from accounts.models import User


def game_start(*, game: Game, now: float | None = None) -> Game:
    """Start the waiting ``game`` now with the seated players (at least the minimum). A full
    table or the start countdown normally does this."""
    now = now_or_clock(now)

    def body(ctx: Ctx) -> Game:
        if ctx.game.status != GameStatus.WAITING:
            raise TableError(TableRefusal.GAME_STARTED)
        if len(ctx.active_seats()) < ctx.settings.seats_min:
            raise TableError(TableRefusal.GAME_NEEDS_PLAYERS, count=ctx.settings.seats_min)
        begin_game(ctx)
        return ctx.game

    return game_write(game_id=getattr(game, "pk", None), now=now, body=body)


def deal_start(*, game: Game, now: float | None = None) -> Deal:
    """Deal the next deal of ``game`` now, if one is due (a started game awaiting a deal, or a
    break that has run out). The timers normally do this."""
    now = now_or_clock(now)

    def body(ctx: Ctx) -> Deal:
        if ctx.game.status != GameStatus.RUNNING or not ctx.deal_due(now):
            raise TableError(TableRefusal.NO_DEAL_DUE)
        deal = deal_next(ctx)
        return deal

    return game_write(game_id=getattr(game, "pk", None), now=now, body=body)


# A player's own arrangement, meld submission and auto-drop switch do not depend on the other
# seats' moves, so another seat's move does not make them stale: they carry no version check.
# Every other move acts on the shared table and must be for the version the player saw.
INDEPENDENT_ACTIONS = frozenset({"arrange", "submit_meld", "set_auto_drop"})


def _payload_check(*, action: object, payload: object) -> None:
    """Refuse an action that is not one of ``PLAYER_ACTIONS``, or whose payload lacks a field
    or has one more: the one check of a player's action's shape, whoever sends it (the view
    only reads the form's fields into values)."""
    keys = PLAYER_ACTIONS.get(action) if isinstance(action, str) else None
    if keys is None:
        raise ActionNotAllowed(TableRefusal.UNKNOWN_ACTION, action=repr(action)[:42])
    if not isinstance(payload, Mapping):
        raise ActionNotAllowed(TableRefusal.MALFORMED_ACTION, action=action)
    extra = set(payload) - keys
    if extra:
        raise ActionNotAllowed(
            TableRefusal.UNEXPECTED_FIELDS, action=action, fields=", ".join(sorted(extra))
        )
    missing = keys - set(payload) - OPTIONAL_FIELDS
    if missing:
        raise ActionNotAllowed(
            TableRefusal.MISSING_FIELDS, action=action, fields=", ".join(sorted(missing))
        )


def game_act(
    *,
    game_id: int | None,
    user: User,
    action: str,
    expected_version: int,
    payload: Mapping[str, object] | None = None,
    now: float | None = None,
    table_id: int | None = None,
) -> Game:
    """Apply one player action for ``user``'s seat, judged at ``now`` by the server's clock.
    With ``table_id``, the game must be that table's (``NotFound`` otherwise); with
    ``table_id`` and no ``game_id``, the game is that table's live one (``NotFound`` when it
    has none), found as it is locked.
    ``action`` is a name of ``PLAYER_ACTIONS``, ``payload`` its fields (card codes as text),
    e.g. ``action="discard", payload={"card": "QH"}``.

    A deadline that has passed (beyond the grace) is fired first, in the same transaction, and
    stands; the action is then judged against what it left: a move on the shared table is
    refused (``TimeRanOut``), one of the ``INDEPENDENT_ACTIONS`` is applied if still legal.
    Moves on the shared table must be for ``expected_version``, else ``StaleAction`` (a double
    click, a replayed or late request). ``InvalidMove``/``InvalidCard`` (engine) mean an illegal
    move or a bad card code, ``TableError`` subclasses the rest. Nothing else changes on any
    error."""
    now = now_or_clock(now)
    check_request(user=user, expected_version=expected_version)
    payload = payload or {}
    _payload_check(action=action, payload=payload)

    def act(ctx: Ctx, seen: int) -> Game:
        if table_id is not None and ctx.table.pk != table_id:
            raise NotFound(TableRefusal.NO_SUCH_GAME)
        if action not in INDEPENDENT_ACTIONS and ctx.game.version != seen:
            raise StaleAction(expected=expected_version, current=ctx.game.version)
        seat = _playing_seat(ctx, user)
        move = engine_action(ctx, action, seat=seat.seat_no, **payload)
        if action == "leave":
            leave_game(ctx, seat)
        else:
            apply_action(ctx, move, actor=user)
            continue_play(ctx)
        return ctx.game

    return _on_time(
        game_id=game_id,
        table_id=table_id,
        now=now,
        expected_version=expected_version,
        independent=action in INDEPENDENT_ACTIONS,
        act=act,
    )


def check_request(*, user: User, expected_version: object) -> None:
    check_user(user)
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise ActionNotAllowed(TableRefusal.BAD_VERSION)


def _playing_seat(ctx: Ctx, user: User) -> Seat:
    if ctx.game.status != GameStatus.RUNNING:
        raise TableClosed(TableRefusal.GAME_NOT_PLAYED)
    seat = ctx.seat_of(user)
    if seat is None or not seat.played:
        raise NotSeated(TableRefusal.NOT_PLAYING)
    return seat


@dataclass
class _Outcome:
    """What one ``_on_time`` transaction ends with: the game, and the refusal of a move that
    came too late or was refused after deadlines fired. That transaction commits (the
    timeouts stand) and the refusal is raised after it: raised inside, it would undo them."""

    game: Game
    refusal: TableError | RulesError | None = None


def _on_time(
    *,
    game_id: int | None,
    table_id: int | None = None,
    now: float,
    expected_version: int,
    independent: bool,
    act: Callable[[Ctx, int], Game],
) -> Game:
    """Run ``act(ctx, seen_version)`` in one transaction on the game after firing every
    deadline that has passed at ``now`` (``timers.fire_overdue``). When one fired, the timeouts
    are kept whatever becomes of the move: a move on the shared table is refused with
    ``TimeRanOut`` (unless the timeouts only opened the player's extra time: the move is then on
    time, against the version the player saw plus those timeouts); an independent move is tried
    in a savepoint and its refusal does not undo them."""

    def body(ctx: Ctx) -> _Outcome:
        before = ctx.game.version
        fired = fire_overdue(ctx)
        if not fired:
            return _Outcome(game=act(ctx, expected_version))
        if not independent and any(f.moved_on for f in fired):
            return _Outcome(game=ctx.game, refusal=TimeRanOut([f.kind for f in fired]))
        seen = expected_version + (ctx.game.version - before)
        try:
            with transaction.atomic():
                return _Outcome(game=act(ctx, seen))
        except (TableError, RulesError) as exc:
            return _Outcome(game=ctx.game, refusal=exc)

    outcome = game_write(game_id=game_id, table_id=table_id, now=now, body=body)
    if outcome.refusal is not None:
        raise outcome.refusal
    return outcome.game


def deal_pick(
    *, game_id: int, user: User, source: str, expected_version: int, now: float | None = None
) -> Game:
    """Pick from the ``"closed"`` or the ``"open"`` deck."""
    if source not in ("closed", "open"):
        raise ActionNotAllowed(TableRefusal.PICK_SOURCE)
    return game_act(
        game_id=game_id,
        user=user,
        action=f"pick_{source}",
        expected_version=expected_version,
        now=now,
    )


def deal_discard(
    *, game_id: int, user: User, card: str, expected_version: int, now: float | None = None
) -> Game:
    return game_act(
        game_id=game_id,
        user=user,
        action="discard",
        payload={"card": card},
        expected_version=expected_version,
        now=now,
    )


def deal_arrange(
    *,
    game_id: int,
    user: User,
    groups: Sequence[Sequence[str]],
    expected_version: int,
    now: float | None = None,
) -> Game:
    return game_act(
        game_id=game_id,
        user=user,
        action="arrange",
        payload={"groups": _groups_payload(groups)},
        expected_version=expected_version,
        now=now,
    )


def deal_sort(
    *,
    game_id: int | None,
    user: User,
    expected_version: int,
    now: float | None = None,
    table_id: int | None = None,
) -> Game:
    """Auto-sort: arrange ``user``'s hand into its best arrangement (the lowest count; a valid
    show when there is one), the loose cards last. 13-card games only. Like every arrangement
    it does not depend on the others' moves, so it carries no version check. With
    ``table_id`` and no ``game_id``: the table's live game (as ``game_act``)."""
    now = now_or_clock(now)
    check_request(user=user, expected_version=expected_version)

    def act(ctx: Ctx, seen: int) -> Game:
        if table_id is not None and ctx.table.pk != table_id:
            raise NotFound(TableRefusal.NO_SUCH_GAME)
        seat = _playing_seat(ctx, user)
        if not ctx.engine.traits.sorts_hand:
            raise ActionNotAllowed(TableRefusal.SORT_THIRTEEN)
        state = ctx.running_state()
        allowed = ctx.engine.view(state, seat.seat_no).allowed
        groups = ctx.engine.sort_groups(state, seat.seat_no) if "arrange" in allowed else None
        if not groups:
            raise ActionNotAllowed(TableRefusal.NO_HAND_TO_SORT)
        move = engine_action(ctx, "arrange", seat=seat.seat_no, groups=groups)
        apply_action(ctx, move, actor=user)
        return ctx.game

    return _on_time(
        game_id=game_id,
        table_id=table_id,
        now=now,
        expected_version=expected_version,
        independent=True,
        act=act,
    )


def game_rejoin(
    *, game_id: int, user: User, expected_version: int, now: float | None = None
) -> Game:
    """Buy back in after an elimination (pool): the entry fee is paid into the pot again."""
    return game_act(
        game_id=game_id, user=user, action="rejoin", expected_version=expected_version, now=now
    )


def _groups_payload(groups: object) -> list[str | list[object]]:
    if isinstance(groups, str) or not isinstance(groups, Iterable):
        raise ActionNotAllowed(TableRefusal.GROUPS_CODES)
    out: list[str | list[object]] = []
    for group in groups:
        if isinstance(group, str):
            out.append(group)
        elif isinstance(group, Iterable):
            out.append(list(group))
        else:
            raise ActionNotAllowed(TableRefusal.GROUPS_CODES)
    return out
