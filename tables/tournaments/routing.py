"""The tournaments' sockets (a tournament page's live part); ``rummy_site.routing`` adds them
to the tables' own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tables.live.routing import socket_path
from tables.tournaments.consumers import TournamentConsumer

if TYPE_CHECKING:
    from channels.routing import URLRouter, _ExtendedURLPattern


websocket_urlpatterns: list[_ExtendedURLPattern | URLRouter] = [
    socket_path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
