"""Moves over the table's socket (docs/table-socket.md), through channels' WebsocketCommunicator
and the configured channel layer and cache (Redis in the PostgreSQL run, memory on the embedded
default): acks, every refusal the POST makes, repeats, floods, catching up with ``since``, and
sockets closed when the session ends."""

from __future__ import annotations

import html
import itertools
import json
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse
from test_consumers import APP, _codes_in, _connected, _heard, _public_cards

from tables.live.sent import sent_forget
from tables.models import Move

pytestmark = pytest.mark.django_db(transaction=True)


def _login(user: Any) -> tuple[Client, list[tuple[bytes, bytes]]]:
    client = Client()
    client.force_login(user)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    return client, [(b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={session}".encode())]


@pytest.fixture
def two(live_two: Any) -> Any:
    return live_two


def _socket(table: Any, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    return WebsocketCommunicator(APP, f"/ws/tables/{table.pk}/", headers=headers)


async def _frames_until_answer(ws: WebsocketCommunicator, counter: int | None) -> list[dict]:
    """Every frame up to and with the answer (``ack`` or ``refused``) to move ``counter``."""
    frames = []
    while True:
        frame = json.loads(await ws.receive_from(timeout=10))
        if frame["t"] != "presence":
            frames.append(frame)
        if frame["t"] in ("ack", "refused") and frame["a"] == counter:
            return frames


def _fields(t: Any, action: str, **extra: str) -> dict[str, str]:
    game = t.game()
    return {"action": action, "version": str(game.version), "game": str(game.pk), **extra}


def _move_count(t: Any) -> int:
    return Move.objects.filter(game=t.game()).count()


def test_a_move_is_acked_after_the_movers_own_frames_and_every_seat_hears_the_felt(two):
    headers = {seat: _login(two.users[seat])[1] for seat in (1, 2)}
    before = two.game().version
    fields = _fields(two, "pick_closed")

    async def scenario() -> tuple[list[dict], list[str]]:
        sockets = {seat: _socket(two.table, headers[seat]) for seat in (1, 2)}
        for ws in sockets.values():
            await _connected(ws)
        for ws in sockets.values():
            await _heard(ws, quiet=0.2)  # the badges
        await sockets[1].send_json_to({"t": "move", "a": 1, "d": fields})
        mover = await _frames_until_answer(sockets[1], 1)
        other = await _heard(sockets[2])
        for ws in sockets.values():
            await ws.disconnect()
        return mover, other

    mover, other = async_to_sync(scenario)()
    after = two.game().version
    assert after == before + 1
    assert [f["t"] for f in mover] == ["felt", "seat", "ack"]
    assert (mover[0]["from"], mover[0]["v"]) == (before, after)
    assert mover[1]["v"] == after and mover[2] == {"t": "ack", "a": 1, "v": after}
    picked = two.view(1)["hand"]["picked"]
    assert picked in _codes_in(mover[1]["html"])  # the mover's own hand, with the card taken
    heard = [json.loads(m) for m in other]
    # The other seat: the felt, and its own parts when they change; never the mover's cards.
    assert heard[0]["t"] == "felt" and {f["t"] for f in heard[1:]} <= {"seat"}
    theirs = set(two.view(2)["hand"]["cards"]) | _public_cards(two)  # two packs: a twin
    for frame in heard:
        assert picked not in _codes_in(frame["html"] or "") - theirs


def _post(client: Client, table: Any, fields: dict[str, str]) -> tuple[int, str]:
    response = client.post(reverse("table_act", args=[table.pk]), fields, HTTP_HX_REQUEST="true")
    return response.status_code, html.unescape(response.content.decode())


REFUSALS = [
    # (who sends, fields (a function of the table driver), the code, the status)
    ("seat 2", lambda t: _fields(t, "pick_closed"), "not_seats_turn", 400),
    ("spectator", lambda t: _fields(t, "pick_closed"), "not_playing", 400),
    ("seat 1", lambda t: {**_fields(t, "pick_closed"), "version": "0"}, "stale", 409),
    ("seat 1", lambda t: _fields(t, "fly"), "unknown_action", 400),
    ("seat 1", lambda t: _fields(t, "discard", card="QQQQQQQQQQ"), "bad_form", 400),
    ("seat 1", lambda t: {**_fields(t, "pick_closed"), "version": "x"}, "bad_form", 400),
    (
        "seat 1",
        lambda t: _fields(t, "declare", groups="[[[[[]]]]]", finish_card="QH"),
        "bad_form",
        400,
    ),
    ("seat 1", lambda t: _fields(t, "pick_closed", extra="x" * 3000), "bad_form", 400),
]


@pytest.mark.parametrize(("who", "make_fields", "code", "status"), REFUSALS)
def test_each_refusal_of_the_post_is_made_on_the_socket_and_changes_nothing(
    two, user_factory, who, make_fields, code, status
):
    user = user_factory() if who == "spectator" else two.users[int(who.split()[1])]
    client, headers = _login(user)
    fields = make_fields(two)
    before, moves = two.game().version, _move_count(two)

    async def scenario() -> list[dict]:
        ws = _socket(two.table, headers)
        await _connected(ws)
        await ws.send_json_to({"t": "move", "a": 7, "d": fields})
        frames = await _frames_until_answer(ws, 7)
        await ws.disconnect()
        return frames

    *_, answer = async_to_sync(scenario)()
    assert answer["t"] == "refused" and answer["a"] == 7
    assert (answer["code"], answer["status"]) == (code, status), answer
    assert (two.game().version, _move_count(two)) == (before, moves)
    # The POST with the same fields refuses it the same way, in the same words.
    post_status, post_body = _post(client, two.table, fields)
    assert post_status == status
    if status != 409:
        assert answer["text"].rstrip(".") in post_body
        assert answer["html"] is None or 'id="action-error"' in answer["html"]
    assert (two.game().version, _move_count(two)) == (before, moves)


@pytest.mark.parametrize(
    "message",
    [
        "not json",
        "[1, 2]",
        json.dumps({"t": "dance"}),
        json.dumps({"t": "move", "a": "one", "d": {}}),
        json.dumps({"t": "move", "a": 1, "d": "pick"}),
        json.dumps({"t": "move", "a": 1, "d": {"action": {"deep": [[[[1]]]]}}}),
        "[" * 20000 + "]" * 20000,
        json.dumps({"t": "move", "a": 1, "d": {"action": "x" * 17000}}),
    ],
    ids=["text", "list", "unknown", "counter", "data", "nested", "deep", "oversize"],
)
def test_a_malformed_message_is_refused_and_changes_nothing(two, message):
    _client, headers = _login(two.users[1])
    before, moves = two.game().version, _move_count(two)

    async def scenario() -> dict:
        ws = _socket(two.table, headers)
        await _connected(ws)
        await ws.send_to(text_data=message)
        while True:  # the seat's own badge may come first
            answer = json.loads(await ws.receive_from(timeout=10))
            if answer["t"] != "presence":
                break
        await ws.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert answer["t"] == "refused" and answer["code"] in ("bad_message", "bad_form"), answer
    assert answer["status"] == 400 and answer["text"]
    assert (two.game().version, _move_count(two)) == (before, moves)


def test_a_move_sent_twice_is_applied_and_acked_once(two):
    _client, headers = _login(two.users[1])
    before = two.game().version
    fields = _fields(two, "pick_closed")

    async def scenario() -> list[str]:
        ws = _socket(two.table, headers)
        await _connected(ws)
        await ws.send_json_to({"t": "move", "a": 1, "d": fields})
        await ws.send_json_to({"t": "move", "a": 1, "d": fields})  # a double click
        heard = await _heard(ws, quiet=0.5)
        await ws.disconnect()
        return heard

    kinds = [json.loads(m)["t"] for m in async_to_sync(scenario)()]
    assert kinds.count("ack") == 1 and "refused" not in kinds
    assert two.game().version == before + 1
    assert Move.objects.filter(game=two.game(), action="pick_closed").count() == 1


def test_a_move_makes_no_thread_hop_before_it_runs(two, monkeypatch):
    """Channels hops to a thread before each message a consumer handles, to close stale
    database connections; the table socket skips that hop for a page's message, whose database
    work closes them in its own thread. Connecting and closing still take it."""
    import channels.consumer

    _client, headers = _login(two.users[1])
    hops: list[str] = []
    close_old = channels.consumer.aclose_old_connections

    async def counted() -> None:
        hops.append("hop")
        await close_old()

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    fields = _fields(two, "pick_closed")
    before = two.game().version

    async def scenario() -> tuple[int, int, list[dict]]:
        ws = _socket(two.table, headers)
        await _connected(ws)
        connected = len(hops)
        await ws.send_json_to({"t": "move", "a": 1, "d": fields})
        answer = await _frames_until_answer(ws, 1)
        moved = len(hops)
        await ws.disconnect()
        return connected, moved, answer

    connected, moved, answer = async_to_sync(scenario)()
    assert connected == 1 and moved == 1  # the connect took the hop, the move did not
    assert len(hops) == 2  # and so did the close
    assert answer[-1]["t"] == "ack" and two.game().version == before + 1


class GoneWhenTold:
    """The table's socket application, sending as daphne does once the page has gone: a frame
    sent on the closed socket raises ``Disconnected``."""

    def __init__(self) -> None:
        self.gone = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def sending(message: dict[str, Any]) -> None:
            if self.gone and message["type"] == "websocket.send":
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        await APP(scope, receive, sending)


def test_a_move_whose_page_left_still_reaches_the_other_seats(two):
    """The mover's page closes while its move runs: the move stands, its own frames and answer
    go nowhere, and the other seats still hear it."""
    headers = {seat: _login(two.users[seat])[1] for seat in (1, 2)}
    before = two.game().version
    fields = _fields(two, "pick_closed")
    app = GoneWhenTold()

    async def scenario() -> list[str]:
        mover = WebsocketCommunicator(app, f"/ws/tables/{two.table.pk}/", headers=headers[1])
        other = _socket(two.table, headers[2])
        for ws in (mover, other):
            await _connected(ws)
        for ws in (mover, other):
            await _heard(ws, quiet=0.2)  # the badges
        app.gone = True
        await mover.send_json_to({"t": "move", "a": 1, "d": fields})
        heard = await _heard(other, quiet=0.5)
        assert await mover.receive_nothing(timeout=0.2)
        await other.disconnect()
        await mover.disconnect()
        return heard

    heard = [json.loads(text) for text in async_to_sync(scenario)()]
    assert two.game().version == before + 1
    felt = [frame for frame in heard if frame["t"] == "felt"]
    assert [(f["from"], f["v"]) for f in felt] == [(before, before + 1)]


def test_a_flood_from_one_socket_is_throttled_then_closed_and_other_tables_play_on(
    two, seated, settings
):
    settings.SOCKET_STRIKES_TO_CLOSE = 100
    # The bucket hardly refills during the test: on a loaded machine each stale move the burst
    # lets through takes long enough to earn a token back at the real rate, and a message taken
    # in the middle of the flood would start the count of refusals in a row again.
    settings.SOCKET_MESSAGES_PER_S = 0.01
    other = seated(2)
    _client, flood_headers = _login(two.users[1])
    _client, calm_headers = _login(other.users[1])
    before = two.game().version
    stale = {**_fields(two, "pick_closed"), "version": "0"}
    calm_fields = _fields(other, "pick_closed")

    async def scenario() -> tuple[list[dict], float, dict]:
        flood, calm = _socket(two.table, flood_headers), _socket(other.table, calm_headers)
        await _connected(flood)
        await _connected(calm)
        for counter in range(1, 201):
            await flood.send_json_to({"t": "move", "a": counter, "d": stale})
        started = time.monotonic()
        await calm.send_json_to({"t": "move", "a": 1, "d": calm_fields})
        (*_, calm_answer) = await _frames_until_answer(calm, 1)
        took = time.monotonic() - started
        flood_frames = []
        while True:
            # (a generous wait for each frame: on a loaded machine with SQLite the stale
            # moves' reads queue behind the other table's write; the test is about order and
            # the close, not speed)
            output = await flood.receive_output(timeout=30)
            if output["type"] == "websocket.close":
                flood_frames.append({"t": "closed", "code": output["code"]})
                break
            flood_frames.append(json.loads(output["text"]))
        await calm.disconnect()
        return flood_frames, took, calm_answer

    flood_frames, took, calm_answer = async_to_sync(scenario)()
    assert calm_answer["t"] == "ack"
    assert took < 5, f"the other table's move waited {took:.1f} s behind the flood"
    codes = [f.get("code") for f in flood_frames if f["t"] == "refused"]
    assert codes.count("slow_down") >= 60 and set(codes) <= {"slow_down", "stale"}
    assert flood_frames[-1] == {"t": "closed", "code": 4429}
    assert two.game().version == before


def test_since_replays_the_missed_felt_then_the_players_own_parts(two, user_factory):
    _client, headers = _login(two.users[2])
    _client, spectator = _login(user_factory())
    game = two.game()
    start = game.version
    two.act(1, "pick_closed")
    card = two.view(1)["hand"]["picked"]
    two.act(1, "discard", card=card)
    two.act(2, "pick_closed")
    now = two.game().version

    async def scenario(cookie: list[tuple[bytes, bytes]]) -> list[dict]:
        ws = _socket(two.table, cookie)
        await _connected(ws)
        await _heard(ws, quiet=0.2)
        await ws.send_json_to({"t": "since", "v": start, "g": game.pk})
        frames: list[dict] = []
        while not frames or frames[-1]["t"] != "sync":
            frame = json.loads(await ws.receive_from(timeout=10))
            if frame["t"] != "presence":
                frames.append(frame)
        await ws.disconnect()
        return frames

    frames = async_to_sync(scenario)(headers)
    felts = [f for f in frames if f["t"] == "felt"]
    assert [f["t"] for f in frames] == ["felt"] * len(felts) + ["seat", "sync"]
    assert felts[0]["from"] == start and felts[-1]["v"] == now
    assert all(a["v"] == b["from"] for a, b in itertools.pairwise(felts))
    own = set(two.view(2)["hand"]["cards"])
    theirs = set(two.view(1)["hand"]["cards"]) - own
    seat = frames[-2]
    assert seat["v"] == now and own <= _codes_in(seat["html"])
    public = _public_cards(two) | {card}
    for felt in felts:
        assert not (_codes_in(felt["html"] or "") & (own | theirs)) - public
    assert not (_codes_in(seat["html"]) & theirs) - public
    # A spectator catches up on the felt alone: no seat's parts.
    watched = async_to_sync(scenario)(spectator)
    assert [f["t"] for f in watched] == ["felt"] * len(felts) + ["sync"]


def test_since_answers_refetch_when_the_frames_are_no_longer_kept(two):
    _client, headers = _login(two.users[1])
    game = two.game()
    start = game.version
    two.act(1, "pick_closed")
    sent_forget()  # as if the frames had expired

    async def scenario(message: dict) -> dict:
        ws = _socket(two.table, headers)
        await _connected(ws)
        await _heard(ws, quiet=0.2)
        await ws.send_json_to(message)
        answer = json.loads(await ws.receive_from(timeout=10))
        await ws.disconnect()
        return answer

    assert async_to_sync(scenario)({"t": "since", "v": start, "g": game.pk})["t"] == "refetch"
    # A page of another game (the table has moved on to a new one) loads its view too.
    answer = async_to_sync(scenario)({"t": "since", "v": start, "g": game.pk + 1000})
    assert answer["t"] == "refetch"


async def _closed(ws: WebsocketCommunicator) -> int:
    """The code the server closed the socket with; then the socket goes as a browser's does
    (its disconnect reaches the consumer, which leaves its groups and its table), so nothing
    of it is left in the test's event loop."""
    while True:
        output = await ws.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            code = int(output["code"])
            await ws.disconnect(code=code)
            return code


def test_a_logout_closes_the_sockets_of_that_session_only(two):
    client, headers = _login(two.users[1])
    _other_client, other_headers = _login(two.users[1])  # the same player on another device

    async def scenario() -> tuple[int, bool]:
        ws, other = _socket(two.table, headers), _socket(two.table, other_headers)
        await _connected(ws)
        await _connected(other)
        await _heard(other, quiet=0.2)
        await database_sync_to_async(client.post)(reverse("logout"))
        code = await _closed(ws)
        kept = await other.receive_nothing(timeout=0.5)
        await other.disconnect()
        return code, kept

    code, kept = async_to_sync(scenario)()
    assert code == 4401
    assert kept  # the other device's socket is still open and quiet

    async def reconnect() -> bool:
        ws = _socket(two.table, headers)
        connected, _ = await ws.connect()
        await ws.disconnect()
        return connected

    assert not async_to_sync(reconnect)()  # the ended session's cookie no longer opens one


def _admin_form_data(page: Any) -> dict[str, Any]:
    """What the admin's change page posts back unchanged: its form's values and the inlines'
    management forms."""
    from django.forms import SplitDateTimeWidget

    data: dict[str, Any] = {}
    form = page.context["adminform"].form
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        if isinstance(form.fields[name].widget, SplitDateTimeWidget):
            data[f"{name}_0"], data[f"{name}_1"] = str(value.date()), value.strftime("%H:%M:%S")
        else:
            data[name] = value
    for inline in page.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
    return data


@pytest.fixture
def staff_client(user_factory: Any) -> Client:
    client = Client()
    client.force_login(user_factory(is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("change", ["password", "self-exclusion", "deactivated"])
def test_an_account_change_closes_every_socket_of_the_player(two, password, change, staff_client):
    client, headers = _login(two.users[1])
    user = two.users[1]

    def act() -> None:
        if change == "password":
            new = "another-horse-battery-7"
            client.post(
                reverse("password_change"),
                {"old_password": password, "new_password1": new, "new_password2": new},
            )
        elif change == "self-exclusion":
            from accounts.services import self_exclusion_start

            self_exclusion_start(user=user, period="1d")
        else:
            url = reverse("admin:accounts_user_change", args=[user.pk])
            data = _admin_form_data(staff_client.get(url))
            data.pop("is_active")  # the box unticked
            response = staff_client.post(url, data)
            errors = response.context["adminform"].form.errors if response.context else None
            assert response.status_code == 302, errors

    async def scenario() -> int:
        ws = _socket(two.table, headers)
        await _connected(ws)
        await database_sync_to_async(act)()
        return await _closed(ws)

    assert async_to_sync(scenario)() == 4401
    user.refresh_from_db()
    assert user.is_active is (change != "deactivated")
