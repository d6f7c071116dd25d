"""The state of a classic ring game (``ClassicState``, its hand-written JSON form) and the
scratch copy (``Turn``) one ``classic_apply`` call works on."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeAlias

from ..cards import Card, card_codes, parse_card
from ..errors import InvalidMove, Refusal, RulesError
from ..machine import Transition
from .events import Event
from .melds import TableMeld, to_cards
from .settings import ClassicSettings

Phase: TypeAlias = Literal["break", "turn", "ended"]
DeadlineKind: TypeAlias = Literal["turn", "break"]


@dataclass(frozen=True, slots=True)
class ClassicPlayer:
    """One seat. ``in_hand``: takes turns in the current hand; ``melded``: laid down or off in
    an earlier turn of this hand (no rummy then); ``missed``: consecutive missed turns;
    ``bank``: extra-time seconds left for the game; ``left``: left the ring game."""

    seat: int
    hand: tuple[Card, ...] = ()
    total: int = 0
    in_hand: bool = False
    melded: bool = False
    missed: int = 0
    bank: float = 0.0
    connected: bool = True
    left: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": card_codes(self.hand),
            "total": self.total,
            "in_hand": self.in_hand,
            "melded": self.melded,
            "missed": self.missed,
            "bank": self.bank,
            "connected": self.connected,
            "left": self.left,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClassicPlayer:
        return cls(
            seat=int(data["seat"]),
            hand=to_cards(data["hand"]),
            total=int(data["total"]),
            in_hand=bool(data["in_hand"]),
            melded=bool(data["melded"]),
            missed=int(data["missed"]),
            bank=float(data["bank"]),
            connected=bool(data["connected"]),
            left=bool(data["left"]),
        )


@dataclass(frozen=True, slots=True)
class HandResult:
    """The result of one hand: ``reason`` as in ``DealEnded`` ("went_out", "rummy",
    "last_player", "exhausted"), ``scores`` as ``(seat, points)`` pairs."""

    number: int
    winner: int | None
    reason: str
    scores: tuple[tuple[int, int], ...]

    @property
    def rummy(self) -> bool:
        return self.reason == "rummy"

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winner": self.winner,
            "reason": self.reason,
            "scores": [list(pair) for pair in self.scores],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandResult:
        winner = data["winner"]
        return cls(
            int(data["number"]),
            None if winner is None else int(winner),
            str(data["reason"]),
            tuple((int(seat), int(points)) for seat, points in data["scores"]),
        )


@dataclass(frozen=True, slots=True)
class ClassicState:
    """The whole state of a classic ring game (server-side; ``classic_view`` filters it).

    ``phase``: ``"break"`` (before a hand: the server applies ``StartDeal``), ``"turn"`` or
    ``"ended"``. ``stock[0]`` is the next card drawn; ``discard[-1]`` is the top of the pile.
    ``picked``: whether the player to move has picked this turn; ``turn_melded``: whether they
    laid down or off this turn. ``payouts``/``fee``/``prize`` are set once the game has ended."""

    settings: ClassicSettings
    seats: tuple[int, ...]
    players: tuple[ClassicPlayer, ...]
    phase: Phase
    starter: int
    hand_no: int = 0
    turn: int | None = None
    picked: bool = False
    picked_card: Card | None = None
    picked_from: str | None = None
    turn_melded: bool = False
    turn_started: float | None = None
    stock: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    melds: tuple[TableMeld, ...] = ()
    next_meld_id: int = 1
    reshuffles: int = 0
    seed: str = ""
    deadline: float | None = None
    deadline_kind: DeadlineKind | None = None
    results: tuple[HandResult, ...] = ()
    payouts: tuple[tuple[int, int], ...] | None = None
    fee: int | None = None
    prize: int | None = None

    def player(self, seat: int) -> ClassicPlayer:
        for player in self.players:
            if player.seat == seat:
                return player
        raise InvalidMove(Refusal.NOT_AT_TABLE, seat=seat)

    @property
    def totals(self) -> dict[int, int]:
        return {player.seat: player.total for player in self.players}

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": "classic",
            "settings": self.settings.to_json(),
            "seats": list(self.seats),
            "players": [player.to_json() for player in self.players],
            "phase": self.phase,
            "starter": self.starter,
            "hand_no": self.hand_no,
            "turn": self.turn,
            "picked": self.picked,
            "picked_card": None if self.picked_card is None else self.picked_card.code,
            "picked_from": self.picked_from,
            "turn_melded": self.turn_melded,
            "turn_started": self.turn_started,
            "stock": card_codes(self.stock),
            "discard": card_codes(self.discard),
            "melds": [meld.to_json() for meld in self.melds],
            "next_meld_id": self.next_meld_id,
            "reshuffles": self.reshuffles,
            "seed": self.seed,
            "deadline": self.deadline,
            "deadline_kind": self.deadline_kind,
            "results": [result.to_json() for result in self.results],
            "payouts": None if self.payouts is None else [list(p) for p in self.payouts],
            "fee": self.fee,
            "prize": self.prize,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClassicState:
        if data.get("variant") != "classic":
            raise RulesError(Refusal.NOT_CLASSIC_STATE)
        phase = data["phase"]
        kind = data["deadline_kind"]
        if phase not in ("break", "turn", "ended") or kind not in (None, "turn", "break"):
            raise RulesError(Refusal.CORRUPT_CLASSIC_STATE)
        payouts = data["payouts"]

        def opt_float(value: Any) -> float | None:
            return None if value is None else float(value)

        def opt_int(value: Any) -> int | None:
            return None if value is None else int(value)

        return cls(
            settings=ClassicSettings.from_json(data["settings"]),
            seats=tuple(int(seat) for seat in data["seats"]),
            players=tuple(ClassicPlayer.from_json(p) for p in data["players"]),
            phase=phase,
            starter=int(data["starter"]),
            hand_no=int(data["hand_no"]),
            turn=opt_int(data["turn"]),
            picked=bool(data["picked"]),
            picked_card=None if data["picked_card"] is None else parse_card(data["picked_card"]),
            picked_from=None if data["picked_from"] is None else str(data["picked_from"]),
            turn_melded=bool(data["turn_melded"]),
            turn_started=opt_float(data["turn_started"]),
            stock=to_cards(data["stock"]),
            discard=to_cards(data["discard"]),
            melds=tuple(TableMeld.from_json(m) for m in data["melds"]),
            next_meld_id=int(data["next_meld_id"]),
            reshuffles=int(data["reshuffles"]),
            seed=str(data["seed"]),
            deadline=opt_float(data["deadline"]),
            deadline_kind=kind,
            results=tuple(HandResult.from_json(r) for r in data["results"]),
            payouts=None
            if payouts is None
            else tuple((int(seat), int(amount)) for seat, amount in payouts),
            fee=opt_int(data["fee"]),
            prize=opt_int(data["prize"]),
        )


def deal_due(state: ClassicState, now: float) -> bool:
    """Whether the server should apply ``new_start_deal`` now: the game is in its break (a new
    game starts in a break due at once) and the break has run out."""
    return state.phase == "break" and state.deadline is not None and now >= state.deadline


class Turn:
    """A mutable scratch copy of a state used inside one ``classic_apply`` call."""

    def __init__(self, state: ClassicState, now: float) -> None:
        self.state = state
        self.now = float(now)
        self.events: list[Event] = []

    @property
    def settings(self) -> ClassicSettings:
        return self.state.settings

    def set(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def update_player(self, seat: int, **changes: Any) -> None:
        self.set(
            players=tuple(
                replace(player, **changes) if player.seat == seat else player
                for player in self.state.players
            )
        )

    def done(self) -> Transition[ClassicState, Event]:
        return Transition(self.state, tuple(self.events))


def next_seat(state: ClassicState, after: int, *, eligible: Iterable[int]) -> int | None:
    """The first seat in ``eligible`` clockwise after ``after`` (``after`` itself last)."""
    allowed = set(eligible)
    index = state.seats.index(after)
    for step in range(1, len(state.seats) + 1):
        seat = state.seats[(index + step) % len(state.seats)]
        if seat in allowed:
            return seat
    return None


def active_seats(state: ClassicState) -> list[int]:
    return [p.seat for p in state.players if p.in_hand]
