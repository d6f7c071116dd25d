"""The friends' signals heard (``accounts.friends.signals``): a friend request and an invite to
a friend's private table become notices to the player asked, in that player's language."""

from __future__ import annotations

from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.friends.signals import friend_invited, friend_request_sent
from accounts.middleware import player_language
from accounts.models import User

from .models import PushKind
from .services import push_notify

# Where a friend request is answered (the friends' page, when the site has one).
FRIENDS_URL_NAME = "friends"


def _friends_url() -> str:
    try:
        return reverse(FRIENDS_URL_NAME)
    except NoReverseMatch:
        return reverse("profile")


def on_friend_request(
    sender: object, *, sender_user: User, receiver_user: User, **kwargs: Any
) -> None:
    with translation.override(player_language(receiver_user)):
        push_notify(
            user_id=receiver_user.pk,
            kind=PushKind.FRIEND_REQUEST,
            title=_("Friend request"),
            body=_("%(name)s wants to be your friend.") % {"name": sender_user.public_name},
            url=_friends_url(),
        )


def on_friend_invited(
    sender: object, *, host: User, friend: User, table_id: int, invite_url: str, **kwargs: Any
) -> None:
    with translation.override(player_language(friend)):
        push_notify(
            user_id=friend.pk,
            kind=PushKind.FRIEND_INVITE,
            title=_("Come and play"),
            body=_("%(name)s invites you to their table.") % {"name": host.public_name},
            url=invite_url,
        )


def connect() -> None:
    """Connect the receivers once (``PushConfig.ready``)."""
    friend_request_sent.connect(on_friend_request, dispatch_uid="accounts.push.on_friend_request")
    friend_invited.connect(on_friend_invited, dispatch_uid="accounts.push.on_friend_invited")
