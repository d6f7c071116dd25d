"""What Web Push is sent for at the tables (issue 35, docs/push.md): a registered player's
five-minute warning before a scheduled tournament (once, however often the sweep runs), and a
turn passed to a person whose table page is out of view (the tab hidden, as the page tells its
socket, or no socket open), once per turn. Delivered through the real task code to the test's
push service (``push_kit``), from threads after the commit."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from tourney_kit import deals_template

from accounts.push.models import PushSent
from tables.live.routing import websocket_urlpatterns
from tables.live.visibility import page_seen, pages_seen, seen_key
from tables.models import Seat
from tables.tournaments import services as tourney
from tables.tournaments.models import Tournament, TournamentKind, TournamentStatus
from tables.tournaments.reminders import reminder_key, tournament_reminders_send
from tests.accounts.push_kit import (
    PushService,
    deliveries_finish,
    push_service_running,
    subscribe,
)


@pytest.fixture
def push_service(settings: Any) -> Iterator[PushService]:
    yield from push_service_running(settings)


pytestmark = pytest.mark.django_db(transaction=True)  # delivered from threads after the commit

APP = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


def _scheduled(**fields: Any) -> Tournament:
    tournament = Tournament(
        kind=TournamentKind.SCHEDULED,
        status=TournamentStatus.REGISTERING,
        name="Sunday Cup",
        template=deals_template(),
        entry_fee=2_000,
        fee_bps=1_000,
        players_min=2,
        players_max=4,
        starts_at=timezone.now() + timedelta(minutes=30),
        **fields,
    )
    tournament.full_clean()
    tournament.save()
    return tournament


def test_the_five_minute_warning_goes_once_to_each_registered_player(
    push_service: PushService, players: list[Any]
) -> None:
    cup = _scheduled()
    for player in players[:4]:
        subscribe(push_service, player, f"p{player.pk}")
    for player in players[:3]:
        tourney.tournament_register(tournament=cup, user=player)
    tourney.tournament_unregister(tournament=cup, user=players[2])  # changed their mind
    assert cup.starts_at is not None
    # Not yet: six minutes before.
    assert tournament_reminders_send(now=cup.starts_at - timedelta(minutes=6)) == 0
    # Four minutes before, twice (a second worker, a repeated beat): each player once.
    at = cup.starts_at - timedelta(minutes=4)
    assert tournament_reminders_send(now=at) == 2
    assert tournament_reminders_send(now=at + timedelta(seconds=30)) == 0
    deliveries_finish()
    assert sorted(r.path for r in push_service.received) == sorted(
        f"/push/p{p.pk}" for p in players[:2]
    )
    for request in push_service.received:
        assert request.vapid_ok
        assert request.payload is not None
        assert request.payload["kind"] == "tournament_starting"
        assert request.payload["title"] == "Sunday Cup starts soon"
        assert request.payload["url"] == f"/tournaments/{cup.pk}/"
    key = reminder_key(cup.pk)
    assert PushSent.objects.filter(key=key).count() == 2
    # After the start nothing more is sent.
    assert tournament_reminders_send(now=cup.starts_at + timedelta(seconds=1)) == 0


def _clear_seen(t: Any) -> None:
    """No page counted in view (the cache outlives a test's database), and the notice of the
    game's first turn (dealt before the test subscribed) delivered."""
    cache.delete_many([seen_key(t.table.pk, u.pk) for u in t.users.values()])
    deliveries_finish()


def _pass_turn(t: Any, seat: int) -> None:
    t.act(seat, "pick_closed")
    t.act(seat, "discard", card=t.view(seat)["hand"]["picked"])


def test_a_turn_is_pushed_only_to_a_player_whose_page_is_out_of_view(
    push_service: PushService, live_two: Any
) -> None:
    t = live_two
    _clear_seen(t)
    subscribe(push_service, t.users[1], "one")
    subscribe(push_service, t.users[2], "two")
    page_seen(table_id=t.table.pk, user_id=t.users[2].pk)  # seat 2 looks at the table
    _pass_turn(t, 1)
    deliveries_finish()
    assert t.turn() == 2
    assert push_service.received == []
    # Seat 1 has no page open: the turn coming back is pushed to seat 1, once.
    _pass_turn(t, 2)
    t.act(1, "pick_closed")  # a move within the same turn
    deliveries_finish()
    assert [r.path for r in push_service.received] == ["/push/one"]
    payload = push_service.received[0].payload
    assert payload is not None
    assert payload["kind"] == "your_turn"
    assert payload["title"] == f"Your turn at {t.table.display_name()}"
    assert payload["url"] == f"/tables/{t.table.pk}/"


def _cookie_for(user: Any) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    return [(b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={session}".encode())]


async def _until(check: Any, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the socket did not record the page's visibility")


def test_the_page_tells_its_socket_when_its_tab_is_hidden(
    push_service: PushService, live_two: Any
) -> None:
    """Seat 2's page is open; its tab goes to the background: seat 2's turn is pushed. Back
    in view: the next turn is not. A malformed visibility frame is refused in words."""
    t = live_two
    _clear_seen(t)
    two = t.users[2]
    subscribe(push_service, two, "two")
    seen = lambda: pages_seen(table_id=t.table.pk, user_id=two.pk)  # noqa: E731
    headers = _cookie_for(two)

    async def visit() -> None:
        ws = WebsocketCommunicator(APP, f"/ws/tables/{t.table.pk}/", headers=headers)
        connected, _ = await ws.connect()
        assert connected
        await _until(lambda: seen() == 1)
        await ws.send_to(text_data=json.dumps({"t": "visibility", "hidden": "yes"}))
        while True:
            frame = json.loads(await ws.receive_from(timeout=5))
            if frame["t"] == "refused":
                break
        assert frame["code"] == "bad_message" and frame["text"]
        await ws.send_to(text_data=json.dumps({"t": "visibility", "hidden": True}))
        await _until(lambda: seen() == 0)
        await asyncio.to_thread(_pass_turn, t, 1)  # to seat 2, hidden: pushed
        await ws.send_to(text_data=json.dumps({"t": "visibility", "hidden": False}))
        await _until(lambda: seen() == 1)
        await asyncio.to_thread(_pass_turn, t, 2)
        await asyncio.to_thread(_pass_turn, t, 1)  # to seat 2, in view: not pushed
        await ws.disconnect()
        await _until(lambda: seen() == 0)

    async_to_sync(visit)()
    deliveries_finish()
    assert [r.path for r in push_service.received] == ["/push/two"]


def test_a_computer_players_turn_is_never_pushed(push_service: PushService, live_two: Any) -> None:
    t = live_two
    _clear_seen(t)
    subscribe(push_service, t.users[2], "two")
    Seat.objects.filter(table=t.table, user=t.users[2]).update(is_bot=True)
    _pass_turn(t, 1)
    deliveries_finish()
    assert t.turn() == 2
    assert push_service.received == []
