"""A table this process owns (``fanout.table_owned``: every socket of it held here): a move on its
socket remembers what it pushed in the process's memory and makes no cache call for it
(``tables.live.sent``), through channels' WebsocketCommunicator and the configured channel layer
and cache (Redis in the PostgreSQL run, memory on the embedded default). Any other push (a
service call as a POST or a timer makes, a table another process holds sockets of) still goes
through the cache, taking this memory where the cache lacks the version; ``since`` is answered
from both."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.test import override_settings
from test_consumers import _connected, _heard
from test_fanout import _OtherProcess
from test_socket_moves import _fields, _frames_until_answer, _login, _socket

from tables.live import fanout, moves, sent
from tables.live.sent import (
    Sent,
    history_since,
    owned_forget,
    sent_flush,
    sent_read,
    sent_read_owned,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two(live_two: Any) -> Any:
    return live_two


def _cached_at(two: Any, version: int) -> bool:
    """Whether the cache (as another process reads it) holds the felt pushed at ``version``."""
    found, _also = sent_read(game_id=two.game().pk, languages=["en"], user_ids=[])
    return found.felt_at("en", version) is not None


def _remembered_at(two: Any, version: int) -> bool:
    """Whether this process can tell what it pushed at ``version`` (cache or memory)."""
    found, _also = sent_read(
        game_id=two.game().pk, languages=["en"], user_ids=[], from_version=version
    )
    return found.felt_at("en", version) is not None


def _play_turn_on_sockets(
    two: Any, *, other_process: bool = False, between: Callable[[], object] | None = None
) -> dict[str, Any]:
    """Seat 1 picks and discards over its socket, both seats' sockets open (and another process
    in the table's group when ``other_process``; ``between`` run after the pick); what each
    socket heard and what the process said it owned before each move."""
    headers = {seat: _login(two.users[seat])[1] for seat in (1, 2)}
    layer = get_channel_layer()
    assert layer is not None

    async def scenario() -> dict[str, Any]:
        other = _OtherProcess(layer, two.table.pk) if other_process else None
        if other is not None:
            await other.join()
        sockets = {seat: _socket(two.table, headers[seat]) for seat in (1, 2)}
        for ws in sockets.values():
            await _connected(ws)
        for ws in sockets.values():
            await _heard(ws, quiet=0.2)  # the badges
        owned, mover, watcher = [], [], []
        for counter, action in ((1, "pick_closed"), (2, "discard")):
            extra = {}
            if action == "discard":
                view = await database_sync_to_async(two.view)(1)
                extra["card"] = view["hand"]["picked"]
            fields = await database_sync_to_async(_fields)(two, action, **extra)
            owned.append(fanout.table_owned(two.table.pk))
            await sockets[1].send_json_to({"t": "move", "a": counter, "d": fields})
            mover += await _frames_until_answer(sockets[1], counter)
            watcher += [json.loads(text) for text in await _heard(sockets[2])]
            if between is not None and action == "pick_closed":
                await database_sync_to_async(between)()
        for ws in sockets.values():
            await ws.disconnect()
        if other is not None:
            await other.leave()
        return {"owned": owned, "mover": mover, "watcher": watcher}

    return async_to_sync(scenario)()


def _cache_emptied() -> None:
    """As if Redis restarted between two moves (what was written behind the first, too)."""
    assert sent_flush()
    cache.clear()


def test_an_owned_tables_moves_are_told_against_the_processs_memory_not_the_cache(two):
    start = two.game().version
    heard = _play_turn_on_sockets(two, between=_cache_emptied)
    now = two.game().version
    assert now == start + 2
    ids = {two.users[1].pk: 1, two.users[2].pk: 1}
    assert heard["owned"] == [ids, ids]  # every socket of the table is here
    felts = [f for f in heard["watcher"] if f["t"] == "felt"]
    assert [(f["from"], f["v"]) for f in felts] == [(start, start + 1), (start + 1, now)]
    # Told against what the process remembers, the cache emptied: the regions that changed,
    # not the whole felt; the players' badges still online (the process's sockets).
    assert all('id="felt-root"' not in f["html"] for f in felts)
    assert "pile-open" in felts[1]["html"]
    assert _remembered_at(two, now)
    # The cache gets it behind the move, for a process that reads it (a timer's push).
    assert sent_flush()
    assert _cached_at(two, now)


def test_since_on_an_owned_table_is_answered_from_the_processs_memory(two):
    start = two.game().version
    _play_turn_on_sockets(two)
    now = two.game().version
    headers = _login(two.users[2])[1]
    game_id = two.game().pk

    async def scenario() -> list[dict[str, Any]]:
        ws = _socket(two.table, headers)
        await _connected(ws)
        await _heard(ws, quiet=0.2)
        await ws.send_json_to({"t": "since", "v": start, "g": game_id})
        frames = [json.loads(text) for text in await _heard(ws)]
        await ws.disconnect()
        return frames

    frames = async_to_sync(scenario)()
    assert [f["t"] for f in frames] == ["felt", "felt", "seat", "sync"]
    assert [(f["from"], f["v"]) for f in frames[:2]] == [(start, start + 1), (start + 1, now)]
    assert frames[-1]["v"] == now
    # Another process (this one restarted) finds them in the cache, written behind the moves.
    assert sent_flush()
    owned_forget()
    assert [f[:2] for f in history_since(game_id=game_id, version=start, current=now) or []] == [
        (start, start + 1),
        (start + 1, now),
    ]


def test_a_push_from_elsewhere_after_owned_moves_is_told_against_the_processs_memory(two):
    """A change pushed through the cache (a POST, a timer, a table not owned here) after owned
    moves finds the cache without the version it starts from: it takes the process's memory,
    sends only the regions that changed, and writes the cache for any process to read."""
    _play_turn_on_sockets(two, between=_cache_emptied)
    assert sent_flush()
    cache.clear()  # the owned moves' writes lost (Redis restarted)
    version = two.game().version
    assert not _cached_at(two, version)
    fields = _fields(two, "pick_closed")
    done = moves.socket_move(table_id=two.table.pk, user=two.users[2], fields=fields)
    assert done.version == version + 1
    (felt,) = (e for e in done.outbox if e["type"] == "table.felt")
    (text,) = felt["frames"].values()
    frame = json.loads(text)
    assert (frame["from"], frame["v"]) == (version, version + 1)
    assert 'id="felt-root"' not in frame["html"]
    assert _cached_at(two, version + 1)


def test_a_table_another_process_holds_sockets_of_is_pushed_through_the_cache(two):
    heard = _play_turn_on_sockets(two, other_process=True)
    assert heard["owned"] == [None, None]
    assert _cached_at(two, two.game().version)


@override_settings(LIVE_OWNED_GAMES=0)
def test_with_no_owned_games_every_push_goes_through_the_cache(two):
    heard = _play_turn_on_sockets(two)
    assert heard["owned"][0] is not None  # the table is held here ...
    assert _cached_at(two, two.game().version)  # ... and still written to the cache


def test_an_owned_push_renders_parts_only_for_players_with_a_socket_here(two):
    """The presence counts of an owned table are this process's sockets: a seated player with
    none gets no parts rendered, and the felt shows that player offline."""
    seat1, seat2 = two.users[1], two.users[2]
    fields = _fields(two, "pick_closed")
    done = moves.socket_move(table_id=two.table.pk, user=seat1, fields=fields, owned={seat1.pk: 1})
    assert done.version == two.game().version
    parts = [e["user"] for e in done.outbox if e["type"] == "table.seat"]
    assert parts == [seat1.pk]
    (felt,) = (e for e in done.outbox if e["type"] == "table.felt")
    (text,) = felt["frames"].values()
    assert 'class="conn on"' in json.loads(text)["html"]  # seat 1's badge
    assert json.loads(text)["html"].count('class="conn on"') == 1  # not seat 2's
    card = two.view(1)["hand"]["picked"]
    fields = _fields(two, "discard", card=card)
    both = {seat1.pk: 1, seat2.pk: 2}
    done = moves.socket_move(table_id=two.table.pk, user=seat1, fields=fields, owned=both)
    parts = [e["user"] for e in done.outbox if e["type"] == "table.seat"]
    assert sorted(parts) == sorted([seat1.pk, seat2.pk])


def _owned_push(game_id: int, from_version: int, *, language: str = "en") -> None:
    """What a push of an owned table writes: a felt at ``from_version + 1`` and its frame."""
    found, _reads = sent_read_owned(
        game_id=game_id,
        languages=[language],
        user_ids=[],
        also=[],
        from_version=from_version,
        reread=False,
    )
    found.felt_sent(language, (from_version + 1, "shape", {"region": "digest"}))
    found.history(from_version=from_version, version=from_version + 1, html={language: "<i/>"})
    sent.sent_write(found)


@override_settings(LIVE_OWNED_GAMES=2)
def test_the_process_remembers_the_newest_owned_games_only():
    for game_id in (9_000_001, 9_000_002, 9_000_003):
        _owned_push(game_id, 4)
    assert sent_flush()
    cache.clear()  # what was written behind them: only the memory is asked
    remembered = {
        game_id: sent_read(game_id=game_id, languages=["en"], user_ids=[], from_version=5)[
            0
        ].felt_at("en", 5)
        is not None
        for game_id in (9_000_001, 9_000_002, 9_000_003)
    }
    assert remembered == {9_000_001: False, 9_000_002: True, 9_000_003: True}
    assert history_since(game_id=9_000_001, version=4, current=5) is None


def test_history_since_joins_the_owned_frames_and_the_caches_in_order():
    game_id = 9_000_010
    _owned_push(game_id, 7)  # 7 -> 8 in this process's memory (and lost from the cache)
    assert sent_flush()
    cache.clear()
    elsewhere = Sent(game_id=game_id)  # 8 -> 9 pushed through the cache (a timer's push)
    elsewhere.felt_sent("en", (9, "shape", {}))
    elsewhere.history(from_version=8, version=9, html=None)
    sent.sent_write(elsewhere)
    frames = history_since(game_id=game_id, version=7, current=9)
    assert frames == [(7, 8, {"en": "<i/>"}), (8, 9, None)]
    _owned_push(game_id, 9)
    assert [f[:2] for f in history_since(game_id=game_id, version=7, current=10) or []] == [
        (7, 8),
        (8, 9),
        (9, 10),
    ]
