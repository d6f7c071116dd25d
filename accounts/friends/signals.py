"""What the friends' services tell observers (Web Push, logs), after the commit of the change.

* ``friend_request_sent``: sent with ``sender_user`` (the ``User`` who asked) and
  ``receiver_user`` (the ``User`` asked), once the request is committed.
* ``friend_invited``: sent with ``host`` (the ``User`` who invites), ``friend`` (the ``User``
  invited), ``table_id`` (the private table's id, an ``int``) and ``invite_url`` (the path of
  the table's invite link, e.g. ``/tables/join/<token>``), once the invite is committed.

Both are sent with ``sender`` the model class of the row written (``FriendRequest``,
``FriendInvite``) through ``send_robust``: a failing receiver is logged and never undoes the
change or stops the other receivers. Connect a receiver once, from an ``AppConfig.ready()``,
with a ``dispatch_uid``; it takes keyword arguments::

    def on_request(sender, *, sender_user, receiver_user, **kwargs): ...
    friend_request_sent.connect(on_request, dispatch_uid="accounts.push.on_request")
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

friend_request_sent = Signal()
friend_invited = Signal()


def send_on_commit(signal: Signal, *, sender: type[Any], **kwargs: Any) -> None:
    """Send ``signal`` with ``kwargs`` once the current transaction commits (at once outside
    one); a failing receiver is logged."""

    def notify() -> None:
        for receiver, result in signal.send_robust(sender=sender, **kwargs):
            if isinstance(result, Exception):
                logger.error("friends: receiver %r failed", receiver, exc_info=result)

    transaction.on_commit(notify)
