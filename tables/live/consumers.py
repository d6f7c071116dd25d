"""WebSockets: the table's socket, on which a seated player plays and every watcher hears each
change, and the lobby's push-only socket. The table socket's protocol is docs/table-socket.md.

A table socket is listed with its process by table (``tables/live/fanout.py``: the shared felt
of ``tables/live/realtime.py``, its player's own fragment, the seats' online badges, handed to
it from memory or through the process's one relay channel) and joins its user's and session's
groups (``accounts.live``: a logout, a password change, a closed account end it). On
connecting it is told the current version; a page that is behind asks ``since`` the version it
shows and gets the frames it missed, or loads its view over HTTP when they are no longer kept.
A move is a ``move`` message, run by ``tables/live/moves.py`` off the event loop and answered on
the socket (``ack`` or ``refused``). A table socket needs a logged-in user (anonymous handshakes
are refused with 4401); a spectator reads the felt, never a player's cards.

The felt comes rendered in every language in use at the table: a socket takes its own (a
seated player's saved language, as its fragment; a spectator's page language), or, when its
language is not among them, the version only, and the page re-fetches its view in its own
language.

Presence: opening or closing a player's socket changes only the seat's badge (a tiny frame to
the table's sockets). It becomes a logged move (``services.seat_set_connected``, the
disconnection policy of RULES.md §4.8) only when the player has had no socket open for
``PRESENCE_GRACE_S`` seconds (a reload reconnects well within it), and again when the player
comes back after that."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from autobahn.exception import Disconnected
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import get_supported_language_variant
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import parse_accept_lang_header

from accounts import live as account_sockets
from accounts.middleware import player_language
from accounts.throttle import socket_connect_limited
from tables import selectors, services
from tables.live import fanout, moves, presence, sent, visibility
from tables.live.realtime import frame_text, lobby_group
from tables.models import Table
from tables.web import acting

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

logger = logging.getLogger(__name__)


def _scope_user(scope: Mapping[str, Any]) -> User | AnonymousUser | None:
    """The socket's user: ``AuthMiddlewareStack`` puts a lazy proxy of the session's ``User`` (or
    ``AnonymousUser``) in the scope, which types-channels types as a bare ``AbstractBaseUser``."""
    return cast("User | AnonymousUser | None", scope.get("user"))


# Close codes: too many connects (settings.RATE_LIMITS["socket"]); the channel layer (Redis)
# is down, so no push could arrive: the page re-fetches its view over HTTP meanwhile and the
# socket reconnects by itself.
CLOSE_RATE_LIMITED = 4429
CLOSE_LAYER_DOWN = 4503


async def _layer_join(
    consumer: AsyncWebsocketConsumer, *groups: str, listener: fanout.Listener | None = None
) -> bool:
    """Join ``groups`` (and list ``listener``'s table socket with the process: ``fanout``)."""
    try:
        for group in groups:
            await consumer.channel_layer.group_add(group, consumer.channel_name)
        if listener is not None:
            await fanout.table_listen(listener)
    except Exception as error:  # Redis down: no pushes now; the page polls and reconnects
        logger.warning("socket: the channel layer is unavailable: %s", error)
        await consumer.accept()  # then closed with the reason, so the page knows to poll
        await consumer.close(code=CLOSE_LAYER_DOWN)
        return False
    return True


def _socket_language(scope: Mapping[str, Any]) -> str:
    """The language of the page behind a socket: the player's saved choice, else the language
    cookie the switcher sets, else the browser's Accept-Language (as ``LocaleMiddleware``)."""
    user = scope.get("user")
    saved = getattr(user, "language", "") if user is not None else ""
    if saved:
        return str(saved)
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    candidates = [cookie] if cookie else []
    for name, value in scope.get("headers") or []:
        if name == b"accept-language":
            header = value.decode("latin-1")
            candidates += [lang for lang, _q in parse_accept_lang_header(header) if lang != "*"]
    for candidate in candidates:
        try:
            return get_supported_language_variant(candidate)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)


def _sync_frame(version: int) -> str:
    return frame_text({"t": "sync", "v": version})


def _refetch_frame(version: int) -> str:
    return frame_text({"t": "refetch", "v": version})


# The longest message a page sends (a show's groups are ~200 characters).
MAX_MESSAGE_CHARS = 16 * 1024


