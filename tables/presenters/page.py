"""What the table page's templates read, typed: the frozen values the presenters build.

- ``FeltView`` (the felt every viewer shares, ``t`` in ``templates/tables/table.html``), with
  its seats (``FeltSeat`` while waiting, ``FeltPlayer`` in a game), classic melds, the show,
  the scoreboard, the rejoin and split offers, the result sheet and the game-over block;
- ``SeatView`` (one player's own parts, ``s``): the hand with its groups, the melds to lay off
  on and the drop's cost;
- ``ResultSheetView`` (the last deal or hand) and ``GameResultView`` (game over), built by
  ``tables.presenters.results``.

An optional part is ``None`` (or empty, or ``""``) when the page does not show it, so that
``{% if t.part %}`` reads the same as before. Presentation only: no rule here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tables.presenters.cards import CardFace
from tables.presenters.moves import MoveLine
from tables.presenters.shown import Shown
from tables.readmodel import Commitment
from tables.rules.engine_view import DealView, EngineView
from tables.rules.variants import EngineTraits

if TYPE_CHECKING:
    from tables.models import Game, Table

__all__ = [
    "CardGroup",
    "DropCost",
    "FeltMeld",
    "FeltPlayer",
    "FeltSeat",
    "FeltView",
    "GameResultView",
    "LayOffMeld",
    "PrizeLine",
    "RejoinOffer",
    "ResultSheetView",
    "ScoreRow",
    "Scoreboard",
    "SeatHand",
    "SeatView",
    "SettlementRow",
    "SheetMeld",
    "SheetRow",
    "ShowView",
    "SplitAmount",
    "SplitOffer",
]


# --------------------------------------------------------------------------- result sheets


@dataclass(frozen=True, slots=True, kw_only=True)
class CardGroup(Shown):
    """A group of cards as shown: its faces, its kind (``hand``: not judged) in words and, in
    the hand being played, whether it is a meld."""

    cards: tuple[CardFace, ...]
    kind: str
    kind_label: str
    valid: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetRow(Shown):
    """One player's row of a result sheet."""

    seat: int
    name: str
    is_me: bool
    winner: bool
    outcome: str
    reason: str  # why a show was wrong
    points: int | None
    points_note: str
    groups: tuple[CardGroup, ...]
    finish: CardFace | None
    total: int | None  # the running total (chips in deals)
    money_display: str  # once the game has paid out
    money_class: str  # "won", "lost", "even"


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetMeld(Shown):
    """A classic meld left on the table when the hand ended."""

    cards: tuple[CardFace, ...]
    kind: str  # in words
    owner: str  # the owner's name


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultSheetView(Shown):
    """The result of the last deal (13-card) or hand (classic)."""

    number: int | None
    title: str
    headline: str
    rows: tuple[SheetRow, ...]
    total_label: str
    show_money: bool
    money_label: str
    rummy_note: str = ""  # classic: going rummy
    melds: tuple[SheetMeld, ...] = ()  # classic


@dataclass(frozen=True, slots=True, kw_only=True)
class PrizeLine(Shown):
    """A prize and who won it (``verb``: ``wins`` or ``gets``, worded by the template)."""

    name: str
    verb: str
    display: str
    note: str
    place: str = ""  # classic: "1st", "2nd"...


@dataclass(frozen=True, slots=True, kw_only=True)
class SettlementRow(Shown):
    """What one player paid in, got back and won or lost."""

    name: str
    points: int | None  # points games: the deal's points
    paid: str
    received: str
    net: str
    net_class: str  # "won", "lost", "even"


@dataclass(frozen=True, slots=True, kw_only=True)
class GameResultView(Shown):
    """Game over: every prize, who won it and each player's money."""

    reason: str | None
    headline: str
    prizes: tuple[PrizeLine, ...]
    rows: tuple[SettlementRow, ...]
    show_points: bool
    paid_label: str
    received_label: str
    fee_display: str

    @property
    def payouts(self) -> tuple[PrizeLine, ...]:
        """The old name of ``prizes``."""
        return self.prizes


@dataclass(frozen=True, slots=True, kw_only=True)
class DropCost(Shown):
    """What dropping costs the viewer now (the Drop and Auto drop buttons)."""

    points: int
    kind: str
    text: str
    confirm: str
    label: str
    auto_label: str


# --------------------------------------------------------------------------- the felt


@dataclass(frozen=True, slots=True, kw_only=True)
class FeltSeat(Shown):
    """A seat taken while the table waits for players."""

    seat: int
    name: str
    is_bot: bool
    user_id: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class FeltPlayer(Shown):
    """One player of the game around the felt, worded for every viewer."""

    seat: int
    status: str
    total: int | None
    chips: int | None
    in_deal: bool
    deal_status: str | None
    card_count: int
    drops_available: int | None
    connected: bool
    name: str
    initial: str
    total_words: str
    chips_words: str
    cards_words: str
    drops_words: str
    bank_words: str
    is_bot: bool
    is_me: bool
    is_turn: bool
    slot: str
    extra_s: int
    deal_status_label: str
    status_label: str
    user_id: int = 0  # the rating beside the name (``tables.ratings``: ``seat_ratings``)


