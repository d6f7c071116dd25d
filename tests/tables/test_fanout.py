"""One delivery per process (``tables.live.fanout``), through channels' WebsocketCommunicator and
the configured channel layer (Redis in the PostgreSQL run, memory on the embedded default): a
move's frames reach this process's sockets of the table from memory, once each; the other
processes holding sockets of the table get one message a move; a message from another process
is handed to this process's sockets, a seat's parts to that seat's player only; the process
leaves the table's group with its last socket."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels import DEFAULT_CHANNEL_LAYER
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, channel_layers, get_channel_layer
from test_consumers import _connected, _cookie_for, _heard, _text
from test_socket_moves import _fields, _frames_until_answer, _login, _socket

from tables.live import fanout

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two(live_two: Any) -> Any:
    return live_two


async def _everything(ws: Any, quiet: float = 0.3) -> list[str]:
    """Every frame the socket hears until it is quiet, badges too."""
    frames = []
    while not await ws.receive_nothing(timeout=quiet):
        frames.append(await _text(ws))
    return frames


class _OtherProcess:
    """Another web process holding sockets of the table: a layer of its own (its own Redis
    connections and channel names; the in-memory layer of the embedded default is one process,
    so there it is another channel of the same layer), with a channel in the table's group
    read by one task for as long as it is a member, as a process's relay reads its channel."""

    def __init__(self, layer: Any, table_id: int) -> None:
        own = not isinstance(layer, InMemoryChannelLayer)
        self.layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER) if own else layer
        self.group = fanout.table_group(table_id)
        self.table_id = table_id
        self.heard: list[dict[str, Any]] = []

    async def join(self) -> None:
        """Join the table's group and, as a process does with its first socket of the table
        (``fanout.table_listen``), say so to the group."""
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, self.channel)
        hello = {"type": fanout.HELLO_EVENT, "origin": self.channel}
        await self.layer.group_send(self.group, {**hello, "table": self.table_id})
        self.task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            if message.get("origin") != self.channel:  # its own hello comes back to it
                self.heard.append(message)

    async def messages(self, quiet: float = 0.3) -> list[dict[str, Any]]:
        """What it was sent until nothing more came for ``quiet`` seconds (then forgotten)."""
        count = -1
        while count != len(self.heard):
            count = len(self.heard)
            await asyncio.sleep(quiet)
        found, self.heard = self.heard, []
        return found

    async def leave(self) -> None:
        await self.layer.group_discard(self.group, self.channel)
        self.task.cancel()
        if hasattr(self.layer, "close_pools"):  # the core layer
            await self.layer.close_pools()
        elif not isinstance(self.layer, InMemoryChannelLayer):  # pub/sub: its connection
            await self.layer.flush()


def test_a_move_reaches_this_processs_sockets_once_and_other_processes_in_one_message(two):
    """Both seats and a second tab of seat 1 in this process, another process listening: each
    socket gets each frame once (this process's own message to the group is not handed out
    again), and the other process gets one message with the felt and the seats' parts."""
    headers = {seat: _login(two.users[seat])[1] for seat in (1, 2)}
    before = two.game().version
    fields = _fields(two, "pick_closed")
    layer = get_channel_layer()
    assert layer is not None

    async def scenario() -> tuple[list[dict], list[str], list[str], list[dict[str, Any]]]:
        other_process = _OtherProcess(layer, two.table.pk)
        await other_process.join()
        mover, tab, seat2 = (_socket(two.table, h) for h in (headers[1], headers[1], headers[2]))
        for ws in (mover, tab, seat2):
            await _connected(ws)
        assert fanout.table_listeners(two.table.pk) == 3
        for ws in (mover, tab, seat2):
            await _heard(ws, quiet=0.2)  # the badges
        await other_process.messages(quiet=0.2)
        await mover.send_json_to({"t": "move", "a": 1, "d": fields})
        answered = await _frames_until_answer(mover, 1)
        rest = await _heard(mover)
        tab_heard, seat2_heard = await _heard(tab), await _heard(seat2)
        sent = await other_process.messages()
        for ws in (mover, tab, seat2):
            await ws.disconnect()
        await other_process.leave()
        return answered + [json.loads(t) for t in rest], tab_heard, seat2_heard, sent

    mover, tab, seat2, sent = async_to_sync(scenario)()
    after = two.game().version
    assert after == before + 1
    assert [f["t"] for f in mover] == ["felt", "seat", "ack"]  # nothing twice
    tab_frames = [json.loads(t) for t in tab]
    assert [(f["t"], f["v"]) for f in tab_frames] == [("felt", after), ("seat", after)]
    assert tab_frames[1]["html"] == mover[1]["html"]  # the player's other tab: its own parts
    seat2_frames = [json.loads(t) for t in seat2]
    assert [f["t"] for f in seat2_frames if f["t"] == "felt"] == ["felt"]
    assert all(f["html"] != mover[1]["html"] for f in seat2_frames if f["t"] == "seat")
    (message,) = sent  # one message to the other processes for the whole move
    assert message["type"] == fanout.RELAY_EVENT and message["table"] == two.table.pk
    kinds = [(e["type"], e.get("user")) for e in message["events"]]
    assert kinds[0] == ("table.felt", None)  # the felt first
    assert ("table.seat", two.users[1].pk) in kinds


