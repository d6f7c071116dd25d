"""Writes for friends: requests sent, accepted and refused, friends removed, players blocked
and unblocked, and invites to a private table recorded.

Each is one transaction that locks the two players' rows first, the lower id first (the fixed
order), so two actions on one pair are serialised. A refusal (``FriendRefused``) is raised
before anything is written: it changes nothing. The signals of ``signals.py`` are sent after
the commit."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User

from .errors import FriendRefusal, FriendRefused
from .models import Block, FriendInvite, FriendRequest, Friendship, RequestState
from .selectors import are_friends, is_blocked, is_player
from .signals import friend_invited, friend_request_sent, send_on_commit

__all__ = [
    "friend_invite_send",
    "friend_remove",
    "friend_request_accept",
    "friend_request_cancel",
    "friend_request_refuse",
    "friend_request_send",
    "player_block",
    "player_unblock",
]


def _pair_lock(a: User, b: User) -> None:
    """Lock both players' rows, the lower id first."""
    list(User.objects.select_for_update().filter(pk__in=[a.pk, b.pk]).order_by("pk").values("pk"))


def _pair(a: User, b: User) -> Q:
    """The friendship row of ``a`` and ``b``."""
    low, high = sorted((a.pk, b.pk))
    return Q(user_low_id=low, user_high_id=high)


def _between(a: User, b: User) -> Q:
    """A request either way between ``a`` and ``b``."""
    return Q(sender_id=a.pk, receiver_id=b.pk) | Q(sender_id=b.pk, receiver_id=a.pk)


def _player(user: User) -> User:
    """``user`` if friends may be made with them (a person with an active account)."""
    if not is_player(user):
        raise FriendRefused(FriendRefusal.NO_SUCH_PLAYER)
    return user


def _blocks_check(me: User, other: User) -> None:
    if Block.objects.filter(blocker_id=me.pk, blocked_id=other.pk).exists():
        raise FriendRefused(FriendRefusal.YOU_BLOCKED, name=other.public_name)
    if Block.objects.filter(blocker_id=other.pk, blocked_id=me.pk).exists():
        raise FriendRefused(FriendRefusal.BLOCKED_YOU, name=other.public_name)


@transaction.atomic
def friend_request_send(*, sender: User, receiver: User) -> FriendRequest:
    """``sender`` asks ``receiver`` to be friends. Refused: to oneself, to a computer player or
    a closed account, between friends, a second request either way, and whenever either has
    blocked the other. ``friend_request_sent`` is sent after the commit."""
    if sender.pk == receiver.pk:
        raise FriendRefused(FriendRefusal.REQUEST_SELF)
    _player(receiver)
    _pair_lock(sender, receiver)
    _blocks_check(sender, receiver)
    if Friendship.objects.filter(_pair(sender, receiver)).exists():
        raise FriendRefused(FriendRefusal.ALREADY_FRIENDS, name=receiver.public_name)
    pending = FriendRequest.objects.filter(_between(sender, receiver), state=RequestState.PENDING)
    for request in pending:
        if request.sender_id == sender.pk:
            raise FriendRefused(FriendRefusal.ALREADY_ASKED, name=receiver.public_name)
        raise FriendRefused(FriendRefusal.ASKED_YOU, name=receiver.public_name)
    request = FriendRequest.objects.create(sender=sender, receiver=receiver)
    send_on_commit(
        friend_request_sent, sender=FriendRequest, sender_user=sender, receiver_user=receiver
    )
    return request


def _pending(*, user: User, request_id: object, sent: bool = False) -> FriendRequest:
    """The pending request ``request_id`` addressed to ``user`` (with ``sent``: that ``user``
    sent), its pair locked, the other player's row loaded with it."""
    if not isinstance(request_id, int) or isinstance(request_id, bool):
        raise FriendRefused(FriendRefusal.NO_SUCH_REQUEST)
    mine, other = ("sender", "receiver") if sent else ("receiver", "sender")
    found = (
        FriendRequest.objects.filter(pk=request_id, **{f"{mine}_id": user.pk})
        .select_related(other)
        .first()
    )
    if found is None:  # someone else's request is no request of this player's
        raise FriendRefused(FriendRefusal.NO_SUCH_REQUEST)
    _pair_lock(user, getattr(found, other))
    request = FriendRequest.objects.select_related(other).get(pk=found.pk)
    if request.state != RequestState.PENDING:
        raise FriendRefused(FriendRefusal.REQUEST_ANSWERED)
    return request


def _answer(request: FriendRequest, state: RequestState) -> FriendRequest:
    """``request`` answered (or withdrawn) now."""
    request.state = state
    request.answered_at = timezone.now()
    request.save(update_fields=["state", "answered_at"])
    return request


