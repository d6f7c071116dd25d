"""The errors the tables' services raise. Each is a ``ValueError`` whose message is meant for
the player; whenever one is raised, nothing was changed."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

__all__ = [
    "ActionNotAllowed",
    "NotEnoughFunds",
    "NotFound",
    "NotSeated",
    "SeatUnavailable",
    "StaleAction",
    "TableClosed",
    "TableError",
    "TimeRanOut",
]


class TableError(ValueError):
    """A request the tables refuse. The message is meant for the player; nothing changed."""


class NotFound(TableError):
    """No such table or game."""


class StaleAction(TableError):
    """The game moved on since the player's view (a double click, a replayed or late request)."""

    def __init__(self, *, expected: int, current: int) -> None:
        self.expected = expected
        self.current = current
        super().__init__(
            _(
                "The table moved on since your last view: nothing was done. Check the table "
                "and try again."
            )
        )


class NotSeated(TableError):
    """The user has no seat in this game."""


class SeatUnavailable(TableError):
    """The asked seat does not exist or is taken, or the table is full."""


class TableClosed(TableError):
    """The table does not take players now (closed, inactive, or a game is running)."""


class NotEnoughFunds(TableError):
    """The wallet cannot pay the entry fee (or the rejoin fee)."""


class ActionNotAllowed(TableError):
    """An unknown action, or one players may not send (server-only, or malformed)."""


class TimeRanOut(TableError):
    """The deadline the move was for had passed (by more than the grace) when it arrived: the
    timeout was applied first and stands; the move was refused."""

    _REASONS = {
        "turn": gettext_lazy("Time ran out before your move arrived: the turn has passed on."),
        "meld": gettext_lazy("The meld window closed before your groups arrived."),
        "rejoin": gettext_lazy("The rejoin offer ran out before your answer arrived."),
        "split": gettext_lazy("The split offer ran out before your answer arrived."),
    }

    def __init__(self, fired: list[str]) -> None:
        self.fired = list(fired)
        reason = next(
            (self._REASONS[kind] for kind in self.fired if kind in self._REASONS),
            gettext_lazy("The table moved on before your move arrived."),
        )
        super().__init__(str(reason))
