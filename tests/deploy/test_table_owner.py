"""One owner per table through the proxy (deploy/nginx.conf.template hashes a table's sockets
on the table's id), and what happens when that owner is killed mid-deal (docs/deploy.md, "One
owner per table, and when it goes away"): the sockets close, the move sent just before the kill
goes again as the form's POST, the pages reconnect through the proxy to the other web process,
catch up on what they missed, and play on; when the owner is back, new connects of the table
reach it again. Every acknowledged move is in the move log once, the versions have no gap, and
each page shows what a fresh load of it shows."""

from __future__ import annotations

import asyncio
import itertools
import re
import signal
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
import websockets
from channels.layers import get_channel_layer
from django.test import Client

from rummy_site.channel_layer import CountingPubSubChannelLayer
from tables.live import fanout
from tests.deploy.conftest import SECRET
from tests.deploy.proxy import running_nginx, running_web
from tests.deploy.table_page import TablePage, shown

pytestmark = [pytest.mark.deploy]

# The clients come from different addresses: the hash is on the table, never on the client.
ADDRESSES = ("127.0.0.1", "127.0.0.2", "127.0.0.3")


def _open_sockets(port: int) -> int:
    """The WebSockets a web process holds, as its own /metrics tells (on its private port)."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    found = re.findall(r"^rummy_open_sockets(?:\{[^}]*\})? (\S+)$", text, re.M)
    return int(sum(float(value) for value in found))


def _cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def _connect(proxy: str, table_id: int, cookie: str, address: str) -> Any:
    ws = await websockets.connect(
        f"ws://{proxy}/ws/tables/{table_id}/",
        additional_headers={"Cookie": cookie, "Origin": f"http://{proxy}"},
        local_addr=(address, 0),
        open_timeout=10,
    )
    first = await asyncio.wait_for(ws.recv(), 10)
    assert '"t":"sync"' in str(first), first
    return ws


def test_every_socket_of_a_table_reaches_the_same_web_process_and_tables_spread(
    transactional_db, user_factory, tmp_path, static_root, web_env
):
    from tables.models import TableTemplate
    from tables.services import table_create

    template = TableTemplate.objects.create(
        name="Owner test", variant="pool101", seats_min=2, seats_max=2, entry_fee=100
    )
    # Sixteen tables: all of them on one of two processes would be 1 in 32768 with a fair hash.
    tables = [table_create(template=template) for _ in range(16)]
    cookies = [_cookie(user_factory()) for _ in ADDRESSES]
    with (
        running_web(web_env, tmp_path / "web1.log") as (port1, _proc1),
        running_web(web_env, tmp_path / "web2.log") as (port2, _proc2),
        running_nginx([port1, port2], tmp_path / "run", static_root, SECRET) as proxy,
    ):

        async def open_sockets() -> tuple[int, int]:
            first, second = [await asyncio.to_thread(_open_sockets, p) for p in (port1, port2)]
            return first, second

        async def scenario() -> list[tuple[int, int]]:
            """How many of each table's sockets each process took."""
            took = []
            sockets = []
            try:
                before = await open_sockets()
                for table in tables:
                    for cookie, address in zip(cookies, ADDRESSES, strict=True):
                        sockets.append(await _connect(proxy, table.pk, cookie, address))
                    after = await open_sockets()
                    took.append((after[0] - before[0], after[1] - before[1]))
                    before = after
            finally:
                for ws in sockets:
                    await ws.close()
            return took

        took = asyncio.run(scenario())
    # The three sockets of each table (three clients, three addresses) on one process...
    assert set(took) <= {(3, 0), (0, 3)}, took
    # ...and the tables over both.
    assert set(took) == {(3, 0), (0, 3)}, took


def _two_seat_game(monkeypatch: pytest.MonkeyPatch, user_factory: Callable[..., Any]) -> Any:
    """A two-seat cash Pool 101 table with long turns, both seats taken, seat 1 to play."""
    from tables import services
    from tables.models import TableTemplate
    from tables.services import _context
    from tests.tables.tables_testkit import fund

    monkeypatch.setattr(_context, "game_toss", lambda *, game, seats: 1)
    users = [user_factory(), user_factory()]
    for user in users:
        fund(user, 10_000)
    template = TableTemplate(
        name="Owner killed",
        variant="pool101",
        seats_min=2,
        seats_max=2,
        currency="cash",
        entry_fee=100,
        turn_s=600,
        extra_time_s=0,
    )
    template.full_clean()
    template.save()
    table = services.table_create(template=template)
    for seat, user in enumerate(users, start=1):
        services.table_join(table=table, user=user, seat_no=seat)
    return table, users


