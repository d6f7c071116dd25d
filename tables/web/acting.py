"""One player action from its fields, whichever way it came: the table page's form POST
(``tables/web/views.py``) or a ``move`` message on the table's socket (``tables/live/moves.py``).

Both read the same fields (the action form's, as text), with the same limits, call the same
service and word a refusal the same way (``refusal_of``): a player meets the same answers on
either path."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from accounts.services import AccountRefused
from ledger.currencies import AmountRefused
from ledger.errors import LedgerError
from tables import services
from tables.models import LIVE_GAME_STATUSES, Game, Table
from tables.rules.errors import RulesError
from tables.web import inputs
from tables.web.messages import refusal_text

if TYPE_CHECKING:
    from accounts.models import User

Payload = dict[str, object]


class BadForm(ValueError):
    """A forged or malformed action form (or socket message)."""

    code = "bad_form"


# No field of an action form is longer than this (the longest, a show's groups, is ~100).
MAX_FIELD_CHARS = 2000
# The longest field name of an action form is ``finish_card``.
MAX_KEY_CHARS = 64
# An action form has at most a dozen fields.
MAX_FIELDS = 24


def _parse_groups(raw: str) -> list[list[str]]:
    try:
        groups = inputs.parse_json(raw, what="card groups", max_chars=MAX_FIELD_CHARS, max_depth=2)
    except inputs.InputRefused as exc:
        # inputs.py speaks of "the card groups" in English; the player reads it translated.
        if exc.code == "too_deep":
            raise BadForm(_("The card groups are nested too deeply.")) from exc
        if exc.code == "too_long":
            raise BadForm(
                _("The card groups are too long (at most %(count)s characters).")
                % {"count": MAX_FIELD_CHARS}
            ) from exc
        raise BadForm(_("The card groups could not be read.")) from exc
    if not isinstance(groups, list) or not all(
        isinstance(g, list) and all(isinstance(c, str) for c in g) for g in groups
    ):
        raise BadForm(_("The card groups could not be read."))
    return [g for g in groups if g]


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


def _action_payload(action: str, fields: Mapping[str, str]) -> Payload:
    """The fields of ``action`` read into values (card groups, numbers, on or off). The
    service checks the action and that no field is missing (``services.game_act``)."""
    payload: Payload = {}
    for key in services.PLAYER_ACTIONS.get(action, ()):
        raw = fields.get(key)
        if raw is None or raw == "":
            continue
        if key in ("groups", "melds"):
            payload[key] = _parse_groups(raw)
        elif key == "on":
            if raw not in ("true", "false"):
                raise BadForm(_("Auto drop must be on or off."))
            payload[key] = raw == "true"
        elif key in ("card", "finish_card") and len(raw) > 8:
            raise BadForm(_("That is not a card."))
        elif key == "cards":
            payload[key] = raw.split()
        elif key in ("group", "index"):
            try:
                payload[key] = inputs.whole_number(raw, what="card place")
            except inputs.InputRefused as exc:
                raise BadForm(_("That card is not in your hand.")) from exc
        elif key == "meld_id":
            try:
                payload[key] = inputs.whole_number(raw, what="meld")
            except inputs.InputRefused as exc:
                raise BadForm(_("Unknown meld.")) from exc
        else:
            payload[key] = raw
    return payload


def _game_field(raw: str) -> int | None:
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
    action = fields.get("action", "")
    # The page names the game it plays (one statement fewer than finding the table's live
    # game); the service checks that it is this table's.
    game_id = _game_field(fields.get("game", ""))
    table: Table | None = None
    if game_id is None or action in ("sort", "leave", "arrange"):
        table = Table.objects.select_related("template").get(pk=table_id)
        live = live_game(table)
        if live is None:
            raise BadForm(_("No game is being played at this table."))
        game_id = live.pk
    try:
        version = inputs.whole_number(fields.get("version", ""), what="game version")
    except inputs.InputRefused as exc:
        raise BadForm(_("Missing or malformed game version.")) from exc
    if action == "sort":
        return services.deal_sort(game_id=game_id, user=user, expected_version=version).version
    if action == "leave":
        assert table is not None
        services.table_leave(table=table, user=user)
        found = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
        return int(found or 0)
    # Arranging is not a move: it only orders the player's own cards, and the engine accepts it
    # only if it holds exactly the cards in hand. It is one of the service's
    # ``INDEPENDENT_ACTIONS``, which carry no version check, so a drag made on a page a push has
    # since overtaken (a computer player's move) still applies, in one call.
    game = services.game_act(
        game_id=game_id,
        user=user,
        action=action,
        expected_version=version,
        payload=_action_payload(action, fields),
        table_id=None if action == "arrange" else table_id,
    )
    return game.version


@dataclass(frozen=True, slots=True)
class Refused:
    """A refusal as either path answers it: its code, an HTTP status, the player's words."""

    code: str
    status: int
    text: str


# The project's refusals: each carries the player's words (and a code where it has one). A
# ValueError of any other kind is a fault, not a refusal: it is not caught as one (the player
# gets the error page and the fault is logged), so a programming error never reaches a player
# dressed as a reason.
REFUSALS: tuple[type[Exception], ...] = (
    RulesError,
    BadForm,
    inputs.InputRefused,
    services.TableError,
    LedgerError,
    AmountRefused,
    AccountRefused,
)


def refusal_of(exc: Exception) -> Refused:
    """``exc`` (one of ``REFUSALS``) as the player is told it, in the active language."""
    if isinstance(exc, services.StaleAction):
        return Refused(
            "stale",
            409,
            _("The table moved on before your action arrived: here is the current table."),
        )
    code = getattr(exc, "code", None)
    code_text = str(getattr(code, "value", code) or "refused")
    return Refused(code_text, 400, refusal_text(exc))
