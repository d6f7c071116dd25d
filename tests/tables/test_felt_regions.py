"""What a move sends, heard on the configured channel layer (Redis in the PostgreSQL run,
in-memory on the embedded default): the felt whole the first time, then only its regions that
changed; a seat's whole hand when it changed, its actions alone when only they did."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache

from tables.live import fanout, presence, realtime
from tables.live.sent import sent_forget

pytestmark = pytest.mark.django_db(transaction=True)

Heard = list[tuple[str, dict[str, Any]]]


@pytest.fixture
def six(seated: Any, toss: Any) -> Any:
    toss(1)
    t = seated(6)
    cache.delete_many([presence.presence_key(t.table.pk, u.pk) for u in t.users.values()])
    for user in t.users.values():
        presence.socket_opened(table_id=t.table.pk, user_id=user.pk)
    return t


@pytest.fixture
def listen(six: Any) -> Callable[[Callable[[], Any]], Heard]:
    """``listen(act)``: every event ``act`` publishes to the table, as another web process
    holding sockets of the table hears it (the table's group on the configured channel layer),
    named by whom it is for: ``table`` or ``seat N`` (in one event loop: the Redis layer's
    channels belong to the loop that made them)."""
    import asyncio

    from channels.db import database_sync_to_async

    layer = get_channel_layer()
    assert layer is not None
    group = fanout.table_group(six.table.pk)
    seat_of = {user.pk: seat for seat, user in six.users.items()}

    def named(event: dict[str, Any]) -> str:
        return f"seat {seat_of[event['user']]}" if event["type"] == "table.seat" else "table"

    async def drain(channel: str) -> Heard:
        heard: Heard = []
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), timeout=0.2)
            except TimeoutError:
                return heard
            assert message["type"] == fanout.RELAY_EVENT and message["table"] == six.table.pk
            heard += [(named(event), event) for event in message["events"]]

    async def scenario(act: Callable[[], Any]) -> Heard:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        try:
            await database_sync_to_async(act)()
            return await drain(channel)
        finally:
            await layer.group_discard(group, channel)

    def run(act: Callable[[], Any]) -> Heard:
        return async_to_sync(scenario)(act)

    return run


def _felt_html(event: dict[str, Any], language: str = "en") -> str | None:
    """The felt an event carries in ``language`` (its frame as the sockets get it)."""
    if event["frames"] is None:
        return None
    frame = json.loads(event["frames"][language])
    assert frame["t"] == "felt" and frame["v"] == event["version"]
    return frame["html"]


def _seat_html(event: dict[str, Any]) -> str:
    frame = json.loads(event["frame"])
    assert frame["t"] == "seat" and frame["v"] == event["version"]
    return str(frame["html"])


def _felt(heard: Heard) -> str:
    (html,) = [_felt_html(e) for name, e in heard if e["type"] == "table.felt"]
    return str(html)


def _ids(html: str) -> list[str]:
    """The ids of the top-level elements of a region frame."""
    return re.findall(r'(?:^|</\w+>)\s*<\w+ [^>]*?\bid="([^"]+)"', html)


def _seat_parts(heard: Heard) -> dict[str, str]:
    return {name: _seat_html(e) for name, e in heard if e["type"] == "table.seat"}


def test_the_felt_goes_whole_first_then_only_the_regions_that_changed(six: Any, listen: Any):
    sent_forget()  # nothing sent before (the game's start was)
    first = _felt(listen(lambda: six.act(1, "pick_closed")))
    assert 'id="felt-root"' in first and "<!--region-->" not in first
    card = six.view(1)["hand"]["picked"]
    regions = _felt(listen(lambda: six.act(1, "discard", card=card)))
    assert 'id="felt-root"' not in regions
    # The mover's seat (a card fewer, its turn over) and the next one (its turn begins), the
    # open deck, the line and the lists; not the four other seats, not the closed deck (nobody
    # took from it). The clock shows whole seconds: it changed only when the new turn's
    # deadline fell in another second than the last one's.
    assert set(_ids(regions)) - {"head-clock"} == {
        "felt-seat-1",
        "felt-seat-2",
        "pile-open",
        "last-move",
        "discard-history",
        "recent-moves",
    }
    assert len(regions) < len(first) / 2
    assert 'data-mover="1"' in regions  # the page flashes the seat that moved
    picked = _felt(listen(lambda: six.act(2, "pick_closed")))
    assert "felt-seat-2" in _ids(picked) and "pile-closed" in _ids(picked)
    assert "felt-seat-1" not in _ids(picked)


def test_the_felt_goes_whole_when_what_was_sent_is_not_remembered(six: Any, listen: Any) -> None:
    listen(lambda: six.act(1, "pick_closed"))
    cache.clear()  # the shared memory of what was sent (Redis restarted, an entry expired)
    for user in six.users.values():  # the pages' sockets open again
        presence.socket_opened(table_id=six.table.pk, user_id=user.pk)
    card = six.view(1)["hand"]["picked"]
    heard = listen(lambda: six.act(1, "discard", card=card))
    assert 'id="felt-root"' in _felt(heard)
    # A seat's parts are told against the state before the move: the mover's hand whole, the
    # actions of the player whose turn begins, nothing for the four others.
    parts = _seat_parts(heard)
    assert set(parts) == {"seat 1", "seat 2"}
    assert 'id="my-hand"' in parts["seat 1"] and 'id="my-hand"' not in parts["seat 2"]


def _parts_now(six: Any, seat: int) -> str:
    """The seat's parts as a page loading its view now gets them (the socket's catch-up)."""
    from tables import selectors
    from tables.live.viewer import seat_context

    user = six.users[seat]
    with realtime.as_viewer(user):
        mine = selectors.table_for_viewer(table=six.table.pk, user=user)
        html = realtime.render_seat(seat_context(mine, now=0.0), user)
    html = re.sub(r'name="version" value="\d+"', 'name="version" value=""', html)
    return re.sub(r'data-version="\d+"', 'data-version=""', html)


def test_parts_a_push_with_nothing_remembered_leaves_out_are_what_the_pages_show(
    six: Any, listen: Any
) -> None:
    """With nothing remembered of the version a plain move starts from (a process's first push
    of the game), the parts it does not send are those the move left as they were: each such
    seat's parts rendered now equal its parts rendered before the move (the version its forms
    carry aside: the page sets it from the frames)."""
    for seat in (1, 2):
        listen(lambda s=seat: six.act(s, "pick_closed"))
        card = six.view(seat)["hand"]["picked"]
        shown = {n: _parts_now(six, n) for n in six.users}
        sent_forget()
        parts = _seat_parts(listen(lambda s=seat, c=card: six.act(s, "discard", card=c)))
        assert set(parts) == {f"seat {seat}", f"seat {seat + 1}"}
        for n in six.users:
            if f"seat {n}" not in parts:
                assert _parts_now(six, n) == shown[n], n
            else:
                assert _parts_now(six, n) != shown[n], n


def test_a_seat_missing_where_the_others_are_remembered_gets_its_parts_whole(
    six: Any, listen: Any
) -> None:
    """A seat with nothing remembered while the others are (its socket opened just as the last
    change was pushed: its page may show an older version of its parts) is sent them whole."""
    late = six.users[3]
    presence.socket_closed(table_id=six.table.pk, user_id=late.pk)
    listen(lambda: six.act(1, "pick_closed"))
    presence.socket_opened(table_id=six.table.pk, user_id=late.pk)
    card = six.view(1)["hand"]["picked"]
    parts = _seat_parts(listen(lambda: six.act(1, "discard", card=card)))
    assert set(parts) == {"seat 1", "seat 2", "seat 3"}
    assert 'id="my-hand"' in parts["seat 3"] and 'id="seat-foot"' in parts["seat 3"]


def test_a_move_that_is_not_the_state_alone_sends_every_part_when_nothing_is_remembered(
    six: Any, listen: Any
) -> None:
    """A drop changes the seats' rows and may end the deal: with nothing remembered of the
    version it starts from, every seat with a socket gets its parts whole, as before."""
    listen(lambda: six.act(1, "pick_closed"))
    card = six.view(1)["hand"]["picked"]
    listen(lambda: six.act(1, "discard", card=card))
    sent_forget()
    parts = _seat_parts(listen(lambda: six.act(2, "drop")))
    assert set(parts) == {f"seat {n}" for n in six.users}
    assert all('id="my-area"' in html for html in parts.values())


def test_what_was_sent_is_read_from_the_cache_by_any_process(six: Any, listen: Any) -> None:
    """The memory of the last push lives in the cache, not in the process that pushed: read it
    as another process would, and it names the version and the regions sent."""
    from tables.live.sent import sent_read

    listen(lambda: six.act(1, "pick_closed"))
    game = six.game()
    users = [user.pk for user in six.users.values()]
    sent, _found = sent_read(game_id=game.pk, languages=["en"], user_ids=users)
    felt = sent.felt_at("en", game.version)
    assert felt is not None and "felt-seat-1" in felt[2] and "pile-open" in felt[2]
    assert sent.seat_at(six.users[1].pk, game.version) is not None
    assert sent.felt_at("en", game.version - 1) is None  # only ever trusted at its version


def test_the_regions_sent_make_the_felt_of_the_new_version(
    six: Any, listen: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The felt sent before, with the regions sent now put in the places of the elements with
    their ids, is the whole felt of the new version (the same change pushed again by a process
    that sent nothing before)."""
    from tables import events

    sent_forget()
    before = _felt(listen(lambda: six.act(1, "pick_closed")))  # whole
    changes: list[events.TableMoved] = []

    def heard(sender: object, *, moved: events.TableMoved, **kwargs: object) -> None:
        changes.append(moved)

    events.table_moved.connect(heard)
    try:
        card = six.view(1)["hand"]["picked"]
        regions = _felt(listen(lambda: six.act(1, "discard", card=card)))
    finally:
        events.table_moved.disconnect(heard)
    sent_forget()
    whole = _felt(listen(lambda: realtime.table_push(changes[-1])))
    assert 'id="felt-root"' in whole
    patched = before
    for region_id in _ids(regions):
        start = re.search(rf'<\w+ [^>]*?\bid="{region_id}"', regions)
        old = re.search(rf'<\w+ [^>]*?\bid="{region_id}"', patched)
        assert start and old, region_id
        patched = _replace_element(patched, old.start(), _element_at(regions, start.start()))
    version = re.compile(r'(id="felt-root"[^>]*data-version=")\d+')
    assert _strip_times(version.sub(r"\1", patched)) == _strip_times(version.sub(r"\1", whole))


