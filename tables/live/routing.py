"""The tables' sockets (a table, the lobby). Tournaments route their own sockets
(``tables.tournaments.routing``); the site composes both (``rummy_site.routing``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.urls import path

from tables.live import consumers

if TYPE_CHECKING:
    from channels.consumer import _ASGIApplicationProtocol
    from channels.routing import URLRouter, _ExtendedURLPattern


def socket_path(route: str, consumer: _ASGIApplicationProtocol) -> _ExtendedURLPattern:
    """Django's ``path`` for a consumer, as Channels routes them. django-stubs types ``path``
    for views only and types-channels has no typed counterpart, hence the one ignore."""
    return path(route, consumer)  # type: ignore[arg-type,return-value]


websocket_urlpatterns: list[_ExtendedURLPattern | URLRouter] = [
    socket_path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    socket_path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
]
