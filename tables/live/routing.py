from __future__ import annotations

from typing import TYPE_CHECKING

from django.urls import path

from tables.live import consumers
from tables.tournaments.consumers import TournamentConsumer

if TYPE_CHECKING:
    from channels.consumer import _ASGIApplicationProtocol
    from channels.routing import URLRouter, _ExtendedURLPattern


def _socket(route: str, consumer: _ASGIApplicationProtocol) -> _ExtendedURLPattern:
    """Django's ``path`` for a consumer, as Channels routes them. django-stubs types ``path``
    for views only and types-channels has no typed counterpart, hence the one ignore."""
    return path(route, consumer)  # type: ignore[arg-type,return-value]


websocket_urlpatterns: list[_ExtendedURLPattern | URLRouter] = [
    _socket("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    _socket("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    _socket("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
