"""Seat matching: **Play now** on a template seats the player at an open table of it (opening one
when every table is full or playing), private tables joined by an invite code, and keeping a
template's tables open but never piling up.

Every write here locks the player's row first (``limits.player_lock``), then the template row
(``select_for_update``), then the table, its game
and seats (``seating.table_join``, the fixed order): the choice of a table and the opening of a
new one are serialised per template, so 200 players pressing Play now at once are seated once
each, no table takes more than its seats, and only the tables needed are opened.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Count, Max, Q, QuerySet

from tables.models import (
    LIVE_GAME_STATUSES,
    BotStrength,
    Game,
    GameStatus,
    Seat,
    Table,
    TableStatus,
    TableTemplate,
)
from tables.rules.matchmaking import OpenTable, table_order
from tables.services import hooks
from tables.services._context import (
    check_user,
    in_transaction,
    live_game_id,
    lock_context,
    lock_table,
    now_or_clock,
    to_dt,
)
from tables.services._pipeline import save_game
from tables.services.errors import (
    NotFound,
    NotSeated,
    SeatUnavailable,
    TableClosed,
    TableError,
    TableRefusal,
)
from tables.services.friends import blocked_last
from tables.services.limits import (
    live_seats_of,
    player_lock,
    seat_limits_check,
    template_lock,
    template_lock_for_table,
)
from tables.services.seating import bots_fill_and_begin, table_create, table_join

if TYPE_CHECKING:
    from accounts.models import User

__all__ = [
    "IDLE_CLOSE_S",
    "INVITE_ALPHABET",
    "table_by_token",
    "table_join_by_code",
    "table_private_create",
    "table_private_start",
    "template_play_now",
    "template_tables_ensure",
]

# Invite codes: 6 characters without look-alikes (no 0/O, 1/I/L).
INVITE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
INVITE_LENGTH = 6
# The invite link's token: 24 random bytes (192 bits), URL-safe.
INVITE_TOKEN_BYTES = 24
# An empty table (its last game over) beyond the template's minimum of open tables is closed once
# it has stood empty this long: long enough for its players to press Play again.
IDLE_CLOSE_S = 300.0


def _locked_template(template: TableTemplate) -> TableTemplate:
    locked = template_lock(getattr(template, "pk", None))
    if locked is None:
        raise NotFound(TableRefusal.NO_SUCH_TEMPLATE)
    if not locked.is_active:
        raise TableClosed(TableRefusal.TEMPLATE_CLOSED, name=locked.name)
    return locked


def _public_tables(template: TableTemplate) -> QuerySet[Table]:
    return Table.objects.filter(template=template, is_private=False).exclude(
        status=TableStatus.CLOSED
    )


def _table_states(
    template: TableTemplate, user: User | None = None
) -> tuple[list[Table], list[Table], int]:
    """(waiting tables with a free seat, fullest first; empty tables, oldest first; how many
    tables the template has open) among its public tables. For Play now (``user``), tables
    as full are tried nearest in rating first (``tables.rules.matchmaking.table_order``)."""
    tables = list(_public_tables(template).order_by("pk"))
    games = {
        g.table_id: g
        for g in Game.objects.filter(table__in=tables, status__in=LIVE_GAME_STATUSES).annotate(
            taken=Count("seats", filter=Q(seats__left_at__isnull=True))
        )
    }
    waiting: dict[int, tuple[int, int]] = {}  # table id: (game id, players seated)
    empty: list[Table] = []
    for table in tables:
        game = games.get(table.pk)
        if game is None:
            empty.append(table)
        elif game.status == GameStatus.WAITING:
            seats_max = int((game.settings or {}).get("seats_max", template.seats_max))
            if game.taken < seats_max:
                waiting[table.pk] = (game.pk, game.taken)
    games_of = {t: game_id for t, (game_id, _taken) in waiting.items()}
    near = {} if user is None else hooks.play_now_distances(user, template, games_of)
    order = table_order([OpenTable(t, n, near.get(t)) for t, (_g, n) in waiting.items()])
    by_id = {t.pk: t for t in tables}
    return [by_id[t] for t in order], empty, len(tables)


def template_play_now(*, template: TableTemplate, user: User, now: float | None = None) -> Seat:
    """Seat ``user`` at an open table of ``template`` and hold the entry, in one transaction:
    the waiting table with the most players first, then an empty one, else a new table (up to
    the template's ``max_tables``). A player already seated at one of its tables gets that seat
    back. At a practice table people wait ``human_wait_s`` for each other before computer
    players fill the empty seats."""
    now = now_or_clock(now)
    check_user(user)

    def work() -> Seat:
        player_lock(user)  # first: one player's joins at any tables are serialised
        locked = _locked_template(template)
        mine = live_seats_of(user).filter(table__template=locked).order_by("pk").first()
        if mine is not None:
            return mine
        seat_limits_check(table=Table(template=locked), user=user)
        waiting, empty, count = _table_states(locked, user)
        refusal: TableError | None = None
        room = count < locked.max_tables  # blocked players apart while a new table may open
        for table in blocked_last([*waiting, *empty], user=user, room=room):
            try:
                with transaction.atomic():  # a table that changed meanwhile: try the next
                    seat = table_join(table=table, user=user, now=now)
            except (SeatUnavailable, TableClosed) as exc:
                refusal = exc
                continue
            template_tables_tidy(locked, now=now)
            return seat
        if count >= locked.max_tables:
            if refusal is not None and not isinstance(refusal, SeatUnavailable):
                raise refusal
            raise TableClosed(
                TableRefusal.ALL_TABLES_BUSY, name=locked.name, most=locked.max_tables
            )
        table = table_create(template=locked)
        seat = table_join(table=table, user=user, now=now)
        template_tables_tidy(locked, now=now)
        return seat

    return in_transaction(work)


def template_tables_tidy(template: TableTemplate, *, now: float) -> None:
    """Keep ``min_open_tables`` tables of ``template`` open for players (opening empty ones, up
    to ``max_tables``) and close the empty ones beyond that which have stood empty for
    ``IDLE_CLOSE_S``. The caller holds the template's lock."""
    waiting, empty, count = _table_states(template)
    open_count = len(waiting) + len(empty)
    want = int(template.min_open_tables)
    while open_count < want and count < template.max_tables:
        table_create(template=template)
        open_count += 1
        count += 1
    surplus = open_count - max(want, 0)
    if surplus <= 0 or not empty:
        return
    cutoff = to_dt(now - IDLE_CLOSE_S)
    last_games = dict(
        Game.objects.filter(table__in=empty)
        .values_list("table_id")
        .annotate(last=Max("created_at"))
        .values_list("table_id", "last")
    )
    stale = [
        t.pk
        for t in reversed(empty)  # the newest empty tables go first; the oldest are reused
        if (last_games.get(t.pk) or t.created_at) <= cutoff
    ][:surplus]
    if stale:
        ids = list(
            Table.objects.select_for_update()
            .filter(pk__in=stale, status=TableStatus.WAITING)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        Table.objects.filter(pk__in=ids).update(status=TableStatus.CLOSED)


def template_tables_ensure(*, template: TableTemplate, now: float | None = None) -> None:
    """Open (and tidy) the tables of ``template`` to its ``min_open_tables`` (staff saving a
    template, the demo data)."""
    now = now_or_clock(now)

    def work() -> None:
        locked = template_lock(getattr(template, "pk", None))
        if locked is not None and locked.is_active:
            template_tables_tidy(locked, now=now)

    in_transaction(work)


# ------------------------------------------------------------------------ private tables


def _new_code() -> str:
    for _attempt in range(20):
        code = "".join(secrets.choice(INVITE_ALPHABET) for _i in range(INVITE_LENGTH))
        if not Table.objects.filter(invite_code=code).exists():
            return code
    raise TableError(TableRefusal.INVITE_CODE_FAILED)  # pragma: no cover


def _no_such_invite() -> NotFound:
    """The one answer to every wrong invite code or link, whatever it is: it tells a
    malformed code, a code of no table and one of a closed table apart from nothing."""
    return NotFound(TableRefusal.NO_SUCH_INVITE)


def normalise_code(raw: object) -> str:
    """An invite code as typed (any case, spaces and dashes ignored), or ``NotFound``."""
    text = str(raw or "").strip().upper().replace(" ", "").replace("-", "")
    if len(text) != INVITE_LENGTH or any(c not in INVITE_ALPHABET for c in text):
        raise _no_such_invite()
    return text


def table_private_create(
    *, template: TableTemplate, user: User, casual: bool = False, now: float | None = None
) -> Table:
    """A private table from a practice ``template`` for ``user`` (its host, seated at once),
    with an invite code. It is not listed in the lobby; friends join by its link or code, and
    the host starts it (computer players take the empty seats) or waits for them. ``casual``:
    its games are not rated (the host's choice; rated by default)."""
    now = now_or_clock(now)
    check_user(user)

    def work() -> Table:
        player_lock(user)
        locked = _locked_template(template)
        if not locked.practice:
            raise TableClosed(TableRefusal.PRIVATE_PRACTICE_ONLY)
        if live_seats_of(user).filter(table__template=locked).exists():
            raise SeatUnavailable(TableRefusal.ALREADY_SEATED_HOST, name=locked.name)
        seat_limits_check(table=Table(template=locked), user=user)
        code = _new_code()
        table = Table.objects.create(
            template=locked,
            name=f"{user.public_name}'s table",  # not the code: the name is public
            is_private=True,
            invite_code=code,
            invite_token=secrets.token_urlsafe(INVITE_TOKEN_BYTES),
            host=user,
            casual=bool(casual),
        )
        table_join(table=table, user=user, now=now)
        return table

    return in_transaction(work)


def table_by_code(code: object) -> Table:
    """The open private table with invite ``code``, or ``NotFound``."""
    return _open_private(invite_code=normalise_code(code))


def table_by_token(token: object) -> Table:
    """The open private table whose invite link carries ``token``, or ``NotFound`` (the same
    answer as a wrong code)."""
    text = str(token or "")
    if not 20 <= len(text) <= 64:
        raise _no_such_invite()
    return _open_private(invite_token=text)


def _open_private(**invite: str) -> Table:
    """The open private table with this invite code or token, or ``NotFound``."""
    table = (
        Table.objects.filter(is_private=True, **invite)
        .exclude(status=TableStatus.CLOSED)
        .select_related("template")
        .first()
    )
    if table is None:
        raise _no_such_invite()
    return table


def table_join_by_code(*, code: object, user: User, now: float | None = None) -> Seat:
    """Sit ``user`` at the private table with invite ``code`` (see ``table_join``)."""
    table = table_by_code(code)
    return table_join(table=table, user=user, now=now, invite=table.invite_token)


def table_private_start(
    *, table: Table, user: User, strength: str = "", now: float | None = None
) -> Game:
    """The host of a waiting private table starts it: computer players take the empty seats,
    at the level the host chose (``strength``: easy, medium or hard; blank: the template's)."""
    if strength and strength not in BotStrength.values:
        raise TableError(TableRefusal.BOT_LEVEL_UNKNOWN)
    now = now_or_clock(now)
    check_user(user)

    def work() -> Game:
        template_lock_for_table(getattr(table, "pk", None))
        locked = lock_table(getattr(table, "pk", None))
        if not locked.is_private or locked.host_id != user.pk:
            raise NotSeated(TableRefusal.HOST_STARTS)
        game_id = live_game_id(locked)
        if game_id is None:
            raise TableClosed(TableRefusal.NOBODY_SEATED)
        ctx = lock_context(table=locked, game_id=game_id, now=now)
        if ctx.game.status != GameStatus.WAITING:
            raise TableClosed(TableRefusal.GAME_STARTED_ALREADY)
        if strength and strength != locked.bot_strength:
            locked.bot_strength = strength
            locked.save(update_fields=["bot_strength"])
        if not bots_fill_and_begin(ctx):
            raise TableClosed(TableRefusal.NOT_ENOUGH_FRIENDS)
        save_game(ctx)
        return ctx.game

    return in_transaction(work)