def test_a_message_of_another_process_is_handed_out_a_seats_parts_to_that_seat_only(
    two, user_factory
):
    headers = {seat: _login(two.users[seat])[1] for seat in (1, 2)}
    spectator_headers = _cookie_for(user_factory())
    layer = get_channel_layer()
    assert layer is not None
    felt = json.dumps({"t": "felt", "from": 1, "v": 2, "html": "<i>felt</i>"})
    seat_frame = json.dumps({"t": "seat", "v": 2, "html": "<i>seat one's cards</i>"})
    events = [
        {"type": "table.felt", "frames": {"en": felt}, "from_version": 1, "version": 2, "game": 0},
        {"type": "table.seat", "frame": seat_frame, "version": 2, "game": 0, "user": 0},
        {"type": "table.presence", "seat": 2, "online": False},
    ]
    events[1]["user"] = two.users[1].pk

    async def scenario() -> dict[str, list[str]]:
        sockets = {
            "seat 1": _socket(two.table, headers[1]),
            "seat 2": _socket(two.table, headers[2]),
            "spectator": _socket(two.table, spectator_headers),
        }
        for ws in sockets.values():
            await _connected(ws)
        for ws in sockets.values():
            await _heard(ws, quiet=0.2)
        message = {"type": fanout.RELAY_EVENT, "origin": "", "table": two.table.pk}
        await layer.group_send(fanout.table_group(two.table.pk), {**message, "events": events})
        heard = {name: await _everything(ws) for name, ws in sockets.items()}
        for ws in sockets.values():
            await ws.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    presence = json.dumps({"t": "presence", "seat": 2, "online": False}, separators=(",", ":"))
    assert heard["seat 1"] == [felt, seat_frame, presence]
    assert heard["seat 2"] == [felt, presence]
    assert heard["spectator"] == [felt, presence]


def test_the_process_leaves_the_tables_group_with_its_last_socket(two):
    """With no socket of the table left, a message to the table's group reaches no relay of this
    process (nothing is handed out, nothing waits on its channel), and a new socket starts a new
    relay that hears the table again."""
    headers = _login(two.users[1])[1]
    layer = get_channel_layer()
    assert layer is not None
    felt = json.dumps({"t": "felt", "from": 5, "v": 6, "html": None})
    events = [{"type": "table.felt", "frames": {"en": felt}, "from_version": 5, "version": 6}]
    events[0]["game"] = 0
    message = {"type": fanout.RELAY_EVENT, "origin": "", "table": two.table.pk, "events": events}

    async def scenario() -> tuple[int, list[str]]:
        first = _socket(two.table, headers)
        await _connected(first)
        await first.disconnect()
        left = fanout.table_listeners(two.table.pk)
        await layer.group_send(fanout.table_group(two.table.pk), message)
        again = _socket(two.table, headers)
        await _connected(again)
        await _heard(again, quiet=0.2)  # its badge; the message before it is not replayed
        await layer.group_send(fanout.table_group(two.table.pk), message)
        heard = await _heard(again)
        await again.disconnect()
        return left, heard

    left, heard = async_to_sync(scenario)()
    assert left == 0
    assert heard == [felt]


def test_a_process_holding_every_socket_of_the_table_sends_the_group_nothing(two, monkeypatch):
    """Behind the proxy every socket of a table reaches one process: its moves go to its own
    sockets from memory and no message goes to the table's group, which has no other member.
    The layer is asked that once, not at every change (``ALONE_TRUST_S``); when another process
    joins the group and says hello, the next move asks again and is sent to it."""
    headers = {seat: _login(two.users[seat])[1] for seat in (1, 2)}
    layer = get_channel_layer()
    assert layer is not None
    sends: list[str] = []
    asks: list[str] = []
    group_send, group_has_other = layer.group_send, layer.group_has_other

    async def counted(group: str, message: dict[str, Any]) -> None:
        sends.append(group)
        await group_send(group, message)

    async def asked(group: str, channel: str) -> bool:
        asks.append(group)
        return bool(await group_has_other(group, channel))

    monkeypatch.setattr(layer, "group_send", counted)
    monkeypatch.setattr(layer, "group_has_other", asked)
    first_pick = _fields(two, "pick_closed")

    async def scenario() -> tuple[list[str], int, list[str], list[dict[str, Any]], int]:
        mover, seat2 = (_socket(two.table, h) for h in (headers[1], headers[2]))
        for ws in (mover, seat2):
            await _connected(ws)
        for ws in (mover, seat2):
            await _heard(ws, quiet=0.2)  # the badges
        sends.clear()
        await mover.send_json_to({"t": "move", "a": 1, "d": first_pick})
        await _frames_until_answer(mover, 1)
        alone = await _heard(seat2)
        discard = await database_sync_to_async(
            lambda: _fields(two, "discard", card=two.view(1)["hand"]["picked"])
        )()
        await mover.send_json_to({"t": "move", "a": 2, "d": discard})
        await _frames_until_answer(mover, 2)
        await _heard(seat2)
        sent_alone, asked_alone = list(sends), len(asks)
        other_process = _OtherProcess(layer, two.table.pk)
        await other_process.join()
        await asyncio.sleep(0.2)  # its hello reaches this process's relay
        pick = await database_sync_to_async(lambda: _fields(two, "pick_closed"))()
        await seat2.send_json_to({"t": "move", "a": 1, "d": pick})
        await _frames_until_answer(seat2, 1)
        await _heard(mover)
        sent, asked = await other_process.messages(), len(asks)
        await other_process.leave()
        for ws in (mover, seat2):
            await ws.disconnect()
        return sent_alone, asked_alone, alone, sent, asked

    sent_alone, asked_alone, alone, sent, asked = async_to_sync(scenario)()
    assert sent_alone == []  # two moves: nobody else to tell
    assert asked_alone == 1  # the layer asked once (at the first badge): not at every change
    heard = [json.loads(t) for t in alone]  # this process's other socket heard the move
    assert heard[0]["t"] == "felt" and heard[0]["v"] == two.game().version - 2
    (message,) = sent  # the third move: one message for the process that joined
    assert message["type"] == fanout.RELAY_EVENT and message["table"] == two.table.pk
    assert asked == 2  # the hello ended the trust: asked again, and told
