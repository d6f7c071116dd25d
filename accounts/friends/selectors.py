"""Reads for friends: a player's friends, requests in and out, blocks either way, invites, and
the search of players by their public name. The tables read ``friends_query`` and
``blocked_ids`` (friends online in the lobby, Play now keeping blocked players apart)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.paginator import Page, Paginator
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce, Lower, NullIf
from django.utils import timezone

from accounts.models import User

from .models import Block, FriendInvite, FriendRequest, Friendship, RequestState

SEARCH_PAGE_SIZE = 20
SEARCH_MAX_CHARS = 40
SEARCH_MIN_CHARS = 2
# An invite shows in the friend's lobby this long (while its table is open).
INVITE_SHOWN_FOR = timedelta(hours=2)


def is_player(user: User | None) -> bool:
    """A person with an active account (not a computer player): one friends may be made with."""
    if user is None or user.pk is None or not user.is_active:
        return False
    return not User.objects.filter(pk=user.pk, bot_profile__isnull=False).exists()


def friends_query(user: User) -> QuerySet[User]:
    """``user``'s friends, as a query (a subquery for the tables' reads)."""
    return User.objects.filter(
        Q(pk__in=Friendship.objects.filter(user_low_id=user.pk).values("user_high_id"))
        | Q(pk__in=Friendship.objects.filter(user_high_id=user.pk).values("user_low_id"))
    )


def _by_name(query: QuerySet[User]) -> QuerySet[User]:
    return query.annotate(
        shown=Lower(Coalesce(NullIf("display_name", Value("")), "username"))
    ).order_by("shown", "pk")


def friends_of(*, user: User) -> list[User]:
    """``user``'s friends by their public name."""
    return list(_by_name(friends_query(user)))


def are_friends(a: User, b: User) -> bool:
    low, high = sorted((a.pk, b.pk))
    return Friendship.objects.filter(user_low_id=low, user_high_id=high).exists()


def requests_in(*, user: User) -> list[FriendRequest]:
    """The pending requests addressed to ``user``, newest first."""
    return list(
        FriendRequest.objects.filter(receiver_id=user.pk, state=RequestState.PENDING)
        .select_related("sender")
        .order_by("-created_at", "-pk")
    )


def requests_out(*, user: User) -> list[FriendRequest]:
    """The pending requests ``user`` sent, newest first."""
    return list(
        FriendRequest.objects.filter(sender_id=user.pk, state=RequestState.PENDING)
        .select_related("receiver")
        .order_by("-created_at", "-pk")
    )


def blocked_by(*, user: User) -> list[User]:
    """The players ``user`` blocked, by name."""
    return list(_by_name(User.objects.filter(blocks_received__blocker_id=user.pk)))


def is_blocked(a: User, b: User) -> bool:
    """Whether ``a`` blocked ``b`` or ``b`` blocked ``a``."""
    return Block.objects.filter(
        Q(blocker_id=a.pk, blocked_id=b.pk) | Q(blocker_id=b.pk, blocked_id=a.pk)
    ).exists()


def blocked_ids(*, user: User) -> set[int]:
    """The ids of the players ``user`` blocked or who blocked ``user`` (one query)."""
    ids: set[int] = set()
    for blocker, blocked in Block.objects.filter(
        Q(blocker_id=user.pk) | Q(blocked_id=user.pk)
    ).values_list("blocker_id", "blocked_id"):
        ids.add(blocked if blocker == user.pk else blocker)
    return ids


def invites_for(*, user: User, now: datetime | None = None) -> QuerySet[FriendInvite]:
    """The invites to ``user`` of the last ``INVITE_SHOWN_FOR``, newest first (the tables keep
    those whose table is still open)."""
    since = (now or timezone.now()) - INVITE_SHOWN_FOR
    return (
        FriendInvite.objects.filter(friend_id=user.pk, created_at__gte=since)
        .select_related("host")
        .order_by("-created_at", "-pk")
    )


def invited_ids(*, host: User, table_id: int) -> set[int]:
    """The friends ``host`` invited to table ``table_id`` already."""
    return set(
        FriendInvite.objects.filter(host_id=host.pk, table_id=table_id).values_list(
            "friend_id", flat=True
        )
    )


@dataclass(frozen=True)
class Relation:
    """Where the viewer stands with a player of the search's results."""

    friend: bool = False
    asked: bool = False  # the viewer's request waits for the player's answer
    asked_by: int | None = None  # the player's pending request to the viewer (its id)
    blocked: bool = False  # the viewer blocked the player


@dataclass(frozen=True)
class Found:
    user: User
    relation: Relation


def search_clean(text: object) -> str:
    """What was typed in the search box, trimmed to its most characters."""
    return " ".join(str(text or "").split())[:SEARCH_MAX_CHARS]


@dataclass(frozen=True)
class SearchResult:
    """A page of the search: the players found with the viewer's relation to each, the page
    (its number and its neighbours) and the text searched."""

    items: list[Found]
    page: Page[User]
    text: str


def players_search(*, user: User, text: object, page: object = 1) -> SearchResult:
    """Players whose public name contains ``text`` (any case; those it starts with first),
    ``SEARCH_PAGE_SIZE`` a page: never the viewer, a computer player, a closed account or
    someone who blocked the viewer. Each with where the viewer stands with them. The text
    searched is empty, and no one found, under ``SEARCH_MIN_CHARS``."""
    searched = search_clean(text)
    query = User.objects.none()
    if len(searched) >= SEARCH_MIN_CHARS:
        by_name = Q(display_name__icontains=searched) | Q(
            display_name="", username__icontains=searched
        )
        starts = Q(display_name__istartswith=searched) | Q(
            display_name="", username__istartswith=searched
        )
        query = (
            User.objects.filter(by_name, is_active=True, bot_profile__isnull=True)
            .exclude(pk=user.pk)
            .exclude(pk__in=Block.objects.filter(blocked_id=user.pk).values("blocker_id"))
            .annotate(
                first=Case(
                    When(starts, then=Value(0)), default=Value(1), output_field=IntegerField()
                ),
                shown=Lower(Coalesce(NullIf("display_name", Value("")), "username")),
            )
            .order_by("first", "shown", "pk")
        )
    number = page if isinstance(page, (int, str)) else 1
    users_page = Paginator(query, SEARCH_PAGE_SIZE).get_page(number)
    users = list(users_page.object_list)
    relations = _relations(user, [u.pk for u in users])
    items = [Found(user=u, relation=relations.get(u.pk, Relation())) for u in users]
    return SearchResult(items=items, page=users_page, text=searched)


def _relations(user: User, ids: list[int]) -> dict[int, Relation]:
    if not ids:
        return {}
    friends = set(friends_query(user).filter(pk__in=ids).values_list("pk", flat=True))
    asked: set[int] = set()
    asked_by: dict[int, int] = {}
    for pk, sender, receiver in FriendRequest.objects.filter(
        Q(sender_id=user.pk, receiver_id__in=ids) | Q(receiver_id=user.pk, sender_id__in=ids),
        state=RequestState.PENDING,
    ).values_list("pk", "sender_id", "receiver_id"):
        if sender == user.pk:
            asked.add(receiver)
        else:
            asked_by[sender] = pk
    blocked = set(
        Block.objects.filter(blocker_id=user.pk, blocked_id__in=ids).values_list(
            "blocked_id", flat=True
        )
    )
    return {
        pk: Relation(
            friend=pk in friends,
            asked=pk in asked,
            asked_by=asked_by.get(pk),
            blocked=pk in blocked,
        )
        for pk in ids
    }
