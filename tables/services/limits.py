"""Who may sit where: a player sits at most once among one template's tables, and at no more
than ``SEATS_PER_PLAYER_MAX`` tables at once (default 3).

Both rules are checked with the player's row locked (``player_lock``), the first lock of
every seating write (player, then template, then table, then game, then seats): two joins of
one player, at one template's tables or at different ones, by Play now or by link, are
serialised, so neither rule can be raced (eight parallel Play now presses on eight templates
seat the player at most ``SEATS_PER_PLAYER_MAX`` times).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from tables.models import LIVE_GAME_STATUSES, Seat, Table, TableTemplate
from tables.services.errors import SeatUnavailable, TableRefusal

if TYPE_CHECKING:
    from accounts.models import User

DEFAULT_SEATS_PER_PLAYER = 3


def seats_per_player_max() -> int:
    """How many tables one player may sit at at once (``settings.SEATS_PER_PLAYER_MAX``)."""
    return max(1, int(getattr(django_settings, "SEATS_PER_PLAYER_MAX", DEFAULT_SEATS_PER_PLAYER)))


def player_lock(user: User) -> None:
    """Lock the player's user row (``select_for_update``): the first lock of a seating write,
    so one player's joins are serialised whatever the tables. A computer player is not locked
    (the table seats it, under the table's lock)."""
    pk = getattr(user, "pk", None)
    if isinstance(pk, int) and not isinstance(pk, bool):
        list(get_user_model()._default_manager.select_for_update().filter(pk=pk).values("pk"))


def template_lock(template_id: object) -> TableTemplate | None:
    """Lock a template row (``select_for_update``): serialises seat choice and table opening
    for its tables. ``None`` when there is no such template."""
    if not isinstance(template_id, int) or isinstance(template_id, bool):
        return None
    return TableTemplate.objects.select_for_update().filter(pk=template_id).first()


def template_lock_for_table(table_id: object) -> TableTemplate | None:
    """Lock the template of table ``table_id`` (before the table itself: the fixed order)."""
    if not isinstance(table_id, int) or isinstance(table_id, bool):
        return None
    template_id = Table.objects.filter(pk=table_id).values_list("template_id", flat=True).first()
    return template_lock(template_id)


def live_seats_of(user: User) -> QuerySet[Seat]:
    """The user's seats in waiting or running games (not left)."""
    return Seat.objects.filter(
        user_id=user.pk, left_at__isnull=True, game__status__in=LIVE_GAME_STATUSES
    )


def seat_limits_check(*, table: Table, user: User) -> None:
    """Refuse a new seat at ``table`` when ``user`` already sits at another table of its
    template, or at the most tables a player may play at once. The caller holds the
    player's lock (``player_lock``) and the template's."""
    seats = live_seats_of(user).exclude(table_id=table.pk)
    if seats.filter(table__template_id=table.template_id).exists():
        raise SeatUnavailable(TableRefusal.ONE_SEAT_PER_KIND, name=table.template.name)
    limit = seats_per_player_max()
    if seats.values("table_id").distinct().count() >= limit:
        raise SeatUnavailable(TableRefusal.TABLES_LIMIT, limit=limit)
