"""The tournament page's socket (``/ws/tournaments/<id>/``): when the director moves a
tournament on (a registration, a table done, a round seated: "your table is ready", the
results), every open page of it is told to re-fetch its live part at once."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from tables.tournaments.push import tournament_group


class TournamentConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.tournament_id = tournament_id
        self.group = tournament_group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return None  # the page sends nothing

    async def tournament_moved(self, event: dict[str, Any]) -> None:
        html = render_to_string(
            "tournaments/_ping.html", {"tournament_id": self.tournament_id, "n": event.get("n", 0)}
        )
        await self.send(text_data=html)
