"""Friends at the tables (``accounts.friends``): the lobby's "Friends online" (friends with a
socket open at a table where they sit, that table's name and a link to watch it, or with the
lobby open) and the invites friends sent to their private tables; a private table's page
offers its host their friends to invite in one click. Reads only: the invite itself is
``tables.services.friends.table_friend_invite``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from accounts.friends import selectors as friends_selectors
from tables.live import presence
from tables.models import LIVE_GAME_STATUSES, GameStatus, Seat, Table, TableStatus

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.friends.models import FriendInvite
    from accounts.models import User

INVITES_SHOWN = 10


@dataclass(frozen=True)
class FriendPlaying:
    """A friend online: their name and, when they are at a table, its id and name and whether
    its game runs (``table_id`` ``None``: in the lobby)."""

    name: str
    user_id: int
    table_id: int | None = None
    table_name: str = ""
    playing: bool = False
    private: bool = False


@dataclass(frozen=True)
class InviteShown:
    invite: FriendInvite
    host_name: str
    table_name: str


def friends_online(*, user: User) -> list[FriendPlaying]:
    """``user``'s friends online now, by name: those with a socket open at a table where they
    sit (each such table once), and those with only the lobby open. Two queries (the friends;
    their live seats with the tables) and one cache read."""
    friends = {f.pk: f for f in friends_selectors.friends_query(user)}
    if not friends:
        return []
    seats = list(
        Seat.objects.filter(
            user_id__in=list(friends), left_at__isnull=True, game__status__in=LIVE_GAME_STATUSES
        )
        .select_related("game", "table__template", "table__tournament_table__round__tournament")
        .order_by("user_id", "-pk")
    )
    at_tables, in_lobby = presence.online([(s.table_id, s.user_id) for s in seats], list(friends))
    found = [
        FriendPlaying(
            name=friends[seat.user_id].public_name,
            user_id=seat.user_id,
            table_id=seat.table_id,
            table_name=seat.table.display_name(),
            playing=seat.game.status == GameStatus.RUNNING,
            private=seat.table.is_private,
        )
        for seat in seats
        if (seat.table_id, seat.user_id) in at_tables
    ]
    seen = {f.user_id for f in found}
    found += [
        FriendPlaying(name=friends[pk].public_name, user_id=pk) for pk in sorted(in_lobby - seen)
    ]
    return sorted(found, key=lambda f: (f.name.lower(), f.user_id, f.table_id or 0))


def invites_open(*, user: User) -> list[InviteShown]:
    """The invites to ``user`` of the last hours whose private table is still open, newest
    first (one query)."""
    open_tables = Table.objects.filter(is_private=True).exclude(status=TableStatus.CLOSED)
    invites = list(
        friends_selectors.invites_for(user=user).filter(table_id__in=open_tables.values("pk"))[
            :INVITES_SHOWN
        ]
    )
    return [
        InviteShown(invite=i, host_name=i.host.public_name, table_name=i.table_name)
        for i in invites
    ]


def lobby_context(user: User | AnonymousUser) -> dict[str, Any]:
    """The lobby's friends: who is online and where, and the invites waiting."""
    if not user.is_authenticated:
        return {}
    return {"friends_online": friends_online(user=user), "friend_invites": invites_open(user=user)}


@dataclass(frozen=True)
class FriendToInvite:
    user_id: int
    name: str
    invited: bool


def table_invite_context(user: User | AnonymousUser, table: Table) -> dict[str, Any]:
    """For the host of a private table waiting for players (``table``: its row as the page read
    it): their friends not seated at it, each with whether they were invited already
    (``invite_friends``); else nothing."""
    if not user.is_authenticated or not table.is_private or table.host_id != user.pk:
        return {}
    if table.status == TableStatus.CLOSED:
        return {}
    if table.games.filter(status=GameStatus.RUNNING).exists():
        return {}
    seated = set(
        Seat.objects.filter(
            table_id=table.pk, left_at__isnull=True, game__status__in=LIVE_GAME_STATUSES
        ).values_list("user_id", flat=True)
    )
    invited = friends_selectors.invited_ids(host=user, table_id=table.pk)
    friends = [
        FriendToInvite(user_id=f.pk, name=f.public_name, invited=f.pk in invited)
        for f in friends_selectors.friends_of(user=user)
        if f.pk not in seated
    ]
    return {"invite_friends": friends, "invite_table_id": table.pk}


def friends_page_section(request: HttpRequest) -> SafeString:
    """The invites waiting for the player, atop the Friends page (``accounts.hooks``)."""
    user = request.user
    if not user.is_authenticated:
        return SafeString("")
    invites = invites_open(user=user)
    if not invites:
        return SafeString("")
    html = render_to_string(
        "friends/_invites_card.html", {"friend_invites": invites}, request=request
    )
    return SafeString(html)