def _element_at(html: str, start: int) -> str:
    """The element of ``html`` that starts at ``start``, with everything in it."""
    tag = re.match(r"<(\w+)", html[start:])
    assert tag
    depth = 0
    for match in re.finditer(rf"<(/?){tag.group(1)}\b[^>]*>", html[start:]):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return html[start : start + match.end()]
    raise AssertionError(f"element at {start} not closed")


def _replace_element(html: str, start: int, new: str) -> str:
    """``html`` with the element that starts at ``start`` replaced by ``new``."""
    return html[:start] + new + html[start + len(_element_at(html, start)) :]


def _strip_times(html: str) -> str:
    """The countdowns' seconds, which the two renders read at different instants."""
    return re.sub(r">\d+s<", "><", html)


def test_the_player_whose_turn_begins_gets_the_actions_alone(six: Any, listen: Any) -> None:
    listen(lambda: six.act(1, "pick_closed"))
    card = six.view(1)["hand"]["picked"]
    parts = _seat_parts(listen(lambda: six.act(1, "discard", card=card)))
    assert set(parts) == {"seat 1", "seat 2"}
    mover, next_up = parts["seat 1"], parts["seat 2"]
    assert 'id="my-area"' in mover and 'id="my-hand"' in mover  # a card fewer
    assert 'id="my-hand"' not in next_up and 'id="my-area"' not in next_up
    assert 'id="my-actions"' in next_up and 'id="seat-top"' in next_up
    assert "act-pick_closed" in next_up and 'data-my-turn="true"' in next_up
    assert len(next_up) < len(mover) / 2


