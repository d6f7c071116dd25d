"""The tournament page's socket: a registration (the director's wake-up) and each step the
director takes tell every open page to re-fetch its live part."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from tourney_kit import deals_template

from rummy_site.routing import websocket_urlpatterns
from tables.tournaments import director
from tables.tournaments import services as tourney

pytestmark = pytest.mark.django_db(transaction=True)

APP = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


async def _text(ws: WebsocketCommunicator, timeout: float = 1) -> str:
    """The socket's next frame, which is text (the consumers send no bytes)."""
    message = await ws.receive_from(timeout=timeout)
    assert isinstance(message, str)
    return message


def test_the_page_is_told_when_the_tournament_moves(players: list[Any]) -> None:
    t = tourney.tournament_create_sit_and_go(
        name="Pushed", template=deals_template(), entry_fee=1_000, players_min=2, players_max=2
    )

    async def scenario() -> list[str]:
        ws = WebsocketCommunicator(APP, f"/ws/tournaments/{t.pk}/")
        connected, _ = await ws.connect()
        assert connected
        got = []
        from channels.db import database_sync_to_async

        await database_sync_to_async(tourney.tournament_register)(tournament=t, user=players[0])
        got.append(await _text(ws, timeout=5))
        await database_sync_to_async(tourney.tournament_register)(tournament=t, user=players[1])
        got.append(await _text(ws, timeout=5))
        await database_sync_to_async(director.tournament_advance)(tournament_id=t.pk)
        got.append(await _text(ws, timeout=5))
        await ws.disconnect()
        return got

    messages = async_to_sync(scenario)()
    assert len(messages) == 3
    for message in messages:
        assert 'id="tournament-ping"' in message
        assert f"/tournaments/{t.pk}/?partial=live" in message
    staff = players[5]
    staff.is_staff = True
    staff.save()
    tourney.tournament_cancel(tournament=t, staff_user=staff, reason="test over")
