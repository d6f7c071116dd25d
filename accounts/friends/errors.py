"""What the friends' services refuse: ``FriendRefused`` with a ``code`` (``FriendRefusal``),
``params`` (names as the player reads them) and an HTTP ``status`` (404 for what is not there);
``str(exc)`` is the sentence, worded from the code by ``FRIEND_MESSAGES`` in the language active
when it is shown. It is an ``AccountRefused``, so every view and socket that shows accounts'
refusals shows it. Whenever one is raised, nothing was changed."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from accounts.errors import AccountRefused

__all__ = ["FRIEND_MESSAGES", "FriendRefusal", "FriendRefused"]


class FriendRefusal(StrEnum):
    NO_SUCH_PLAYER = "no_such_player"
    NO_SUCH_REQUEST = "no_such_request"
    REQUEST_SELF = "request_self"
    ALREADY_FRIENDS = "already_friends"
    ALREADY_ASKED = "already_asked"
    ASKED_YOU = "asked_you"
    YOU_BLOCKED = "you_blocked"
    BLOCKED_YOU = "blocked_you"
    REQUEST_ANSWERED = "request_answered"
    NOT_FRIENDS = "not_friends"
    BLOCK_SELF = "block_self"
    ALREADY_BLOCKED = "already_blocked"
    NOT_BLOCKED = "not_blocked"
    INVITE_NOT_FRIEND = "invite_not_friend"
    INVITE_BLOCKED = "invite_blocked"


R = FriendRefusal
FRIEND_MESSAGES: Mapping[FriendRefusal, StrOrPromise] = {
    R.NO_SUCH_PLAYER: _("There is no such player."),
    R.NO_SUCH_REQUEST: _("There is no such friend request for you."),
    R.REQUEST_SELF: _("You cannot send a friend request to yourself."),
    R.ALREADY_FRIENDS: _("You and %(name)s are friends already."),
    R.ALREADY_ASKED: _("You asked %(name)s already: the request waits for an answer."),
    R.ASKED_YOU: _("%(name)s asked you already: accept their request below."),
    R.YOU_BLOCKED: _("You blocked %(name)s: unblock them first."),
    R.BLOCKED_YOU: _("%(name)s takes no friend requests or invites from you."),
    R.REQUEST_ANSWERED: _("This friend request was answered already."),
    R.NOT_FRIENDS: _("%(name)s is not your friend."),
    R.BLOCK_SELF: _("You cannot block yourself."),
    R.ALREADY_BLOCKED: _("You blocked %(name)s already."),
    R.NOT_BLOCKED: _("You have not blocked %(name)s."),
    R.INVITE_NOT_FRIEND: _("You can invite only your friends: %(name)s is not one yet."),
    R.INVITE_BLOCKED: _("You cannot invite %(name)s: one of you blocked the other."),
}
del R

NOT_FOUND = frozenset({FriendRefusal.NO_SUCH_PLAYER, FriendRefusal.NO_SUCH_REQUEST})


class FriendRefused(AccountRefused):
    """A friends' action refused: a ``code`` and its ``params``; nothing changed."""

    code: FriendRefusal

    def __init__(self, code: FriendRefusal, /, **params: object) -> None:
        self.code = code
        self.params: dict[str, object] = params
        ValueError.__init__(self, code.value)

    def words(self) -> StrOrPromise:
        return FRIEND_MESSAGES[self.code]

    @property
    def status(self) -> int:
        """The HTTP status a page answers it with: 404 for what is not there, else 400."""
        return 404 if self.code in NOT_FOUND else 400
