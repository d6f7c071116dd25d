"""The table's read model: what a viewer (a seated player, or nobody: the felt's public view)
sees of a table, typed.

``tables.selectors.table_view_data`` builds a ``TableRead`` from the rows (or, after a move,
from what the move holds); ``tables.presenters.table`` reads it for the felt
(``present_felt``, from the public ``TableRead``) and for a seat's own parts (``present_seat``,
``seat_keys``, from that seat's), so both read the same values by the same names.

``view`` is the engine's typed per-viewer view (``engine.view(state, seat)``, an
``EngineView`` of ``tables.rules.engine_view``): the phase, the engine's deadline, the deal on
the table, the viewer's own hand and the players; the whole JSON view in ``raw`` for the
result sheets, the scoreboard and the offers (``tables.presenters.results``).

No query and no rule here: frozen values only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tables.rules.engine_view import EngineView

if TYPE_CHECKING:
    from tables.models import Game, Table, TableTemplate

__all__ = [
    "Commitment",
    "SeatRead",
    "Settlement",
    "TableRead",
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
    view: EngineView | None
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
