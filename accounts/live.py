"""Closing a player's open sockets when their session ends or their account changes: every
socket a signed-in page opens joins its user's group and its session's group; a logout ends
the sockets of that session, a password change, a self-exclusion or a closed (deactivated)
account ends all of that user's. The socket is closed with 4401 and the page reloads, so it
asks for a log-in again where the session is gone, and a player whose session still stands
reconnects and is judged afresh.

Sent after the change commits, through the channel layer (every web process hears it);
best effort: a socket whose close is lost is refused at its next message once its session has
expired, and reconnects are authenticated anew."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


def call_async(fn: Callable[P, Awaitable[R]], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """Run an async call (a channel layer's send) from synchronous code and return its result.

    ``async_to_sync`` refuses a thread that already runs an event loop: synchronous code
    driven from one (Playwright's sync API in the browser tests runs the app's services
    between browser steps in such a thread). There the call runs on a thread of its own, so
    what the services push reaches the sockets wherever they are called from."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return async_to_sync(fn)(*args, **kwargs)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="call-async") as pool:
        return pool.submit(async_to_sync(fn), *args, **kwargs).result()


CLOSE_SESSION_ENDED = 4401
EVENT = "sockets.end"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def session_group(session_key: str) -> str:
    """A session's group, named by a digest of its key (the key itself is a credential)."""
    return "session-" + hashlib.blake2b(session_key.encode(), digest_size=12).hexdigest()


def _send(group: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        call_async(layer.group_send, group, {"type": EVENT})
    except Exception as error:  # the channel layer is down: sockets are judged at reconnect
        logger.warning("sockets: could not end the sockets of %s: %s", group, error)


def user_sockets_end(*, user_id: int) -> None:
    """Close every open socket of the user, once the current transaction commits."""
    transaction.on_commit(lambda: _send(user_group(user_id)))


def session_sockets_end(*, session_key: str) -> None:
    """Close the open sockets of one session, once the current transaction commits."""
    transaction.on_commit(lambda: _send(session_group(session_key)))
