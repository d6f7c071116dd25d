"""WebSockets: push-only channels that bring browsers each change of a table (or the lobby).

A table socket joins the table's group (the shared felt, ``tables/live/realtime.py``; the seats'
online badges) and its player's own group (that player's fragment: hand, actions). On
connecting it is told the current version only: a page that is behind re-fetches its view over
HTTP (see static/js/table.js). A table socket needs a logged-in user (anonymous handshakes are
refused with 4401); a spectator reads the felt, never a player's cards.

The felt comes rendered in every language in use at the table: a socket takes its own (a
seated player's saved language, as its fragment; a spectator's page language), or, when its
language is not among them, the version only, and the page re-fetches its view in its own
language.

Presence: opening or closing a player's socket changes only the seat's badge (a tiny frame to
the table's group). It becomes a logged move (``services.seat_set_connected``, the
disconnection policy of RULES.md §4.8) only when the player has had no socket open for
``PRESENCE_GRACE_S`` seconds (a reload reconnects well within it), and again when the player
comes back after that."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header

from accounts.throttle import socket_connect_limited
from tables import services
from tables.live import presence
from tables.live.realtime import lobby_group, seat_group, table_group
from tables.models import LIVE_GAME_STATUSES, Game, Seat, Table

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


async def _layer_join(consumer: AsyncWebsocketConsumer, *groups: str) -> bool:
    try:
        for group in groups:
            await consumer.channel_layer.group_add(group, consumer.channel_name)
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
    return render_to_string("tables/_sync.html", {"version": version})


def _grace() -> float:
    return float(getattr(settings, "PRESENCE_GRACE_S", 5.0))


def _connected_now(*, table_id: int, user: User) -> None:
    """The player is back after the disconnection policy heard they were gone: tell it."""
    seat = _live_seat(table_id, user.pk)
    if seat is not None and not seat.connected:
        services.seat_set_connected(table=Table(pk=table_id), user=user, connected=True)


def _gone_after_grace(*, table_id: int, user: User) -> None:
    """No socket came back within the grace: the disconnection policy hears of it."""
    if presence.open_count(table_id=table_id, user_id=user.pk) > 0:
        return
    services.seat_set_connected(table=Table(pk=table_id), user=user, connected=False)


def _live_seat(table_id: int, user_id: int) -> Seat | None:
    return (
        Seat.objects.filter(
            table_id=table_id,
            user_id=user_id,
            left_at__isnull=True,
            game__status__in=LIVE_GAME_STATUSES,
        )
        .order_by("-pk")
        .first()
    )


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int
    user_id: int
    group: str
    own_group: str
    language: str
    seat_no: int | None = None

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
        version, seat = found
        self.user_id = user.pk
        self.seat_no = seat.seat_no if seat is not None else None
        if seat is not None:
            from accounts.middleware import player_language

            self.language = player_language(user)  # its fragment's language, and the felt's
        else:
            self.language = _socket_language(self.scope)
        self.group = table_group(self.table_id)
        self.own_group = seat_group(self.table_id, user.pk)
        if not await _layer_join(self, self.group, self.own_group):
            self.group = ""
            return
        await self.accept()
        if seat is not None:
            await self._opened(user, seat)
        # Tell the page the current version at once: a page that missed pushes while it loaded
        # or while its socket was down sees the gap and re-fetches its view.
        await self.send(text_data=_sync_frame(version))

    async def disconnect(self, code: int) -> None:
        if not getattr(self, "group", None):
            return
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(self.own_group, self.channel_name)
        except Exception as error:  # Redis down: the groups expire by themselves
            logger.warning("socket: could not leave the groups: %s", error)
        if self.seat_no is not None:
            await self._closed(cast("User", _scope_user(self.scope)))  # seated: signed in

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Browsers act over HTTP; anything sent here is ignored."""

    async def _opened(self, user: User, seat: Seat) -> None:
        opened = await database_sync_to_async(presence.socket_opened)(
            table_id=self.table_id, user_id=user.pk
        )
        if opened == 1:
            await self._badge(True)
            if not seat.connected:
                await database_sync_to_async(_connected_now)(table_id=self.table_id, user=user)

    async def _closed(self, user: User) -> None:
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
            await self.channel_layer.group_send(self.group, event)
        except Exception as error:  # Redis down: the page polls its view meanwhile
            logger.warning("socket: could not send a badge: %s", error)

    async def table_update(self, event: dict[str, Any]) -> None:
        await self.send(text_data=_sync_frame(event["version"]))

    async def table_felt(self, event: dict[str, Any]) -> None:
        """The shared felt (or its versions only, when it shows nothing new)."""
        html = event["html"]
        marker = render_to_string(
            "tables/_push.html",
            {"from_version": event["from_version"], "version": event["version"], "kind": "felt"},
        )
        if html is None:
            await self.send(text_data=marker)
            return
        own = html.get(self.language)
        if own is None:  # not rendered in this page's language: it re-fetches its view
            await self.send(text_data=_sync_frame(event["version"]))
            return
        await self.send(text_data=marker + own)

    async def table_seat(self, event: dict[str, Any]) -> None:
        """This player's own fragment (sent to this player's group only)."""
        marker = render_to_string(
            "tables/_push.html", {"from_version": None, "version": event["version"], "kind": "seat"}
        )
        await self.send(text_data=marker + event["html"])

    async def table_presence(self, event: dict[str, Any]) -> None:
        await self.send(
            text_data=render_to_string(
                "tables/_presence.html", {"seat": event["seat"], "online": event["online"]}
            )
        )

    @database_sync_to_async
    def _table_state(self, user: User) -> tuple[int, Seat | None] | None:
        """The table's current version and the user's seat in its live game (``None``: no
        such table)."""
        if not Table.objects.filter(pk=self.table_id).exists():
            return None
        version = (
            Game.objects.filter(table_id=self.table_id)
            .order_by("-pk")
            .values_list("version", flat=True)
            .first()
        )
        return int(version or 0), _live_seat(self.table_id, user.pk)

    async def lobby_update(self, event: dict[str, Any]) -> None:
        """Table sockets are not in the lobby group."""


class LobbyConsumer(AsyncWebsocketConsumer):
    language: str

    async def connect(self) -> None:
        if await database_sync_to_async(socket_connect_limited)(self.scope):
            await self.close(code=CLOSE_RATE_LIMITED)
            return
        self.language = _socket_language(self.scope)
        if await _layer_join(self, lobby_group()):
            await self.accept()

    async def disconnect(self, code: int) -> None:
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
