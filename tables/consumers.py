"""WebSockets: push-only channels that bring browsers each change of a table (or the lobby).

After every change each seat's socket is pushed that player's own view (see
``tables/realtime.py``), marked with the version it moves the page from and to; other watchers
get the public view. On connecting, a socket is told the current version only: a page that is
behind re-fetches its view over HTTP (see static/js/table.js). Connecting and disconnecting a
seated player's socket is reported to ``services.seat_set_connected`` (the disconnection policy
of RULES.md §4.8). A table socket needs a logged-in user (anonymous handshakes are refused with
4401); a spectator gets the public view, never a player's cards. The public view is rendered in
the site's default language: a spectator who reads another language (the saved choice, else
the browser's) is told the new version only, and the page re-fetches its view in its own
language."""

from __future__ import annotations

import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header

from accounts.throttle import socket_connect_limited

from . import presence, services
from .models import Game, Table
from .realtime import lobby_group, seat_group, table_group


def _socket_language(scope: dict[str, Any]) -> str:
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


logger = logging.getLogger("tables.consumers")
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


def _push_frame(event: dict[str, Any]) -> str:
    marker = render_to_string(
        "tables/_push.html", {"from_version": event["from_version"], "version": event["version"]}
    )
    return marker + event["html"]


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int
    user_id: int
    group: str
    own_group: str
    language: str

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # Only logged-in people (players and spectators) follow a table; the handshake is
            # refused before anything about the table is sent.
            await self.close(code=4401)
            return
        if await database_sync_to_async(socket_connect_limited)(self.scope):
            await self.close(code=CLOSE_RATE_LIMITED)
            return
        if not await self._table_exists():
            await self.close(code=4404)
            return
        self.user_id = user.pk
        self.language = _socket_language(self.scope)
        self.group = table_group(self.table_id)
        self.own_group = seat_group(self.table_id, user.pk)
        if not await _layer_join(self, self.group, self.own_group):
            self.group = ""
            return
        await self.accept()
        await self._set_connected(True)
        # Tell the page the current version at once: a page that missed pushes while it loaded
        # or while its socket was down sees the gap and re-fetches its view.
        await self.table_update({"version": await self._current_version()})

    async def disconnect(self, code: int) -> None:
        if getattr(self, "group", None):
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
                await self.channel_layer.group_discard(self.own_group, self.channel_name)
            except Exception as error:  # Redis down: the groups expire by themselves
                logger.warning("socket: could not leave the groups: %s", error)
            await self._set_connected(False)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Browsers act over HTTP; anything sent here is ignored."""

    async def table_update(self, event: dict[str, Any]) -> None:
        html = render_to_string("tables/_sync.html", {"version": event["version"]})
        await self.send(text_data=html)

    async def table_view(self, event: dict[str, Any]) -> None:
        """This player's own view (sent to this player's group only)."""
        await self.send(text_data=_push_frame(event))

    async def table_public(self, event: dict[str, Any]) -> None:
        """The public view, for watchers without a seat (a seated player gets its own)."""
        if self.user_id in event["seated"]:
            return
        if event.get("language", settings.LANGUAGE_CODE) != self.language:
            await self.table_update({"version": event["version"]})  # re-fetched in its language
            return
        await self.send(text_data=_push_frame(event))

    @database_sync_to_async
    def _table_exists(self) -> bool:
        return Table.objects.filter(pk=self.table_id).exists()

    @database_sync_to_async
    def _current_version(self) -> int:
        version = (
            Game.objects.filter(table_id=self.table_id)
            .order_by("-pk")
            .values_list("version", flat=True)
            .first()
        )
        return int(version or 0)

    @database_sync_to_async
    def _set_connected(self, connected: bool) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return
        if connected:
            presence.socket_opened(table_id=self.table_id, user_id=user.pk)
        elif presence.socket_closed(table_id=self.table_id, user_id=user.pk) > 0:
            return  # another tab of the same player is still connected
        table = Table.objects.get(pk=self.table_id)
        services.seat_set_connected(table=table, user=user, connected=connected)

    async def lobby_update(self, event: dict[str, Any]) -> None:
        """Table sockets are not in the lobby group."""


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        if await database_sync_to_async(socket_connect_limited)(self.scope):
            await self.close(code=CLOSE_RATE_LIMITED)
            return
        if await _layer_join(self, lobby_group()):
            await self.accept()

    async def disconnect(self, code: int) -> None:
        try:
            await self.channel_layer.group_discard(lobby_group(), self.channel_name)
        except Exception as error:
            logger.warning("socket: could not leave the lobby group: %s", error)

    async def lobby_update(self, event: dict[str, Any]) -> None:
        await self.send(text_data=render_to_string("tables/_lobby_sync.html", {}))