@dataclass(frozen=True, slots=True, kw_only=True)
class FeltMeld(Shown):
    """A classic meld on the table."""

    id: int
    kind: str
    owner: int
    owner_name: str
    kind_label: str
    cards: tuple[CardFace, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ShowView(Shown):
    """A declaration on the table: who made it and its groups."""

    name: str
    groups: tuple[tuple[CardFace, ...], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreRow(Shown):
    number: int
    winner: str
    points: tuple[int | str, ...]  # by seat, in the players' order ("": no score)


@dataclass(frozen=True, slots=True, kw_only=True)
class Scoreboard(Shown):
    """Every deal (or classic hand) so far, and the running totals."""

    number_label: str
    names: tuple[str, ...]
    rows: tuple[ScoreRow, ...]
    totals: tuple[int | None, ...]
    totals_label: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RejoinOffer(Shown):
    """Pool: eliminated players may buy back in."""

    seats: tuple[int, ...]
    total: int | None
    amount: int | None
    deadline: float | None
    amount_display: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SplitAmount(Shown):
    name: str
    display: str
    accepted: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SplitOffer(Shown):
    """Pool: the players still in may split the prize."""

    seats: tuple[int, ...]
    amounts: tuple[SplitAmount, ...]
    accepted: tuple[int, ...]
    deadline: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FeltView(Shown):
    """The felt every viewer shares. The parts after ``waiting_for_people`` are only there
    while a game is on the table (``view``)."""

    table: Table
    game: Game | None
    variant: str
    variant_label: str
    stake_display: str
    version: int
    traits: EngineTraits  # what the variant's table shows (melds on the table, "Deal" or "Hand")
    view: EngineView | None
    seats_max: int
    seats_min: int
    join_open: bool
    grace_s: str
    seats: tuple[FeltSeat, ...]
    seated_count: int
    waiting: bool
    deadline: float | None = None
    deadline_kind: str = ""
    seconds_left: int | None = None
    deadline_label: str = ""
    waiting_for_people: bool = False
    # A tournament's table (section 10): its result speaks of the tournament, not of money.
    tournament_table: bool = False
    deals_count: int | None = None
    prize_display: str = ""
    deal: DealView | None = None
    cut: CardFace | None = None
    open_top: CardFace | None = None
    moves_partial: bool = False
    last_move: MoveLine | None = None
    last_move_fresh: bool = False
    discards: tuple[MoveLine, ...] = ()
    recent_lines: tuple[MoveLine, ...] = ()
    players: tuple[FeltPlayer, ...] = ()
    # The players' places for this many seats, from the bottom clockwise: the page turns the
    # ring for its viewer with them (the felt is the same for every viewer).
    slot_order: str = ""
    turn_total: str = ""
    in_extra_time: bool = False
    turn_seat: int | None = None
    turn_name: str = ""
    melds: tuple[FeltMeld, ...] = ()  # classic
    wrong_show_seats: tuple[int, ...] = ()
    notice: str = ""
    show: ShowView | None = None
    scoreboard: Scoreboard | None = None
    last_deal: ResultSheetView | None = None
    rejoin: RejoinOffer | None = None
    split: SplitOffer | None = None
    result: GameResultView | None = None


# --------------------------------------------------------------------------- a seat's parts


@dataclass(frozen=True, slots=True, kw_only=True)
class LayOffMeld(Shown):
    """A classic meld the player may lay off on: its id, its words and its cards' codes."""

    id: int
    label: str
    cards: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatHand(Shown):
    """The player's hand: its cards, the card just picked, its live count and its groups as
    shown."""

    cards: tuple[str, ...]
    picked: str | None
    status: str
    auto_drop: bool
    count: int | None
    groups: tuple[CardGroup, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView(Shown):
    """One player's own parts (the notices, the hand, the actions, the shoe commitment and
    leaving). The parts after ``private_host`` are only there while a game is on the table."""

    table: Table
    act_url: str
    variant: str
    traits: EngineTraits  # what the variant's hand shows (an auto-sort, drops)
    version: int
    game_id: int | None
    my_seat: int | None
    allowed: frozenset[str]
    waiting: bool
    commitment: Commitment | None
    grace_s: str
    leave_confirm: str
    private_host: bool
    my_turn: bool = False
    my_deadline: float | None = None
    hand: SeatHand | None = None
    melds: tuple[LayOffMeld, ...] = ()  # classic, when laying off is allowed
    notice: str = ""
    drop: DropCost | None = None
