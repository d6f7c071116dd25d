"""What every engine's ``view()`` returns: ``EngineView``, a typed per-viewer view.

Each engine builds its view as a JSON-ready dict (the keys in docs/game-engine.md and
docs/classic-rummy.md) and returns it read once into this frozen object: the phase, the
engine's deadline, the deal on the table, the viewer's own hand, the players and the actions
allowed. The whole dict stays in ``raw`` (JSON values) for the result sheets, the scoreboard
and the offers, which follow its shape.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias, TypeVar, cast

__all__ = [
    "DealView",
    "EngineView",
    "HandView",
    "JsonObject",
    "JsonValue",
    "MeldView",
    "PlayerView",
    "engine_view_of",
    "engine_views_of",
    "json_int",
    "json_object",
    "json_objects",
]

JsonValue: TypeAlias = (
    "str | int | float | bool | Sequence[JsonValue] | Mapping[str, JsonValue] | None"
)
JsonObject: TypeAlias = Mapping[str, JsonValue]
T = TypeVar("T")


def json_object(value: JsonValue) -> JsonObject:
    """``value`` if it is a JSON object, else an empty one."""
    return value if isinstance(value, Mapping) else {}


def _json_list(value: JsonValue) -> Sequence[JsonValue]:
    """``value`` if it is a JSON list, else an empty one."""
    if isinstance(value, str | Mapping) or not isinstance(value, Sequence):
        return ()
    return value


def json_objects(value: JsonValue) -> tuple[JsonObject, ...]:
    """The JSON objects of a JSON list (anything else: none)."""
    return tuple(v for v in _json_list(value) if isinstance(v, Mapping))


def _strings(value: JsonValue) -> tuple[str, ...]:
    return tuple(str(v) for v in _json_list(value))


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player of the game as the engine shows them to every viewer."""

    seat: int
    status: str  # "in", "out", "eliminated", "left", "waiting"...
    total: int | None
    chips: int | None
    drops_available: int | None  # pool games, while in
    extra_time: float
    connected: bool
    in_deal: bool
    deal_status: str | None  # "playing", "dropped", "declared", "wrong_show"...
    card_count: int
    turns: int  # turns taken in this deal (a first drop before the first)


@dataclass(frozen=True, slots=True)
class HandView:
    """The viewer's own hand: its cards, as arranged in groups (13-card games), the card just
    picked, and its live count (a classic hand: its points)."""

    cards: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...]
    picked: str | None
    auto_drop: bool
    status: str
    count: int | None


@dataclass(frozen=True, slots=True)
class MeldView:
    """A meld laid on the table (classic rummy): its id, kind, owner and cards."""

    id: int
    kind: str  # "set" or "run"
    owner: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DealView:
    """The deal on the table, as every viewer sees it (classic: the hand being played)."""

    number: int | None
    cut_joker: str | None  # 13-card games: the wild joker
    open_top: str | None
    closed_count: int
    turn: int | None
    turn_picked: bool
    in_extra_time: bool
    melds: tuple[MeldView, ...]  # classic: the melds laid on the table
    show: JsonObject | None  # a declaration: its seat and groups


@dataclass(frozen=True, slots=True)
class EngineView:
    """The engine's view for one viewer (see the module's docstring)."""

    phase: str
    deadline: float | None  # the engine's own (the turn, the meld window, the break)
    deadline_kind: str
    deal_number: int | None
    deals_count: int | None  # deals (or classic hands) the game lasts, when fixed
    pool_limit: int | None
    players: tuple[PlayerView, ...]
    deal: DealView | None
    hand: HandView | None
    allowed: tuple[str, ...]  # the engine's action types for the viewer
    raw: JsonObject

    def player(self, seat: int | None) -> PlayerView | None:
        return next((p for p in self.players if p.seat == seat), None)


def json_int(value: JsonValue) -> int | None:
    """``value`` as a whole number, if it is a JSON number (not a boolean)."""
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _int(value: JsonValue) -> int:
    return json_int(value) or 0


def _str_or_none(value: JsonValue) -> str | None:
    return str(value) if value else None