@transaction.atomic
def friend_request_accept(*, user: User, request_id: int) -> Friendship:
    """``user`` accepts the pending request ``request_id`` addressed to them: the two are
    friends. Refused: someone else's request or no request (``NO_SUCH_REQUEST``), one already
    answered."""
    request = _answer(_pending(user=user, request_id=request_id), RequestState.ACCEPTED)
    low, high = sorted((request.sender_id, user.pk))
    friendship, _created = Friendship.objects.get_or_create(user_low_id=low, user_high_id=high)
    return friendship


@transaction.atomic
def friend_request_refuse(*, user: User, request_id: int) -> FriendRequest:
    """``user`` refuses the pending request ``request_id`` addressed to them (the sender may
    ask again later). Refused as ``friend_request_accept``."""
    return _answer(_pending(user=user, request_id=request_id), RequestState.REFUSED)


@transaction.atomic
def friend_request_cancel(*, user: User, request_id: int) -> FriendRequest:
    """``user`` withdraws their own pending request ``request_id`` (they may ask again later).
    Refused: a request ``user`` did not send or none (``NO_SUCH_REQUEST``), one already
    answered."""
    return _answer(_pending(user=user, request_id=request_id, sent=True), RequestState.CANCELLED)


@transaction.atomic
def friend_remove(*, user: User, friend: User) -> None:
    """``user`` and ``friend`` are friends no more (either may end it); the invites between
    them go too. Refused when they are not friends."""
    _pair_lock(user, friend)
    deleted, _rows = Friendship.objects.filter(_pair(user, friend)).delete()
    if not deleted:
        raise FriendRefused(FriendRefusal.NOT_FRIENDS, name=friend.public_name)
    _invites_between(user, friend).delete()


def _invites_between(a: User, b: User) -> QuerySet[FriendInvite]:
    return FriendInvite.objects.filter(
        Q(host_id=a.pk, friend_id=b.pk) | Q(host_id=b.pk, friend_id=a.pk)
    )


@transaction.atomic
def player_block(*, blocker: User, blocked: User) -> Block:
    """``blocker`` blocks ``blocked``: their friendship ends, the pending requests between them
    are cancelled and the invites between them go. Refused: oneself, a computer player or a
    closed account, one blocked already."""
    if blocker.pk == blocked.pk:
        raise FriendRefused(FriendRefusal.BLOCK_SELF)
    _player(blocked)
    _pair_lock(blocker, blocked)
    if Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked.pk).exists():
        raise FriendRefused(FriendRefusal.ALREADY_BLOCKED, name=blocked.public_name)
    block = Block.objects.create(blocker=blocker, blocked=blocked)
    Friendship.objects.filter(_pair(blocker, blocked)).delete()
    FriendRequest.objects.filter(_between(blocker, blocked), state=RequestState.PENDING).update(
        state=RequestState.CANCELLED, answered_at=timezone.now()
    )
    _invites_between(blocker, blocked).delete()
    return block


@transaction.atomic
def player_unblock(*, blocker: User, blocked: User) -> None:
    """``blocker`` lifts their block of ``blocked`` (a block by the other stays). Refused when
    there is none."""
    _pair_lock(blocker, blocked)
    deleted, _rows = Block.objects.filter(blocker_id=blocker.pk, blocked_id=blocked.pk).delete()
    if not deleted:
        raise FriendRefused(FriendRefusal.NOT_BLOCKED, name=blocked.public_name)


@transaction.atomic
def friend_invite_send(
    *, host: User, friend: User, table_id: int, table_name: str, invite_url: str
) -> tuple[FriendInvite, bool]:
    """``host`` invites ``friend`` to the private table ``table_id`` (the tables check that it
    is the host's and open, and give its name and invite link). Refused: not friends, or
    either blocked the other. The same invite again changes nothing (``(invite, False)``);
    a new one sends ``friend_invited`` after the commit."""
    _player(friend)
    _pair_lock(host, friend)
    if is_blocked(host, friend):
        raise FriendRefused(FriendRefusal.INVITE_BLOCKED, name=friend.public_name)
    if not are_friends(host, friend):
        raise FriendRefused(FriendRefusal.INVITE_NOT_FRIEND, name=friend.public_name)
    invite, created = FriendInvite.objects.get_or_create(
        host=host,
        friend=friend,
        table_id=table_id,
        defaults={"table_name": table_name[:120], "invite_url": invite_url[:200]},
    )
    if created:
        send_on_commit(
            friend_invited,
            sender=FriendInvite,
            host=host,
            friend=friend,
            table_id=table_id,
            invite_url=invite_url,
        )
    return invite, created