def test_no_seat_hears_another_seats_cards(six: Any, listen: Any) -> None:
    """Every event on a seat's group names only that seat's own cards; the felt's regions name
    only public ones (the open deck, the wild joker, the discards), never a card in a hand."""
    heard: Heard = []
    public: set[str] = set()  # every card the public view showed (with two packs a player
    # may hold the other copy of the wild joker or of the open deck's top)

    def act(*args: Any, **kwargs: Any) -> None:
        nonlocal heard
        heard += listen(lambda: six.act(*args, **kwargs))
        public.update(_cards_in(six.view()))

    public.update(_cards_in(six.view()))
    act(1, "pick_closed")
    card = six.view(1)["hand"]["picked"]
    act(1, "discard", card=card)
    act(2, "pick_closed")
    hands = {seat: set(six.view(seat)["hand"]["cards"]) for seat in six.users}
    held = set().union(*hands.values())
    hands[1] |= {card}  # seat 1 held the card it threw
    codes = re.compile(r'data-code="([0-9AJQKTSHDC]{2,3})"')
    seat_events = [(name, e) for name, e in heard if e["type"] == "table.seat"]
    assert {name for name, _e in seat_events} >= {"seat 1", "seat 2"}
    for name, event in seat_events:
        seat = int(name.split()[1])
        html = _seat_html(event)
        assert html and set(codes.findall(html)) <= hands[seat], name
    for name, event in heard:
        if event["type"] == "table.felt" and event["frames"]:
            shown = set(codes.findall(_felt_html(event) or ""))
            assert not (shown & held) - public, name


