"""Pushes to the browsers watching a table: one shared felt, small per-seat fragments.

After a change commits (``events.TableMoved``, handed over by the write pipeline), this module:

- renders the viewer-neutral **felt** (``tables/table.html#felt``: the seats by seat number,
  the decks, the wild joker, what just happened, the open deck's history, the timers, the
  scores and result sheets) **once for each language in use at the table** (the seated
  players' and the site's default, for spectators) from the public view, for every socket of
  the table, seated or not: all read the same felt. A change that shows nothing new to the
  table (arranging one's own cards, auto drop) sends the felt's versions only;
- renders a seat's **fragment** (``tables/table.html#seat``: that player's hand, action bar and
  drop cost, own notices, the shoe commitment) only for the seats whose fragment changed and
  that have a socket open (``presence``), marked with its player: it is handed to that
  player's sockets only, never to another socket;
- publishes them together, once (``fanout.table_publish``: this process's sockets of the table
  from memory, the other processes holding some through one message on the channel layer);
- tells the lobby, coalesced (``lobby``), when the table's seating or status changed.

Every felt frame carries the version it moves the page from and to, so versions stay
contiguous for every socket (as lila's round does: a member who may not see an event still
gets its version); a page that does not show the ``from`` version missed something and
re-fetches its whole view over HTTP, as it does after a reconnect. A fragment carries the
version it was rendered at.

What changed is told against what was last pushed for the game (``sent``: shared by every
web process through the cache, trusted only at the version this change starts from; kept in
this process's memory instead for a move on the socket of a table whose every socket this
process holds, ``fanout.table_owned``, whose presence counts are then this process's sockets).
A seat's part is rendered when its key (``presenters.seat_keys``: what the part reads, before any
presenting) changed: the hand with its actions, or the actions alone when the hand above them
is as it was. With no seat remembered at the version a change starts from (a process's first
push of a game), the keys are those of the state before the change when the change is a pick, a
discard or an arrangement (``_Before``); any other change sends every part. The felt is
rendered once per language and cut into its regions (a seat, a deck, the line of what just
happened, the open deck's lists, the clock, each result card): a frame carries only the regions
that changed, or the whole felt when its skeleton changed (a deal begins, a card appears) or
nothing is remembered at the version the page shows.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts.live import call_async
from accounts.middleware import player_language, player_time_zone
from ledger.selectors import wallet_balances_for_header
from rummy_site.json_field import json_dumps
from tables import selectors
from tables.engines import engine_of
from tables.events import UNKNOWN_DEAL, TableMoved, table_moved_subscribe
from tables.live import fanout, presence
from tables.live.fanout import Event
from tables.live.lobby import lobby_changed
from tables.live.sent import Sent, digest, sent_read, sent_read_owned, sent_write
from tables.live.viewer import FELT_PARTIAL, SEAT_PARTIAL, felt_context, seat_context
from tables.presenters import seat_hand_key, seat_keys
from tables.presenters.moves import move_lines
from tables.readmodel import TableRead
from tables.rules.engine_view import EngineView

if TYPE_CHECKING:
    from accounts.models import User
    from tables.models import Seat

logger = logging.getLogger(__name__)


# The cache keys the felt's template tags read for a table's people (variant, user ids -> keys),
# registered by the part that owns them (the ratings' badges: ``tables.ratings.hooks``). A push
# reads them in its one cache read with what was pushed and hands them to the felt's context
# (``cache_read``), so the tags make no round trip of their own.
FeltReads = Callable[[str, Sequence[int]], list[str]]
_felt_reads: list[FeltReads] = []


def felt_reads_register(reads: FeltReads) -> None:
    if reads not in _felt_reads:
        _felt_reads.append(reads)


def lobby_group() -> str:
    return "lobby"


def frame_text(frame: dict[str, object]) -> str:
    """A frame of the table socket as it goes on the wire (docs/table-socket.md): one JSON
    object told apart by ``t``, encoded once however many sockets it goes to."""
    return json_dumps(frame).decode()


def felt_frame_text(*, from_version: int, version: int, html: str | None) -> str:
    return frame_text({"t": "felt", "from": from_version, "v": version, "html": html})


def seat_frame_text(*, version: int, html: str) -> str:
    return frame_text({"t": "seat", "v": version, "html": html})


Outbox = list[Event]  # one change's events, in the order they go (``fanout.table_publish``)


@dataclass
class Collected:
    """A push collected for the socket that made the move (``pushes_collected``), and the
    sockets each player has open at the table when this process owns it (``None``: it does
    not, or the table's other sockets are elsewhere)."""

    outbox: Outbox = field(default_factory=list)
    owned: Mapping[int, int] | None = None


_collecting = threading.local()


@contextmanager
def pushes_collected(*, owned: Mapping[int, int] | None = None) -> Iterator[Collected]:
    """Within the block, this thread's pushes are collected instead of sent: the table socket
    that made the move sends them itself from its event loop, its own frames straight down
    its own socket (``tables/live/moves.py``). ``owned``: this process holds every socket of
    the table, these many by player (``fanout.table_owned``): the push reads nothing of the
    cache (``sent.sent_read_owned``)."""
    collected = Collected(owned=owned)
    before = getattr(_collecting, "box", None)
    _collecting.box = collected
    try:
        yield collected
    finally:
        _collecting.box = before


class _PushRequest:
    """What the partials read of a request when they are pushed: an htmx swap."""

    htmx = True
    path = ""


# Renders by kind since the process started, for tests and the benchmark ("felt", "seat").
renders: dict[str, int] = {"felt": 0, "seat": 0}


def _language_of(user: User | None) -> str:
    return player_language(user) if user is not None else str(settings.LANGUAGE_CODE)


def as_viewer(user: User) -> ExitStack:
    """Translation and time zone of ``user`` (the site's defaults for ``None``)."""
    stack = ExitStack()
    stack.enter_context(translation.override(_language_of(user)))
    if user is not None:
        stack.enter_context(timezone.override(player_time_zone(user)))
    return stack


class _Viewers:
    """``as_viewer`` for one seated player after another: the translation and the time zone
    switched only when a player's differ from the one before's (at most tables every player
    has the same), as each switch reads and writes Django's context-local settings."""

    def __init__(self) -> None:
        self._stack = ExitStack()
        self._shown: tuple[str, str] | None = None

    def __enter__(self) -> _Viewers:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stack.close()

    def viewer(self, user: User) -> str:
        """Render as ``user`` from here on; ``user``'s language."""
        language = _language_of(user)
        shown = (language, player_time_zone(user).key)
        if shown != self._shown:
            self._stack.close()
            self._stack = as_viewer(user)
            self._shown = shown
        return language


def _data(moved: TableMoved, user: User | None, views: Views | None) -> TableRead:
    return selectors.table_view_data(
        table=moved.table,
        game=moved.game,
        seats=moved.seats,
        user=user,
        state=moved.state,
        deal=moved.deal,
        moves=moved.moves,
        moves_partial=True,
        views=views,
    )


Views = dict[int | None, EngineView]


def _views(moved: TableMoved, seats: Sequence[Seat], sockets: dict[int, int]) -> Views | None:
    """The engine's views of the new state that the push shows: each seat with a socket open
    and the spectators', worked out together (what they show alike, once)."""
    if moved.state is None:
        return None
    viewers: list[int | None] = [s.seat_no for s in seats if s.played and sockets.get(s.user_id)]
    viewers.append(None)
    views = engine_of(moved.game.variant).views(moved.state, viewers)
    return dict(zip(viewers, views, strict=True))


ALL_PARTS = frozenset({"main", "foot"})
# The parts of a seat's fragment: ``main`` (the notices, the hand and the actions), ``actions``
# (the notices and the actions, the hand as it was), ``foot`` (the commitment and leaving).


def render_seat(
    context: dict[str, Any],
    user: User,
    *,
    money_moved: bool = False,
    request: Any = None,
    parts: frozenset[str] = ALL_PARTS,
) -> str:
    """One seat's fragment (its ``parts`` swapped out of band, ``ALL_PARTS`` by default), with
    the header's balance when money moved."""
    context = {**context, "user": user, "oob": True}
    if money_moved:
        context["request"] = request or _PushRequest()
        context["header_balances"] = wallet_balances_for_header(user=user)
    shown = {part for part in ("main", "actions", "foot") if part in parts}
    if "main" in shown:
        shown.discard("actions")  # the actions are in the main part
    if not shown:
        return ""
    renders["seat"] += 1
    return render_to_string(SEAT_PARTIAL, {**context, "parts": shown})


def _changed_parts(sent: tuple[str, str, str] | None, keys: tuple[str, str, str]) -> frozenset[str]:
    """The parts of a seat's fragment to send, from the keys sent before (``None``: all)."""
    if sent is None:
        return ALL_PARTS
    parts = set()
    if sent[0] != keys[0]:
        parts.add("main" if sent[1] != keys[1] else "actions")
    if sent[2] != keys[2]:
        parts.add("foot")
    return frozenset(parts)


def render_felt(context: dict[str, Any]) -> str:
    """The felt as rendered, its regions still marked (``felt_regions`` cuts them out)."""
    renders["felt"] += 1
    return render_to_string(FELT_PARTIAL, context)


# A region of the felt: one element with an id, marked in the template by ``<!--region-->``
# before it and ``<!--/region-->`` after it (regions do not nest).
_OPEN, _CLOSE = "<!--region-->", "<!--/region-->"
_REGION_ID = re.compile(r'<[a-z]+[^>]*?\sid="([^"]+)"')


def felt_regions(html: str) -> tuple[str, dict[str, str]]:
    """The felt cut into its regions (id -> HTML) and the rest, its skeleton (the regions'
    places marked by their ids; the root's opening tag, which carries the version, left out)."""
    regions: dict[str, str] = {}
    first, *marked = html.split(_OPEN)
    skeleton = [first]
    for piece in marked:
        body, closed, rest = piece.partition(_CLOSE)
        if not closed:  # a mark with no end: left as it is
            skeleton.append(_OPEN + piece)
            continue
        found = _REGION_ID.match(body)
        region_id = found.group(1) if found else f"?{len(regions)}"
        regions[region_id] = body
        skeleton += (f"<!--{region_id}-->", rest)
    whole = "".join(skeleton)
    return whole[whole.find(">") + 1 :], regions


def felt_whole(html: str) -> str:
    """The felt as a page shows it: the region marks taken out."""
    return html.replace("<!--region-->", "").replace("<!--/region-->", "")


def _felt_frame(sent: Sent, language: str, html: str, *, from_version: int, version: int) -> str:
    """What the felt's frame carries for ``html`` (a fresh render): only the regions that
    changed since the felt sent at ``from_version``, when the skeleton is the same; else the
    whole felt."""
    skeleton, regions = felt_regions(html)
    digests = {region_id: digest(body) for region_id, body in regions.items()}
    shape = digest(skeleton)
    before = sent.felt_at(language, from_version)
    sent.felt_sent(language, (version, shape, digests))
    if before is None or before[1] != shape:
        return felt_whole(html)
    return "".join(
        body
        for region_id, body in regions.items()
        if before[2].get(region_id) != digests[region_id]
    )


def _one_step(moved: TableMoved) -> bool:
    """Whether the change is one version of a game under way, with its state before and after,
    that moved no money and left the seating and the table's status as they were."""
    return (
        not moved.lobby_changed
        and not moved.money_moved
        and moved.state_before is not None
        and moved.state is not None
        and moved.from_version + 1 == moved.game.version
    )


# The moves, and the events they may carry, that change nothing but the engine's state: no row
# of the deal, the game or the seats (what a seat's foot and its game's status read) moves with
# them. A discard that ends a deal carries another event.
_STATE_ONLY = frozenset({"pick_closed", "pick_open", "discard", "arrange"})
_STATE_ONLY_EVENTS = frozenset(
    {
        "turn_started",
        "extra_time_started",
        "card_picked",
        "card_discarded",
        "deck_reshuffled",
        "arranged",
    }
)


class _Before:
    """The seats' keys at the version a change starts from, worked out from the state before it
    (``TableMoved.state_before``), when nothing is remembered of any seat at that version (a
    process's first push of the game, after a start, a restart or a hand-over; Redis emptied).
    A page with a socket open shows that version (a page behind it meets a gap on the felt and
    catches up), so a part whose keys the change left as they were is not sent again. Only for
    a change of one version made of actions that change the state alone (``_STATE_ONLY``); for
    any other, and for a seat missing where others are remembered (its socket opened as the
    last change was pushed), ``keys`` is ``None``: every part is sent, as before."""

    def __init__(
        self, moved: TableMoved, seats: Sequence[Seat], sockets: dict[int, int], sent: Sent
    ) -> None:
        self.moved = moved
        self.seats = seats
        self.sockets = sockets
        self.plain = (
            not sent.seats_at(moved.from_version)
            and _one_step(moved)
            and bool(moved.moves)
            and all(_state_only(m) for m in moved.moves)
        )
        self._before: tuple[TableMoved, Views | None] | None = None

    def keys(self, user: User, language: str) -> tuple[str, str, str] | None:
        if not self.plain:
            return None
        if self._before is None:  # worked out once, for the first seat that asks
            before = replace(self.moved, state=self.moved.state_before)
            self._before = (before, _views(before, self.seats, self.sockets))
        before, views = self._before
        return _seat_digests(_data(before, user, views), language)


def _state_only(move: Mapping[str, Any]) -> bool:
    events = move.get("events") or ()
    return move.get("action") in _STATE_ONLY and all(
        isinstance(e, Mapping) and e.get("type") in _STATE_ONLY_EVENTS for e in events
    )


def _seat_digests(data: TableRead, language: str) -> tuple[str, str, str]:
    """The digests of a seat's keys (``seat_keys``, ``seat_hand_key``) as they are remembered."""
    main, foot = seat_keys(data)
    return digest(main + language), digest(seat_hand_key(data) + language), digest(foot)


def _felt_unchanged(moved: TableMoved, data: TableRead) -> bool:
    """Whether the change shows nothing new on the felt: no public line, the public view and
    the seating as they were (arranging one's own cards, auto drop on or off)."""
    if not _one_step(moved):
        return False
    if move_lines(moved.moves, str, None):
        return False
    engine = engine_of(moved.game.variant)
    return data.view is not None and engine.view(moved.state_before, None) == data.view


def table_push(moved: TableMoved) -> None:
    """Publish the felt and the changed fragments to the table's sockets (``fanout``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    table_id = moved.table.pk
    version = moved.game.version
    now = time.time()
    try:
        if moved.deal is UNKNOWN_DEAL:
            moved = replace(moved, deal=selectors.newest_deal(moved.game))
        # The players the view shows at the table (as ``selectors.table_view_data`` does): a
        # person who left a waiting game before it started watches like anyone else.
        seats = [s for s in moved.seats if not s.is_bot and (s.played or s.left_at is None)]
        seated = {s.user_id: s.user for s in seats}
        languages = sorted({_language_of(None)} | {_language_of(u) for u in seated.values()})
        # Who has a socket open, what was pushed to them before, and what the felt's tags read:
        # one cache read, none for a table this process owns (its memory).
        ahead = [key for reads in _felt_reads for key in reads(moved.game.variant, list(seated))]
        box: Collected | None = getattr(_collecting, "box", None)
        owned = box.owned if box is not None else None
        game_id, from_version = moved.game.pk, moved.from_version
        user_ids = [] if moved.money_moved else list(seated)
        if owned is not None:
            sockets = {uid: owned.get(uid, 0) for uid in seated}
            sent, cache_read = sent_read_owned(
                game_id=game_id,
                languages=languages,
                user_ids=user_ids,
                also=ahead,
                from_version=from_version,
                reread=moved.lobby_changed or moved.money_moved,
            )
        else:
            counted = {presence.presence_key(table_id, uid): uid for uid in seated}
            sent, found = sent_read(
                game_id=game_id,
                languages=languages,
                user_ids=user_ids,
                also=[*counted, *ahead],
                from_version=from_version,
            )
            cache_read = {key: found[key] for key in ahead if key in found}
            sockets = {uid: _count(found.get(key)) for key, uid in counted.items()}
        views = _views(moved, seats, sockets)
        before = _Before(moved, seats, sockets, sent)
        outbox: Outbox = []  # published together, in this order

        def send(event: Event) -> None:
            # The felt first: a page that shows its new hand already shows the felt's version.
            if event["type"] == "table.felt":
                outbox.insert(0, event)
            else:
                outbox.append(event)

        with _Viewers() as viewers:
            for user_id, user in seated.items():
                if not sockets.get(user_id):
                    continue  # nobody to tell: the page fetches its view when it connects
                language = viewers.viewer(user)
                data = _data(moved, user, views)
                keys = _seat_digests(data, language)
                shown = sent.seat_at(user_id, moved.from_version)
                if shown is None:  # what the page shows at ``from_version``, where it can tell
                    shown = before.keys(user, language)
                parts = _changed_parts(shown, keys)
                sent.seat_sent(user_id, (version, keys))  # what the page shows at this version
                if not parts:
                    continue
                context = seat_context(data, now=now)
                html = render_seat(context, user, money_moved=moved.money_moved, parts=parts)
                send(
                    {
                        "type": "table.seat",
                        "frame": seat_frame_text(version=version, html=html),
                        "version": version,
                        "game": moved.game.pk,
                        "user": user_id,  # only this player's sockets are handed it
                    }
                )
        public = _data(moved, None, views)
        frame = {"from_version": moved.from_version, "version": version}
        game = {"game": moved.game.pk}
        if _felt_unchanged(moved, public):
            for language in languages:
                sent.felt_carried(language, from_version=moved.from_version, version=version)
            sent.history(**frame, html=None)
            bare = felt_frame_text(html=None, **frame)
            event = {"type": "table.felt", "frames": None, "bare": bare, **frame, **game}
            send(event)
        else:
            by_seat = {s.seat_no: s.user_id for s in seats}
            online = {seat: bool(sockets.get(uid)) for seat, uid in by_seat.items()}
            felts: dict[str, str] = {}
            for language in languages:
                with translation.override(language):
                    context = felt_context(public, now=now, online=online, cache_read=cache_read)
                    html = render_felt(context)
                felts[language] = _felt_frame(sent, language, html, **frame)
            sent.history(**frame, html=felts)
            frames = {lang: felt_frame_text(html=text, **frame) for lang, text in felts.items()}
            send({"type": "table.felt", "frames": frames, **frame, **game})
        sent_write(sent)  # before the frames go: the next push may come from another process
        if box is not None:  # the socket that made the move publishes them
            box.outbox.extend(outbox)
        else:
            call_async(fanout.table_publish, table_id, outbox)  # one hop to the event loop
        if moved.lobby_changed:
            lobby_changed()
    except Exception:  # a push is best effort: clients re-fetch on reconnect
        logger.exception("push failed for table %s v%s", table_id, version)


def _count(value: object) -> int:
    return value if isinstance(value, int) else 0


def subscribe() -> None:
    """Hear every committed change of a table (called when the app is ready)."""
    table_moved_subscribe(table_push)
