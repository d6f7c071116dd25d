"""One player action from its fields, whichever way it came: the table page's form POST
(``tables/web/views.py``) or a ``move`` message on the table's socket (``tables/live/moves.py``).

Both read the same fields (the action form's, as text), with the same limits, call the same
service and word a refusal the same way (``refusal_of``): a player meets the same answers on
either path."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol, cast

from django.utils.translation import gettext as _

from accounts.services import AccountRefused
from ledger.currencies import AmountRefused
from ledger.errors import LedgerError
from tables import services
from tables.models import LIVE_GAME_STATUSES, Game, Table
from tables.rules.errors import RulesError
from tables.web import inputs
from tables.web.action_form import MAX_FIELD_CHARS, ActionForm
from tables.web.messages import refusal_text

if TYPE_CHECKING:
    from accounts.models import User

Payload = dict[str, object]


class BadForm(ValueError):
    """A forged or malformed action form (or socket message)."""

    code = "bad_form"
    status = 400
    params: Mapping[str, object] = MappingProxyType({})  # the words are the message


# The longest field name of an action form is ``finish_card``.
MAX_KEY_CHARS = 64
# An action form has at most a dozen fields.
MAX_FIELDS = 24


def action_fields(pairs: Iterable[tuple[object, object]]) -> dict[str, str]:
    """The fields of an action as text, refused before anything reads them when there are too
    many, one is too long, or one is not text (a socket message's ``d`` may hold anything).
    A name given twice keeps its last value, as a form POST's ``QueryDict.get`` does."""
    fields: dict[str, str] = {}
    for count, (key, value) in enumerate(pairs, start=1):
        if count > MAX_FIELDS or not isinstance(key, str) or len(key) > MAX_KEY_CHARS:
            raise BadForm(_("A field of this action is too long."))
        if not isinstance(value, str):
            raise BadForm(_("A field of this action could not be read."))
        if len(value) > MAX_FIELD_CHARS:
            raise BadForm(_("A field of this action is too long."))
        fields[key] = value
    return fields


def _action_payload(action: str, values: Mapping[str, object]) -> Payload:
    """The values of the fields ``action`` takes (``PLAYER_ACTIONS``); the service checks the
    action and that no field is missing (``services.game_act``)."""
    return {
        key: values[key]
        for key in services.PLAYER_ACTIONS.get(action, ())
        if values.get(key) not in (None, "")
    }


def _game_number(raw: str) -> int | None:
    """The game a form names (``None``: none, or not a game number)."""
    try:
        return inputs.whole_number(raw, what="game") if raw else None
    except inputs.InputRefused:
        return None


def live_game(table: Table | int) -> Game | None:
    """The table's game being played or waiting (``None``: none)."""
    table_id = table if isinstance(table, int) else table.pk
    games = Game.objects.filter(table_id=table_id, status__in=LIVE_GAME_STATUSES)
    return games.order_by("-pk").first()


def table_act(*, table_id: int, user: User, fields: Mapping[str, str]) -> int:
    """Apply the action ``fields`` name for ``user`` at the table; returns the game's version
    after it. Raises a refusal (``refusal_of`` words it) and changes nothing when refused;
    ``Table.DoesNotExist`` for an unknown table."""
    form = ActionForm(fields)
    valid = form.is_valid()  # refused below, once the table is known to exist
    values: dict[str, object] = form.cleaned_data
    action = str(values.get("action") or "")
    # The page names the game it plays (the service checks that it is this table's). Sorting,
    # arranging and leaving act on the table's live game whatever game the page shows, as does
    # a form that names none: the service finds it as it locks it.
    game_id = _game_number(str(values.get("game") or ""))
    by_table = game_id is None or action in ("sort", "leave", "arrange")
    if not valid:
        if by_table:
            _live_game_of(table_id)
        raise BadForm(form.first_error())
    version = int(str(values["version"]))
    if action == "leave":
        table = Table.objects.select_related("template").get(pk=table_id)
        game = _live_game_of(table_id)
        services.table_leave(table=table, user=user)
        found = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()
        return int(found or 0)
    try:
        if action == "sort":
            sorted_game = services.deal_sort(
                game_id=None, table_id=table_id, user=user, expected_version=version
            )
            return sorted_game.version
        # Arranging is not a move: it only orders the player's own cards, and the engine
        # accepts it only if it holds exactly the cards in hand. It is one of the service's
        # ``INDEPENDENT_ACTIONS``, which carry no version check, so a drag made on a page a push
        # has since overtaken (a computer player's move) still applies, in one call.
        game = services.game_act(
            game_id=None if by_table else game_id,
            user=user,
            action=action,
            expected_version=version,
            payload=_action_payload(action, values),
            table_id=table_id,
        )
    except services.NotFound as exc:
        if by_table and exc.code == services.TableRefusal.NO_SUCH_GAME:
            _live_game_of(table_id)  # no such table, or no game at it: refused in those words
        raise
    return game.version


def _live_game_of(table_id: int) -> Game:
    """The table's live game; ``Table.DoesNotExist`` for an unknown table, ``BadForm`` when no
    game is being played at it."""
    live = live_game(table_id)
    if live is None:
        Table.objects.filter(pk=table_id).values_list("pk", flat=True).get()
        raise BadForm(_("No game is being played at this table."))
    return live


@dataclass(frozen=True, slots=True)
class Refused:
    """A refusal as either path answers it: its code, an HTTP status, the player's words."""

    code: str
    status: int
    text: str


class Refusal(Protocol):
    """The one kind of refusal of the project, whichever app raises it (docs/architecture.md,
    "Refusals"): a ``code`` (a ``StrEnum`` of the app's refusals, text), the ``params`` its words
    use and the HTTP ``status``; ``str()`` is the player's words in the active language."""

    @property
    def code(self) -> str: ...

    @property
    def params(self) -> Mapping[str, object]: ...

    @property
    def status(self) -> int: ...


# The project's refusals. A ValueError of any other kind is a fault, not a refusal: it is not
# caught as one (the player gets the error page and the fault is logged), so a programming
# error never reaches a player dressed as a reason.
_REFUSAL_CLASSES = (
    RulesError,
    BadForm,
    inputs.InputRefused,
    services.TableError,
    LedgerError,
    AmountRefused,
    AccountRefused,
)
REFUSALS: tuple[type[Exception], ...] = _REFUSAL_CLASSES
# mypy checks here that every one of them is a ``Refusal``: a code, its params, a status.
_EVERY_ONE_A_REFUSAL: tuple[type[Refusal], ...] = _REFUSAL_CLASSES


def refusal_of(exc: Exception) -> Refused:
    """``exc`` (one of ``REFUSALS``) as the player is told it, in the active language."""
    if isinstance(exc, services.StaleAction):
        return Refused(
            "stale",
            409,
            _("The table moved on before your action arrived: here is the current table."),
        )
    refusal = cast(Refusal, exc)  # one of REFUSALS, each a Refusal (checked above)
    return Refused(str(refusal.code), refusal.status, refusal_text(exc))
