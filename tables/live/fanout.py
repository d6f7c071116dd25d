"""A process's table sockets, and one delivery per process for each change of a table.

Every table socket of a web process is listed here by table (``table_listen``). The process,
not each socket, joins the table's group on the channel layer, with one channel of its own (its
relay), however many sockets of the table it holds. A change of a table is published once
(``table_publish``): its events (the felt, each seat's parts with the user they belong to, a
seat's online badge) go

- to the table's sockets in this process straight from memory, when the change was made here
  (a move on a socket, a badge, a POST answered by this process): no Redis, no serialising;
- as one message to the table's group for every other process that holds sockets of the table,
  whose relay hands each event to its own sockets of the table: the felt to all of them, a
  seat's parts only to that seat's player. When the group has no member but this process's
  relay (the usual case behind the proxy), no message is sent; else this process's relay drops
  its own.

Whether the group has another member is asked of the channel layer (a round trip to Redis) at
most once a minute per table while the answer is no (``ALONE_TRUST_S``): a process that comes to
hold a socket of a table it held none of tells the table's group (``relay.hello``), and the
processes in it ask again at their next change of the table. A socket that reaches another
process during a failover so misses no more than it did when the layer was asked every change:
the changes made between the page's load and its process's joining the group, which the next
frame's ``from`` version shows the page (it catches up on its socket).

A change made where no socket is held (a Celery worker's timer, the embedded timer loop's thread)
goes only to the group. With the proxy hashing every socket of a table to one web process
(``deploy/nginx.conf.template``), a table's frames never leave the process that holds its
sockets; the group is still told, for a socket that reached another process (opened to it
directly, or during a failover).

A seat's parts cross the channel layer inside the relay message but are handed to that seat's
sockets only (``_hand_out``): no socket is ever sent another seat's cards. The state is kept per
event loop (daphne runs one; tests open several, one after another).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from channels.layers import BaseChannelLayer, get_channel_layer

logger = logging.getLogger(__name__)

Event = dict[str, Any]  # a channel-layer event: msgpack-able values, told apart by "type"

RELAY_EVENT = "relay.events"
HELLO_EVENT = "relay.hello"  # a process has come to hold sockets of the table

# Seconds a process trusts the channel layer's answer that no other process holds sockets of a
# table (``_others_listen``). A hello ends the trust at once; the limit bounds a hello that never
# arrived (the relay's subscription down as it was sent).
ALONE_TRUST_S = 60.0


def table_group(table_id: int) -> str:
    """The web processes that hold sockets of the table (each once, by its relay channel)."""
    return f"table-{table_id}"


class Listener(Protocol):
    """A table socket as the relay hands it events (``tables.live.consumers.TableConsumer``)."""

    table_id: int
    user_id: int

    async def table_felt(self, event: Event) -> None: ...

    async def table_seat(self, event: Event) -> None: ...

    async def table_presence(self, event: Event) -> None: ...


@dataclass
class _Process:
    """This event loop's table sockets by table, and its relay on the channel layer."""

    layer: BaseChannelLayer
    channel: str
    tables: dict[int, list[Listener]] = field(default_factory=dict)
    membership: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None
    stopped: bool = False  # its last socket left: the loop starts a new relay for the next
    # Tables no other process holds sockets of, as the layer last said: until when it is trusted.
    alone: dict[int, float] = field(default_factory=dict)
    hellos: int = 0  # hellos heard, to tell one that came while the layer was being asked


_processes: WeakKeyDictionary[asyncio.AbstractEventLoop, _Process] = WeakKeyDictionary()
_starting: WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = WeakKeyDictionary()


async def _process() -> _Process | None:
    """This loop's relay, started on first use (``None``: no channel layer is configured)."""
    loop = asyncio.get_running_loop()
    found = _processes.get(loop)
    if found is not None:
        return found
    layer = get_channel_layer()
    if layer is None:
        return None
    starting = _starting.setdefault(loop, asyncio.Lock())
    async with starting:
        found = _processes.get(loop)
        if found is None:
            found = _Process(layer=layer, channel=await layer.new_channel())
            found.task = loop.create_task(_relay(found), name="table-relay")
            _processes[loop] = found
    return found


async def _relay(process: _Process) -> None:
    """Hand every change another process published to this process's sockets of its table."""
    while True:
        try:
            message = await process.layer.receive(process.channel)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # Redis down: pages poll their view and reconnect meanwhile
            logger.warning("relay: the channel layer is unavailable: %s", error)
            process.alone.clear()  # a hello may have been missed meanwhile
            await asyncio.sleep(1.0)
            continue
        if message.get("origin") == process.channel:
            continue
        if message.get("type") == HELLO_EVENT:
            process.hellos += 1
            process.alone.pop(int(message["table"]), None)
        elif message.get("type") == RELAY_EVENT:
            await _hand_out(process, int(message["table"]), message["events"])


