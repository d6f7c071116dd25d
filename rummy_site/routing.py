"""Every socket of the site, as ``rummy_site.urls`` is every page: the tables' sockets and the
tournaments' (an app above the tables, which the tables do not import)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tables.live.routing import websocket_urlpatterns as table_sockets
from tables.tournaments.routing import websocket_urlpatterns as tournament_sockets

if TYPE_CHECKING:
    from channels.routing import URLRouter, _ExtendedURLPattern


websocket_urlpatterns: list[_ExtendedURLPattern | URLRouter] = [
    *table_sockets,
    *tournament_sockets,
]