def _player(p: JsonObject) -> PlayerView:
    extra = p.get("extra_time")
    return PlayerView(
        seat=_int(p.get("seat")),
        status=str(p.get("status") or ""),
        total=json_int(p.get("total")),
        chips=json_int(p.get("chips")),
        drops_available=json_int(p.get("drops_available")),
        extra_time=float(extra) if isinstance(extra, int | float) else 0.0,
        connected=bool(p.get("connected", True)),
        in_deal=bool(p.get("in_deal")),
        deal_status=_str_or_none(p.get("deal_status")),
        card_count=_int(p.get("card_count")),
        turns=_int(p.get("turns")),
    )


def _players(players: JsonValue) -> tuple[PlayerView, ...]:
    return tuple(_player(p) for p in json_objects(players))


def _groups(groups: JsonValue) -> tuple[tuple[str, ...], ...]:
    return tuple(_strings(g) for g in _json_list(groups))


def _meld(meld: JsonObject) -> MeldView:
    return MeldView(
        id=_int(meld.get("id")),
        kind=str(meld.get("kind") or ""),
        owner=_int(meld.get("owner")),
        cards=_strings(meld.get("cards")),
    )


def _hand(hand: JsonObject) -> HandView:
    count = hand.get("count") if "count" in hand else hand.get("points")
    return HandView(
        cards=_strings(hand.get("cards")),
        groups=_groups(hand.get("groups")),
        picked=_str_or_none(hand.get("picked")),
        auto_drop=bool(hand.get("auto_drop")),
        status=str(hand.get("status") or ""),
        count=json_int(count),
    )


def _deal(deal: JsonObject) -> DealView:
    show = deal.get("show")
    return DealView(
        number=json_int(deal.get("number")),
        cut_joker=_str_or_none(deal.get("cut_joker")),
        open_top=_str_or_none(deal.get("open_top")),
        closed_count=_int(deal.get("closed_count")),
        turn=json_int(deal.get("turn")),
        turn_picked=bool(deal.get("turn_picked")),
        in_extra_time=bool(deal.get("in_extra_time")),
        melds=tuple(_meld(m) for m in json_objects(deal.get("melds"))),
        show=json_object(show) if show else None,
    )


def engine_view_of(view: JsonObject) -> EngineView:
    """An engine's per-viewer view dict, read into its typed form (the whole of it in ``raw``)."""
    return _typed(view, _Shared())


def engine_views_of(views: Sequence[JsonObject]) -> list[EngineView]:
    """``engine_view_of`` of several views of one state: the parts they share as the same
    objects (the players, the deal: ``game_views``) are read once, into one typed value."""
    shared = _Shared()
    return [_typed(view, shared) for view in views]


class _Shared:
    """The typed parts read so far, by the raw object they were read from (kept, so that its
    ``id`` is not reused while this lives)."""

    def __init__(self) -> None:
        self.read: dict[int, tuple[JsonValue, object]] = {}

    def once(self, raw: JsonValue, read: Callable[[JsonValue], T]) -> T:
        found = self.read.get(id(raw))
        if found is None:
            found = (raw, read(raw))
            self.read[id(raw)] = found
        return cast(T, found[1])


def _typed(view: JsonObject, shared: _Shared) -> EngineView:
    deal = view.get("deal")
    hand = view.get("hand")
    deadline = view.get("deadline")
    classic = view.get("variant") == "classic"
    return EngineView(
        phase=str(view.get("phase") or ""),
        deadline=float(deadline) if isinstance(deadline, int | float) else None,
        deadline_kind=str(view.get("deadline_kind") or ""),
        deal_number=json_int(view.get("deal_number")),
        deals_count=json_int(view.get("hands_count" if classic else "deals_count")),
        pool_limit=json_int(view.get("pool_limit")),
        players=shared.once(view.get("players"), _players),
        deal=shared.once(deal, lambda raw: _deal(json_object(raw))) if deal else None,
        hand=_hand(json_object(hand)) if hand else None,
        allowed=_strings(view.get("allowed")),
        raw=view,
    )
