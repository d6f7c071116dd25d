"""The table's read model: what a viewer (a seated player, or nobody: the felt's public view)
sees of a table, typed.

``tables.selectors.table_view_data`` builds a ``TableRead`` from the rows (or, after a move,
from what the move holds); ``tables.presenters.table`` reads it for the felt
(``present_felt``, from the public ``TableRead``) and for a seat's own parts (``present_seat``,
``seat_keys``, from that seat's), so both read the same values by the same names.

``GameView`` is the part of the engine's per-viewer view (``engine.view(state, seat)``, a
JSON-ready dict described in docs/game-engine.md) that the felt and the parts read: the phase,
the engine's deadline, the deal on the table, the viewer's own hand and the players. The
engine's whole view stays in ``GameView.raw`` for the result sheets, the scoreboard and the
offers (``tables.presenters.results``), which follow its shape.

No query and no rule here: frozen values only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tables.models import Game, Table, TableTemplate

__all__ = [
    "Commitment",
    "DealView",
    "GameView",
    "HandView",
    "PlayerView",
    "SeatRead",
    "Settlement",
    "TableRead",
    "game_view_of",
]


@dataclass(frozen=True, slots=True)
class SeatRead:
    """A seat of the game as the table shows it (``left``: left the live game)."""

    seat_no: int
    user_id: int
    name: str
    is_bot: bool
    connected: bool
    left: bool
    me: bool
    entry_paid: int


@dataclass(frozen=True, slots=True)
class Commitment:
    """The shoe commitment of the game's newest deal, for one of its players: the commitment
    from the first card on; the shoe, the secret and the exact text hashed once the deal has
    ended (docs/fairness.md)."""

    number: int
    word: str  # "Deal", or "Hand" in classic rummy
    commitment: str
    revealed: bool
    secret: str
    cards: str
    preimage: str


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a finished game paid: the payouts by seat and the platform fee (minor units)."""

    payouts: Mapping[int, int]
    fee: int


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
class DealView:
    """The deal on the table, as every viewer sees it (classic: the hand being played)."""

    number: int | None
    cut_joker: str | None  # 13-card games: the wild joker
    open_top: str | None
    closed_count: int
    turn: int | None
    turn_picked: bool
    in_extra_time: bool
    melds: tuple[Mapping[str, Any], ...]  # classic: the melds laid on the table
    show: Mapping[str, Any] | None  # a declaration: its seat and groups


@dataclass(frozen=True, slots=True)
class GameView:
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
    raw: Mapping[str, Any]

    def player(self, seat: int | None) -> PlayerView | None:
        return next((p for p in self.players if p.seat == seat), None)


def _int_or_none(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _player(p: Mapping[str, Any]) -> PlayerView:
    return PlayerView(
        seat=int(p["seat"]),
        status=str(p.get("status") or ""),
        total=_int_or_none(p.get("total")),
        chips=_int_or_none(p.get("chips")),
        drops_available=_int_or_none(p.get("drops_available")),
        extra_time=float(p.get("extra_time") or 0),
        connected=bool(p.get("connected", True)),
        in_deal=bool(p.get("in_deal")),
        deal_status=str(p["deal_status"]) if p.get("deal_status") else None,
        card_count=int(p.get("card_count") or 0),
        turns=int(p.get("turns") or 0),
    )


def _groups(groups: Sequence[Sequence[str]] | None) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(c) for c in g) for g in groups or ())


def _hand(hand: Mapping[str, Any]) -> HandView:
    count = hand.get("count") if "count" in hand else hand.get("points")
    return HandView(
        cards=tuple(str(c) for c in hand.get("cards") or ()),
        groups=_groups(hand.get("groups")),
        picked=str(hand["picked"]) if hand.get("picked") else None,
        auto_drop=bool(hand.get("auto_drop")),
        status=str(hand.get("status") or ""),
        count=_int_or_none(count),
    )


def _deal(deal: Mapping[str, Any]) -> DealView:
    return DealView(
        number=_int_or_none(deal.get("number")),
        cut_joker=str(deal["cut_joker"]) if deal.get("cut_joker") else None,
        open_top=str(deal["open_top"]) if deal.get("open_top") else None,
        closed_count=int(deal.get("closed_count") or 0),
        turn=_int_or_none(deal.get("turn")),
        turn_picked=bool(deal.get("turn_picked")),
        in_extra_time=bool(deal.get("in_extra_time")),
        melds=tuple(deal.get("melds") or ()),
        show=deal.get("show") or None,
    )


def game_view_of(view: Mapping[str, Any]) -> GameView:
    """The typed parts of an engine's per-viewer view (the whole of it in ``raw``)."""
    deal = view.get("deal")
    hand = view.get("hand")
    deadline = view.get("deadline")
    classic = view.get("variant") == "classic"
    return GameView(
        phase=str(view.get("phase") or ""),
        deadline=float(deadline) if deadline is not None else None,
        deadline_kind=str(view.get("deadline_kind") or ""),
        deal_number=_int_or_none(view.get("deal_number")),
        deals_count=_int_or_none(view.get("hands_count" if classic else "deals_count")),
        pool_limit=_int_or_none(view.get("pool_limit")),
        players=tuple(_player(p) for p in view.get("players") or ()),
        deal=_deal(deal) if deal else None,
        hand=_hand(hand) if hand else None,
        allowed=tuple(str(a) for a in view.get("allowed") or ()),
        raw=view,
    )


@dataclass(frozen=True, slots=True)
class TableRead:
    """What one viewer (``user_id``; ``None``: a spectator, or the felt's public view) sees of
    a table: its current game (or the last one, to show its result) with its version and
    deadline, the seats with their names, the engine's view for the viewer's seat, the
    viewer's own seat and the actions allowed now.

    For the result sheets: ``rules`` (the game's frozen engine settings: drop and show scores,
    point value, rummy bonus), each seat's ``entry_paid`` and, once the pot is paid out,
    ``settlement``. ``moves``: the newest entries of the move log (``{"version", "events"}``,
    oldest first) for "what just happened"; after a move only those its change recorded
    (``moves_partial``: the page adds them to what it shows)."""

    table: Table
    game: Game | None
    live: bool
    version: int
    deadline: datetime | None  # the stored one: a countdown, a computer player's think time
    deadline_kind: str
    stake: int | None
    currency: str
    seats_max: int
    seats: tuple[SeatRead, ...]
    my_seat: int | None
    view: GameView | None
    rules: Any  # the engine's settings of the game (GameSettings or ClassicSettings)
    allowed: tuple[str, ...]  # the ``PLAYER_ACTIONS`` the viewer may send now
    user_id: int | None
    # A seat is free to take (by anyone who does not sit in the live game: the felt shows
    # Join, or Play again after a game, to every such viewer).
    join_open: bool
    can_join: bool
    can_leave: bool
    result: Mapping[str, Any] | None
    settlement: Settlement | None
    commitment: Commitment | None
    moves: tuple[dict[str, Any], ...]
    moves_partial: bool

    @property
    def template(self) -> TableTemplate:
        template: TableTemplate = self.table.template
        return template

    @property
    def game_id(self) -> int | None:
        return self.game.pk if self.game is not None else None

    @property
    def game_status(self) -> str | None:
        return str(self.game.status) if self.game is not None else None

    @property
    def variant(self) -> str:
        return str(self.game.variant if self.game is not None else self.template.variant)

    @property
    def waiting(self) -> bool:
        """No game yet, or its players are still gathering."""
        return self.game_status in (None, "waiting")

    def seat(self, seat_no: int) -> SeatRead | None:
        return next((s for s in self.seats if s.seat_no == seat_no), None)