@pytest.mark.postgres
@pytest.mark.redis
def test_the_owner_killed_mid_deal_loses_no_move_and_its_pages_catch_up_elsewhere(
    transactional_db, user_factory, tmp_path, static_root, web_env, monkeypatch
):
    from django.db import connections

    from tables.models import Game, Move
    from tests.tables.tables_testkit import TableDriver

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the ORM read between frames
    table, (asha, bilal) = _two_seat_game(monkeypatch, user_factory)
    driver = TableDriver(table, {1: asha, 2: bilal}, clock=None)
    game = driver.game()
    start = game.version
    cookies = {1: _cookie(asha), 2: _cookie(bilal)}
    acked: list[tuple[int, str, int]] = []  # (seat, action, version) of every ack
    with ExitStack() as stack:
        web1 = stack.enter_context(running_web(web_env, tmp_path / "web1.log"))
        web2 = stack.enter_context(running_web(web_env, tmp_path / "web2.log"))
        ports = [web1[0], web2[0]]
        procs = [web1[1], web2[1]]
        proxy = stack.enter_context(running_nginx(ports, tmp_path / "run", static_root, SECRET))
        base = f"http://{proxy}"

        def fetcher(seat: int) -> Callable[[], Any]:
            async def fetch() -> str:
                async with httpx.AsyncClient(base_url=base, timeout=10) as client:
                    answer = await client.get(
                        f"/tables/{table.pk}/view", headers={"Cookie": cookies[seat]}
                    )
                assert answer.status_code == 200
                return answer.text

            return fetch

        def page(seat: int, address: str) -> TablePage:
            return TablePage(
                ws_url=f"ws://{proxy}/ws/tables/{table.pk}/",
                headers={"Cookie": cookies[seat], "Origin": base},
                fetch_view=fetcher(seat),
                local_address=address,
            )

        async def play(pages: dict[int, TablePage], turns: int, *watching: TablePage) -> None:
            """``turns`` turns (pick from the closed deck, discard the card picked), each move
            on the page of the seat to play; every page in step after each."""
            for _turn in range(turns):
                seat = driver.turn()
                assert seat in pages
                for action in ("pick_closed", "discard"):
                    mover = pages[seat]
                    fields = {"action": action, "version": str(mover.version), "game": str(game.pk)}
                    if action == "discard":
                        fields["card"] = driver.view(seat)["hand"]["picked"]
                    answer = await mover.move(fields)
                    assert answer["t"] == "ack", answer
                    acked.append((seat, action, answer["v"]))
                    for each in (*pages.values(), *watching):
                        await each.settled_at(answer["v"])

        async def post_move(seat: int, fields: dict[str, str]) -> int:
            """The move as the action form's POST (htmx), as a page whose socket is down."""
            async with httpx.AsyncClient(base_url=base, timeout=10) as client:
                page_load = await client.get(
                    f"/tables/{table.pk}/", headers={"Cookie": cookies[seat]}
                )
                token = page_load.cookies["csrftoken"]
                answer = await client.post(
                    f"/tables/{table.pk}/act",
                    data=fields,
                    headers={
                        "Cookie": f"{cookies[seat]}; csrftoken={token}",
                        "X-CSRFToken": token,
                        "HX-Request": "true",
                    },
                )
            return answer.status_code

        async def same_as_a_fresh_load(each: TablePage) -> None:
            fresh = await each.fetch_view()
            assert shown(each.html) == shown(fresh)

        async def open_sockets(*alive: int) -> list[int]:
            return [await asyncio.to_thread(_open_sockets, ports[i]) for i in alive]

        async def scenario() -> dict[str, Any]:
            # Asha's two tabs (the second from another address) and Bilal's page.
            a, a2, b = page(1, "127.0.0.1"), page(1, "127.0.0.2"), page(2, "127.0.0.3")
            for each in (a, a2, b):
                await each.load()
                await each.connect()
            counts = await open_sockets(0, 1)
            assert sorted(counts) == [0, 3], counts  # one owner for all three
            owner = counts.index(3)
            other = 1 - owner
            await play({1: a, 2: b}, 1, a2)
            # Bilal picks, sends his discard, and the owner is killed at once: the discard may
            # have been applied or not, and its answer never comes.
            answer = await b.move(
                {"action": "pick_closed", "version": str(b.version), "game": str(game.pk)}
            )
            acked.append((2, "pick_closed", answer["v"]))
            for each in (a, a2):
                await each.settled_at(answer["v"])
            in_flight = {
                "action": "discard",
                "version": str(answer["v"]),
                "game": str(game.pk),
                "card": driver.view(2)["hand"]["picked"],
            }
            lost_answer = await b.send_move(in_flight)
            procs[owner].send_signal(signal.SIGKILL)
            for each in (a, a2, b):
                await asyncio.wait_for(each.closed.wait(), 10)
            assert procs[owner].wait(timeout=10) == -signal.SIGKILL
            try:
                answered = (await lost_answer)["t"] == "ack"  # (in time, on a fast machine)
            except asyncio.CancelledError:
                answered = False
            if answered:
                acked.append((2, "discard", int(in_flight["version"]) + 1))

            # As the page does when its socket closes: the unanswered move goes at once as the
            # form's POST (through the proxy, to a process that is up), with the version it
            # was made at: applied once, or refused as stale if the killed process had
            # committed it.
            status = await post_move(2, in_flight)
            if status in (200, 204):
                assert not answered
                acked.append((2, "discard", int(in_flight["version"]) + 1))
                applied_before_the_kill = False
            else:
                assert status == 409, status
                applied_before_the_kill = True
            # Both players' pages reconnect through the proxy: the table's sockets now reach
            # the other process; each page is told the version and catches up.
            for each in (a, b):
                await each.connect()
            assert await open_sockets(other) == [2]
            # The killed process left the table's group with its Redis connection (the pub/sub
            # layer, the default): the process the sockets moved to is the group's one member.
            layer = get_channel_layer()
            if isinstance(layer, CountingPubSubChannelLayer):
                assert await layer.group_processes(fanout.table_group(table.pk)) == 1
            now = driver.game().version
            for each in (a, b):
                await each.settled_at(now)
                await same_as_a_fresh_load(each)
            await play({1: a, 2: b}, 2)
            reconnected_at = driver.game().version

            # The owner comes back (the same port): new connects of the table go to it again,
            # the open ones stay where they are. Asha's second tab, away since the kill,
            # reconnects there and catches up on everything it missed.
            stack.enter_context(running_web(web_env, tmp_path / "web1b.log", port=ports[owner]))
            behind = a2.version
            since_frames = len(a2.heard)
            await a2.connect()
            assert await open_sockets(owner, other) == [1, 2]
            await a2.settled_at(reconnected_at)
            caught = [f for f in a2.heard[since_frames:] if f["t"] == "felt"]
            # A move made on the other process reaches the tab on this one (the channel layer).
            await play({1: a, 2: b}, 1, a2)
            for each in (a, a2, b):
                await same_as_a_fresh_load(each)
            result = {
                "behind": behind,
                "reconnected_at": reconnected_at,
                "caught": caught,
                "refetches": a2.refetches,
                "interrupted": applied_before_the_kill and not answered,
                "in_flight": int(in_flight["version"]) + 1,
            }
            for each in (a, a2, b):
                await each.close()
            return result

        async def scenario_then_close() -> dict[str, Any]:
            try:
                return await scenario()
            finally:  # the ORM's connection of this event loop's context
                connections.close_all()

        result = asyncio.run(scenario_then_close())

    game = Game.objects.get(pk=game.pk)
    moves = list(Move.objects.filter(game=game).order_by("version"))
    # One move a version, from the first to the game's: no gap, none twice.
    assert [m.version for m in moves] == list(range(1, game.version + 1))
    by_version = {m.version: m for m in moves}
    seats = {asha.pk: 1, bilal.pk: 2}
    # Every acknowledged move is in the log at the version its ack named, made by that seat...
    for seat, action, version in acked:
        move = by_version[version]
        assert (seats[move.actor_id], move.action) == (seat, action), (version, move)
    # ...and the players' moves are exactly those (with the discard the kill interrupted,
    # when it was applied before it): none lost, none twice.
    played = [
        (seats[m.actor_id], m.action, m.version)
        for m in moves
        if m.actor_id is not None and m.version > start
    ]
    interrupted = [(2, "discard", result["in_flight"])] if result["interrupted"] else []
    assert sorted(played) == sorted(acked + interrupted)
    assert len(played) == 10
    # The tab away since the kill caught up with the frames the cache kept, in order (not a
    # fresh load), unless the interrupted discard was committed by the killed process before
    # it could keep that frame.
    caught = result["caught"]
    if result["refetches"] == 0:
        assert caught and caught[0]["from"] == result["behind"], caught
        assert all(x["v"] == y["from"] for x, y in itertools.pairwise(caught))
        assert caught[-1]["v"] == result["reconnected_at"]
    else:
        assert result["interrupted"], result