def _cards_in(value: Any) -> set[str]:
    """Every card code in a view (its strings that are card codes, however deep)."""
    if isinstance(value, str):
        return {value} if re.fullmatch(r"(?:10|[2-9AJQK])[SHDC]|JK\d?", value) else set()
    if isinstance(value, dict):
        return set().union(set(), *(_cards_in(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(set(), *(_cards_in(v) for v in value))
    return set()


def test_every_action_form_pushed_carries_the_version_of_its_frame(six: Any, listen: Any) -> None:
    """A seat's actions are remembered without their version (``{% remember ... stamp %}``):
    every form of every part pushed over two rounds still carries the version it was sent at."""
    seen = 0
    for _round in range(2):
        for seat in range(1, 7):
            parts = [e for _, e in listen(lambda s=seat: six.act(s, "pick_closed"))]
            card = six.view(seat)["hand"]["picked"]
            parts += [e for _, e in listen(lambda s=seat, c=card: six.act(s, "discard", card=c))]
            for event in parts:
                if event["type"] != "table.seat":
                    continue
                html = _seat_html(event)
                versions = set(re.findall(r'name="version" value="([^"]*)"', html))
                if 'id="my-actions"' in html:
                    assert versions == {str(event["version"])}
                    seen += 1
    assert seen >= 24  # the mover's and the next player's actions, every move


def test_the_felt_is_cut_at_its_marks_into_regions_by_id_and_a_skeleton() -> None:
    html = (
        '<div id="felt" data-v="7"><h2>Table</h2>'
        '<!--region--><section class="pile" id="open-pile">5H</section><!--/region-->'
        "<p>between</p>"
        "<!--region--><div>no id</div><!--/region-->"
        "<!--region--><i>a mark with no end</i></div>"
    )
    skeleton, regions = realtime.felt_regions(html)
    assert regions == {
        "open-pile": '<section class="pile" id="open-pile">5H</section>',
        "?1": "<div>no id</div>",
    }
    assert skeleton == (
        "<h2>Table</h2><!--open-pile--><p>between</p><!--?1-->"
        "<!--region--><i>a mark with no end</i></div>"
    )
    assert realtime.felt_whole(html).count("region") == 0


def test_what_is_remembered_renders_as_a_fresh_render_does(
    six: Any, listen: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The felt's seats off turn and each group of a hand are remembered blocks (``{% remember
    %}``): over a round of moves, every felt and every seat's part pushed with the blocks of
    the moves before it equals the same change pushed again with every block rendered anew."""
    from collections import OrderedDict

    from tables import events
    from tables.templatetags import table_words

    class Forgetful(OrderedDict[object, str]):
        """Keeps nothing: every block is rendered every time."""

        def __setitem__(self, key: object, value: str) -> None:
            return None

    changes: list[events.TableMoved] = []

    def heard(sender: object, *, moved: events.TableMoved, **kwargs: object) -> None:
        changes.append(moved)

    def pushed(moved: events.TableMoved) -> tuple[str, dict[str, str]]:
        sent_forget()  # the whole felt and (no move told as the state's alone) every seat's parts
        heard_now = listen(lambda: realtime.table_push(moved))
        return _strip_times(_felt(heard_now)), _seat_parts(heard_now)

    events.table_moved.connect(heard)
    try:
        for seat in (1, 2, 3):
            listen(lambda s=seat: six.act(s, "pick_closed"))
            card = six.view(seat)["hand"]["picked"]
            listen(lambda s=seat, c=card: six.act(s, "discard", card=c))
    finally:
        events.table_moved.disconnect(heard)
    assert len(changes) == 6
    monkeypatch.setattr(realtime, "_STATE_ONLY", frozenset())
    warm = [pushed(moved) for moved in changes]
    monkeypatch.setattr(table_words, "_remembered", Forgetful())
    monkeypatch.setattr(table_words, "_remembered_chars", [0])  # what it counts, kept apart
    fresh = [pushed(moved) for moved in changes]
    assert warm == fresh
    for felt, parts in warm:
        assert felt.count('class="seat slot-') == 6 and len(parts) == 6