class Bucket:
    """A socket's allowance of messages: ``rate`` a second on average, ``burst`` at once."""

    def __init__(self, *, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def _bucket() -> Bucket:
    return Bucket(
        rate=settings.SOCKET_MESSAGES_PER_S,
        burst=settings.SOCKET_MESSAGES_BURST,
    )


def _strikes_to_close() -> int:
    return int(settings.SOCKET_STRIKES_TO_CLOSE)


def _bad(text: str) -> acting.Refused:
    return acting.Refused("bad_message", 400, text)


def _whole_number(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _grace() -> float:
    return float(getattr(settings, "PRESENCE_GRACE_S", 5.0))


def _connected_now(*, table_id: int, user: User) -> None:
    """The player is back after the disconnection policy heard they were gone: tell it."""
    found = selectors.table_socket_state(table_id=table_id, user_id=user.pk)
    seat = found.seat if found is not None else None
    if seat is not None and not seat.connected:
        services.seat_set_connected(table=Table(pk=table_id), user=user, connected=True)


def _gone_after_grace(*, table_id: int, user: User) -> None:
    """No socket came back within the grace: the disconnection policy hears of it."""
    if presence.open_count(table_id=table_id, user_id=user.pk) > 0:
        return
    services.seat_set_connected(table=Table(pk=table_id), user=user, connected=False)


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int
    user_id: int
    user: User
    groups_joined: tuple[str, ...] = ()
    language: str
    seat_no: int | None = None
    session_ends: datetime | None = None
    last_counter = 0  # the highest move counter this socket has sent
    direct: tuple[int, int] = (0, -1)  # the game and newest version it sent frames of itself
    strikes = 0  # messages refused in a row for coming too fast
    hidden = False  # the page's tab is out of view (a "visibility" message)
    bucket: Bucket

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = _scope_user(self.scope)
        if user is None or not user.is_authenticated:
            # Only logged-in people (players and spectators) follow a table; the handshake is
            # refused before anything about the table is sent.
            await self.close(code=4401)
            return
        if await database_sync_to_async(socket_connect_limited)(self.scope):
            await self.close(code=CLOSE_RATE_LIMITED)
            return
        found = await self._table_state(user)
        if found is None:
            await self.close(code=4404)
            return
        version, seat, self.session_ends = found
        self.user = user
        self.user_id = user.pk
        self.bucket = _bucket()
        self.seat_no = seat.seat_no if seat is not None else None
        if seat is not None:
            self.language = player_language(user)  # its fragment's language, and the felt's
        else:
            self.language = _socket_language(self.scope)
        groups = [account_sockets.user_group(user.pk)]
        session_key = getattr(self.scope.get("session"), "session_key", None)
        if session_key:
            groups.append(account_sockets.session_group(session_key))
        if not await _layer_join(self, *groups, listener=self):
            return
        self.groups_joined = tuple(groups)
        await self.accept()
        first = seat is not None and await self._opened(user, seat)
        # Tell the page the current version at once (its first frame): a page that missed
        # pushes while it loaded or while its socket was down sees the gap and catches up.
        await self.send(text_data=_sync_frame(version))
        if first:  # the player's first socket at the table: the seat's badge turns online
            await self._badge(True)

    async def disconnect(self, code: int) -> None:
        if not self.groups_joined:
            return
        try:
            await fanout.table_unlisten(self)
            for group in self.groups_joined:
                await self.channel_layer.group_discard(group, self.channel_name)
        except Exception as error:  # Redis down: the groups expire by themselves
            logger.warning("socket: could not leave the groups: %s", error)
        if self.seat_no is not None:
            await self._closed(cast("User", _scope_user(self.scope)))  # seated: signed in

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As Channels dispatches, without its hop to a thread before a page's message to close
        stale database connections: a message's database work (a move, a badge) runs through
        ``database_sync_to_async``, which closes them in its own thread before and after. The
        hop cost every move a round trip between the event loop and a thread."""
        if message["type"] == "websocket.receive":
            await self.receive(text_data=message.get("text"), bytes_data=message.get("bytes"))
        else:
            await super().dispatch(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A message of the page: ``move`` or ``since`` (docs/table-socket.md). One message at a
        time per socket (Channels awaits this before the next), so a socket's moves keep their
        order."""
        with translation.override(self.language):
            await self._receive(text_data)

    async def _receive(self, text_data: str | None) -> None:
        if self.session_ends is not None and self.session_ends.timestamp() <= time.time():
            await self.close(code=account_sockets.CLOSE_SESSION_ENDED)
            return
        if not self.bucket.take():
            self.strikes += 1
            if self.strikes >= _strikes_to_close():
                await self.close(code=CLOSE_RATE_LIMITED)
                return
            words = acting.Refused("slow_down", 429, _("Too many messages: slow down."))
            await self._refuse(words)
            return
        self.strikes = 0
        message = _message(text_data)
        if isinstance(message, acting.Refused):
            await self._refuse(message)
        elif message["t"] == "since":
            await self._since(message)
        elif message["t"] == "visibility":
            await self._visibility(message)
        else:
            await self._move(message)

    async def _move(self, message: dict[str, object]) -> None:
        counter = _whole_number(message.get("a"))
        data = message.get("d")
        if counter is None or not isinstance(data, dict):
            refused = _bad(_("This message could not be read."))
            await self._refuse(refused, counter=counter)
            return
        if counter <= self.last_counter:
            return  # a repeat: applied and answered once
        self.last_counter = counter
        try:
            fields = acting.action_fields(data.items())
        except acting.BadForm as exc:
            refused = acting.refusal_of(exc)
            await self._refuse(refused, counter=counter)
            return
        async with moves.table_turn(self.table_id):
            # Every socket of the table here: the push keeps what it sent in this process.
            owned = fanout.table_owned(self.table_id) if sent.owned_games() > 0 else None
            done = await DatabaseSyncToAsync(
                moves.socket_move, thread_sensitive=False, executor=moves.POOL
            )(table_id=self.table_id, user=self.user, fields=fields, owned=owned)
            await self._deliver(done)  # in the table's turn: its frames go out in its order
        if done.refused is not None:
            await self._refuse(done.refused, counter=counter, parts=done.parts)
        else:
            await self._send_if_open(frame_text({"t": "ack", "a": counter, "v": done.version}))

    async def _visibility(self, message: dict[str, object]) -> None:
        """The page's tab went out of view or came back (``tables.live.visibility``: a turn is
        pushed as a notice only to a player with no page in view). Unanswered."""
        hidden = message.get("hidden")
        if not isinstance(hidden, bool):
            await self._refuse(_bad(_("This message could not be read.")))
            return
        if self.seat_no is None or hidden == self.hidden:
            return
        self.hidden = hidden
        change = visibility.page_unseen if hidden else visibility.page_seen
        await database_sync_to_async(change)(table_id=self.table_id, user_id=self.user_id)

    async def _refuse(
        self, refused: acting.Refused, *, counter: int | None = None, parts: str | None = None
    ) -> None:
        await self._send_if_open(moves.refused_text(counter=counter, refused=refused, parts=parts))

    async def _deliver(self, done: moves.MoveDone) -> None:
        """The move's pushes: this socket's own frames straight down it, then the change
        published once (``fanout``): the table's other sockets in this process get it from
        memory (a frame this socket already sent itself is not sent to it again), the other
        processes holding sockets of the table through the channel layer."""
        for event in done.outbox:
            if event["type"] == "table.felt":
                text = self._felt_text(event)
            elif event["type"] == "table.seat" and event["user"] == self.user_id:
                text = str(event["frame"])
            else:
                continue
            if not await self._send_if_open(text):
                break  # the page has gone: the table's other sockets still hear the move
            self._sent_itself(event)
        try:
            await fanout.table_publish(self.table_id, done.outbox)
        except Exception as error:  # Redis down: the other processes' pages poll their view
            logger.warning("socket: could not publish table %s: %s", self.table_id, error)

    async def _send_if_open(self, text: str) -> bool:
        """Send down this socket; ``False`` when its page went away while its message was
        handled (daphne refuses to send on a closed socket). A move stands and is published all
        the same; the page catches up when it comes back."""
        try:
            await self.send(text_data=text)
        except Disconnected:
            logger.debug("socket: table %s's page left before its answer", self.table_id)
            return False
        return True

    def _sent_itself(self, event: Mapping[str, Any]) -> None:
        game, version = int(event["game"]), int(event["version"])
        if game != self.direct[0] or version > self.direct[1]:
            self.direct = (game, version)

    def _new(self, event: Mapping[str, Any]) -> bool:
        """Whether a group's frame is not one this socket already sent itself."""
        return int(event["game"]) != self.direct[0] or int(event["version"]) > self.direct[1]

    async def _since(self, message: dict[str, object]) -> None:
        version = _whole_number(message.get("v"))
        game_id = _whole_number(message.get("g"))
        if version is None:
            refused = _bad(_("This message could not be read."))
            await self._refuse(refused)
            return
        texts = await database_sync_to_async(moves.socket_since)(
            table_id=self.table_id,
            user=self.user,
            game_id=game_id,
            version=version,
            language=self.language,
            seated=self.seat_no is not None,
        )
        if texts is None:
            await self.send(text_data=_refetch_frame(version))
            return
        for text in texts:
            await self.send(text_data=text)

    def _felt_text(self, event: Mapping[str, Any]) -> str:
        frames = event.get("frames")
        if frames is None:
            return str(event["bare"])
        own = frames.get(self.language)
        if own is None:  # not rendered in this page's language: it loads its view
            return _refetch_frame(int(event["version"]))
        return str(own)

    async def sockets_end(self, event: dict[str, Any]) -> None:
        """The session ended, or the account changed (``accounts.live``)."""
        await self.close(code=account_sockets.CLOSE_SESSION_ENDED)

    async def _opened(self, user: User, seat: selectors.SocketSeat) -> bool:
        """Count the socket (and tell the disconnection policy the player is back); whether
        it is the player's only socket at the table."""
        await database_sync_to_async(visibility.page_seen)(table_id=self.table_id, user_id=user.pk)
        opened = await database_sync_to_async(presence.socket_opened)(
            table_id=self.table_id, user_id=user.pk
        )
        if opened == 1 and not seat.connected:
            await database_sync_to_async(_connected_now)(table_id=self.table_id, user=user)
        return opened == 1

    async def _closed(self, user: User) -> None:
        if not self.hidden:
            await database_sync_to_async(visibility.page_unseen)(
                table_id=self.table_id, user_id=user.pk
            )
        left = await database_sync_to_async(presence.socket_closed)(
            table_id=self.table_id, user_id=user.pk
        )
        if left > 0:
            return  # another tab of the same player is still connected
        await self._badge(False)
        table_id = self.table_id

        async def after_grace() -> None:
            await asyncio.sleep(_grace())
            try:
                await database_sync_to_async(_gone_after_grace)(table_id=table_id, user=user)
            except Exception:
                logger.exception("presence check failed for table %s", table_id)

        # Runs on after this consumer is gone; a process that stops meanwhile leaves the seat
        # marked connected, and the turn timer still plays for an absent player.
        asyncio.get_running_loop().create_task(after_grace())

    async def _badge(self, online: bool) -> None:
        event = {"type": "table.presence", "seat": self.seat_no, "online": online}
        try:
            await fanout.table_publish(self.table_id, [event])
        except Exception as error:  # Redis down: the page polls its view meanwhile
            logger.warning("socket: could not send a badge: %s", error)

    async def table_update(self, event: dict[str, Any]) -> None:
        await self.send(text_data=_sync_frame(event["version"]))

    async def table_felt(self, event: dict[str, Any]) -> None:
        """The shared felt (or its versions only, when it shows nothing new), encoded once by
        the process that pushed it."""
        if self._new(event):
            await self.send(text_data=self._felt_text(event))

    async def table_seat(self, event: dict[str, Any]) -> None:
        """This player's own fragment (sent to this player's group only)."""
        if self._new(event):
            await self.send(text_data=str(event["frame"]))

    async def table_presence(self, event: dict[str, Any]) -> None:
        frame = {"t": "presence", "seat": event["seat"], "online": event["online"]}
        await self.send(text_data=frame_text(frame))

    @database_sync_to_async
    def _table_state(
        self, user: User
    ) -> tuple[int, selectors.SocketSeat | None, datetime | None] | None:
        """The table's current version, the user's seat in its live game and when the socket's
        session ends (``None``: no such table)."""
        found = selectors.table_socket_state(table_id=self.table_id, user_id=user.pk)
        if found is None:
            return None
        session = self.scope.get("session")
        ends = session.get_expiry_date() if session is not None else None
        return found.version, found.seat, ends

    async def lobby_update(self, event: dict[str, Any]) -> None:
        """Table sockets are not in the lobby group."""


class LobbyConsumer(AsyncWebsocketConsumer):
    language: str
    present_id: int | None = None  # a signed-in player's id, counted in the lobby (friends online)

    async def connect(self) -> None:
        if await database_sync_to_async(socket_connect_limited)(self.scope):
            await self.close(code=CLOSE_RATE_LIMITED)
            return
        self.language = _socket_language(self.scope)
        if await _layer_join(self, lobby_group()):
            await self.accept()
            user = _scope_user(self.scope)
            if user is not None and user.is_authenticated:
                self.present_id = user.pk
                await database_sync_to_async(presence.lobby_opened)(user_id=user.pk)

    async def disconnect(self, code: int) -> None:
        if self.present_id is not None:
            await database_sync_to_async(presence.lobby_closed)(user_id=self.present_id)
        try:
            await self.channel_layer.group_discard(lobby_group(), self.channel_name)
        except Exception as error:
            logger.warning("socket: could not leave the lobby group: %s", error)

    async def lobby_update(self, event: dict[str, Any]) -> None:
        """The lobby's counts, rendered once per language by the process that pushed them."""
        html = event.get("html") or {}
        own = html.get(self.language) or html.get(settings.LANGUAGE_CODE)
        if own:
            await self.send(text_data=own)


def _message(text: str | None) -> dict[str, object] | acting.Refused:
    """A page's message read (a JSON object with a known ``t``), or why it cannot be."""
    if text is None or len(text) > MAX_MESSAGE_CHARS:
        return _bad(_("This message is too long or not text."))
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return _bad(_("This message could not be read."))
    if not isinstance(message, dict) or message.get("t") not in ("move", "since", "visibility"):
        return _bad(_("This message could not be read."))
    return message