async def table_listen(listener: Listener) -> None:
    """List a socket of the table; the process joins the table's group (again: that renews
    the membership's expiry) and, with its first socket of the table, says so to the group's
    other members. Raises when the channel layer is down."""
    while True:
        process = await _process()
        if process is None:
            return
        async with process.membership:
            if process.stopped:
                continue
            group = table_group(listener.table_id)
            await process.layer.group_add(group, process.channel)
            if not process.tables.get(listener.table_id):
                hello = {"type": HELLO_EVENT, "origin": process.channel}
                await process.layer.group_send(group, {**hello, "table": listener.table_id})
            process.tables.setdefault(listener.table_id, []).append(listener)
            return


async def table_unlisten(listener: Listener) -> None:
    """Take a socket off the list; the process leaves the table's group with its last one."""
    process = _processes.get(asyncio.get_running_loop())
    if process is None:
        return
    async with process.membership:
        held = process.tables.get(listener.table_id, [])
        if listener in held:
            held.remove(listener)
        if held:
            return
        process.tables.pop(listener.table_id, None)
        process.alone.pop(listener.table_id, None)  # out of the group: its hellos go unheard
        try:
            await process.layer.group_discard(table_group(listener.table_id), process.channel)
        finally:
            if not process.tables:  # no socket left: the relay stops with the loop's last one
                _stop(process)


def _stop(process: _Process) -> None:
    loop = asyncio.get_running_loop()
    if _processes.get(loop) is process:
        del _processes[loop]
    process.stopped = True
    if process.task is not None:
        process.task.cancel()


def table_listeners(table_id: int) -> int:
    """How many sockets of the table this event loop holds (for tests and the benchmarks)."""
    try:
        process = _processes.get(asyncio.get_running_loop())
    except RuntimeError:
        return 0
    return len(process.tables.get(table_id, ())) if process is not None else 0


def table_owned(table_id: int) -> dict[int, int] | None:
    """This event loop's sockets of the table by player (how many each has open), when the
    process holds every socket of the table, as the channel layer last said and no hello has
    said otherwise since (``ALONE_TRUST_S``); ``None`` when another process may hold some, or
    when that was not asked lately. Called on the event loop, before a move on the table."""
    try:
        process = _processes.get(asyncio.get_running_loop())
    except RuntimeError:
        return None
    if process is None or process.alone.get(table_id, 0.0) <= time.monotonic():
        return None
    counts: dict[int, int] = {}
    for listener in process.tables.get(table_id, ()):
        counts[listener.user_id] = counts.get(listener.user_id, 0) + 1
    return counts


async def table_publish(table_id: int, events: Sequence[Event]) -> None:
    """Publish one change of a table: its ``events``, in order, to this process's sockets of the
    table from memory, then as one message to the other processes that hold some."""
    if not events:
        return
    process = _processes.get(asyncio.get_running_loop())
    if process is not None:
        await _hand_out(process, table_id, events)
        if not await _others_listen(process, table_id):
            return  # every socket of the table is here: no other process to tell
    layer = process.layer if process is not None else get_channel_layer()
    if layer is None:
        return
    message = {
        "type": RELAY_EVENT,
        "origin": process.channel if process is not None else "",
        "table": table_id,
        "events": list(events),
    }
    await layer.group_send(table_group(table_id), message)


class _KnowsMembers(Protocol):
    async def group_has_other(self, group: str, channel: str) -> bool: ...


async def _others_listen(process: _Process, table_id: int) -> bool:
    """Whether another process holds sockets of the table (is in its group besides this
    process's relay). A layer that cannot tell is told every change. A no is trusted for
    ``ALONE_TRUST_S`` while this process is in the group, unless a hello comes."""
    layer = process.layer
    if not hasattr(layer, "group_has_other"):
        return True
    now = time.monotonic()
    if process.alone.get(table_id, 0.0) > now:
        return False
    members: _KnowsMembers = layer
    hellos = process.hellos
    if await members.group_has_other(table_group(table_id), process.channel):
        process.alone.pop(table_id, None)
        return True
    if hellos == process.hellos and table_id in process.tables:
        process.alone[table_id] = now + ALONE_TRUST_S
    return False


async def _hand_out(process: _Process, table_id: int, events: Sequence[Event]) -> None:
    """Each event to the table's sockets it is for: a seat's parts to that seat's player only."""
    for event in events:
        kind = event.get("type")
        for listener in tuple(process.tables.get(table_id, ())):
            try:
                if kind == "table.felt":
                    await listener.table_felt(event)
                elif kind == "table.seat":
                    if listener.user_id == event.get("user"):
                        await listener.table_seat(event)
                elif kind == "table.presence":
                    await listener.table_presence(event)
            except Exception:  # one socket closing as it is sent to must not stop the others
                logger.debug("relay: a socket of table %s missed an event", table_id, exc_info=True)
