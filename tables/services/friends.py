"""The tables' side of friends and blocking (``accounts.friends``, which imports nothing of the
tables): Play now keeps players apart where either blocked the other, a private table takes no
one blocked by (or blocking) its host or a player seated at it, and the host of a private table
invites a friend to it in one click."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.urls import reverse

from accounts.friends import selectors as friends_selectors
from accounts.friends import services as friends_services
from accounts.friends.errors import FriendRefusal, FriendRefused
from accounts.friends.models import FriendInvite
from accounts.models import User
from tables.models import LIVE_GAME_STATUSES, GameStatus, Seat, Table, TableStatus
from tables.services.errors import NotFound, NotSeated, SeatUnavailable, TableClosed, TableRefusal

if TYPE_CHECKING:
    from tables.services._context import Ctx

__all__ = ["blocked_last", "private_blocked_check", "table_friend_invite"]

ID_MAX = 2**63 - 1


def _ids(user: User) -> set[int]:
    return friends_selectors.blocked_ids(user=user) if user.pk is not None else set()


def blocked_last(tables: list[Table], *, user: User, room: bool) -> list[Table]:
    """Play now's candidate ``tables`` in their order, those where a player seated blocked
    ``user`` or was blocked by ``user`` moved last, or left out when ``room`` (a new table may
    still be opened for ``user``). One query for the blocks, one more only when there are."""
    blocked = _ids(user)
    if not blocked or not tables:
        return tables
    apart = set(
        Seat.objects.filter(
            table_id__in=[t.pk for t in tables],
            user_id__in=blocked,
            left_at__isnull=True,
            game__status__in=LIVE_GAME_STATUSES,
        ).values_list("table_id", flat=True)
    )
    kept = [t for t in tables if t.pk not in apart]
    return kept if room else kept + [t for t in tables if t.pk in apart]


def private_blocked_check(ctx: Ctx, user: User) -> None:
    """Refuse ``user`` a seat at the private table of ``ctx`` when its host or a player seated
    there blocked ``user`` or was blocked by ``user`` (invite or not)."""
    blocked = _ids(user)
    if not blocked:
        return
    present = {s.user_id for s in ctx.active_seats()} | {ctx.table.host_id}
    if present & blocked:
        raise SeatUnavailable(TableRefusal.BLOCKED_AT_TABLE)


def table_friend_invite(
    *, table_id: int, host: User, friend_id: object
) -> tuple[FriendInvite, bool]:
    """The host of the private table ``table_id`` invites their friend ``friend_id`` to it:
    the invite shows in the friend's lobby and ``friend_invited`` is sent (Web Push). Refused:
    no such table, not its host, a closed table or one whose game started, no such player,
    not a friend, or either blocked the other (``FriendRefused``). The same invite again
    changes nothing (``(invite, False)``)."""
    table = Table.objects.filter(pk=table_id).first() if 0 < table_id <= ID_MAX else None
    if table is None:
        raise NotFound(TableRefusal.NO_SUCH_TABLE)
    if not table.is_private or table.host_id != host.pk:
        raise NotSeated(TableRefusal.HOST_INVITES)
    if table.status == TableStatus.CLOSED:
        raise TableClosed(TableRefusal.TABLE_IS_CLOSED)
    if table.games.filter(status=GameStatus.RUNNING).exists():
        raise TableClosed(TableRefusal.GAME_STARTED_ALREADY)
    raw = str(friend_id or "")
    pk = int(raw) if raw.isascii() and raw.isdigit() and 0 < int(raw) <= ID_MAX else None
    friend = User.objects.filter(pk=pk).first() if pk is not None else None
    if friend is None:
        raise FriendRefused(FriendRefusal.NO_SUCH_PLAYER)
    return friends_services.friend_invite_send(
        host=host,
        friend=friend,
        table_id=table.pk,
        table_name=table.name,
        invite_url=reverse("table_invite", args=[table.invite_token]),
    )
