"""A table page kept by its socket, without a browser: what ``static/js/table-socket.js`` and
``static/js/table.js`` do with each frame of docs/table-socket.md, on the page's HTML as text.

The page starts from its view loaded over HTTP (``/tables/<id>/view``), applies every felt and
seat frame its socket brings (the whole felt, or the regions that changed, each replacing the
element with its id; the player's parts in their places), asks ``since`` when it is behind,
loads its view again on ``refetch``, and plays moves (``move``, answered ``ack`` or
``refused``). ``shown`` reads off it what a player sees, to compare with a fresh load."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection

# The player's parts: places in the felt (table.js PARTS).
PARTS = ("seat-top", "my-area", "seat-foot")
_VOID = {
    *("area", "base", "br", "col", "embed", "hr", "img", "input"),
    *("link", "meta", "source", "track", "wbr"),
}


class _Elements(HTMLParser):
    """Where each element with an id starts and ends in ``text``, which of them are at the top
    level (not inside another element), and where every top-level element starts and ends."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
        self.open: list[tuple[str, str | None, int]] = []
        self.spans: dict[str, tuple[int, int]] = {}
        self.top: list[str] = []
        self.top_spans: list[tuple[int, int]] = []
        self.feed(text)
        self.close()

    def _at(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def _element(self, ident: str | None, start: int, end: int, depth: int) -> None:
        if depth == 0:
            self.top_spans.append((start, end))
        if ident is not None:
            self.spans.setdefault(ident, (start, end))
            if depth == 0:
                self.top.append(ident)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._at()
        ident = dict(attrs).get("id")
        if tag in _VOID:
            tag_text = self.get_starttag_text() or ""
            self._element(ident, start, start + len(tag_text), len(self.open))
        else:
            self.open.append((tag, ident, start))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._at()
        tag_text = self.get_starttag_text() or ""
        self._element(dict(attrs).get("id"), start, start + len(tag_text), len(self.open))

    def handle_endtag(self, tag: str) -> None:
        end = self.text.index(">", self._at()) + 1
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth][0] == tag:
                for _tag, ident, start in self.open[depth:]:
                    self._element(ident, start, end, depth)
                del self.open[depth:]
                return


def element(html: str, ident: str) -> str | None:
    """The element with id ``ident`` in ``html``, as text (``None``: there is none)."""
    span = _Elements(html).spans.get(ident)
    return None if span is None else html[span[0] : span[1]]


def top_elements(html: str) -> dict[str, str]:
    """The top-level elements of a frame that have an id, by id, in order."""
    found = _Elements(html)
    return {ident: html[found.spans[ident][0] : found.spans[ident][1]] for ident in found.top}


def replaced(html: str, ident: str, new: str) -> str:
    """``html`` with the element whose id is ``ident`` replaced by ``new``."""
    span = _Elements(html).spans[ident]
    return html[: span[0]] + new + html[span[1] :]


def _start_tag(html: str) -> str:
    return html[: html.index(">") + 1]


def _attribute(html: str, name: str) -> str | None:
    found = re.search(rf'\s{name}="([^"]*)"', _start_tag(html))
    return None if found is None else found.group(1)


def _children(html: str) -> list[str]:
    """The child elements of the element ``html``."""
    start = len(_start_tag(html))
    inner = html[start : html.rindex("</")]
    return [inner[s:e] for s, e in _Elements(inner).top_spans]


def _carry_over(current: str, fresh: str) -> str:
    """table.js ``carryOver``: a pushed felt that left out what the page already shows (the
    line of the last move, the older entries of the open deck's lists) gets them from the page."""
    line = element(fresh, "last-move")
    old_line = element(current, "last-move")
    carried = line is not None and _attribute(line, "data-carry") is not None
    if carried and old_line is not None and _attribute(old_line, "data-version") is not None:
        tag = _start_tag(old_line)
        kept = re.sub(r'\sdata-kind="[^"]*"', "", tag)
        kept = re.sub(r'(\sclass="[^"]*?)\s*\bfresh\b', r"\1", kept)
        fresh = replaced(fresh, "last-move", kept + old_line[len(tag) :])
    for ident in list(_Elements(fresh).spans):
        listed = element(fresh, ident)
        if (
            listed is None
            or not listed.startswith("<ol")
            or _attribute(listed, "data-partial") is None
        ):
            continue
        items = _children(listed)
        old = element(current, ident)
        if old is not None and _attribute(old, "data-deal") == _attribute(listed, "data-deal"):
            limit = int(_attribute(listed, "data-limit") or "8")
            items += _children(old)[: max(0, limit - len(items))]
        tag = re.sub(r'\sdata-partial="[^"]*"', "", _start_tag(listed))
        fresh = replaced(fresh, ident, tag + "\n" + "\n".join(items) + "\n</ol>")
    return fresh


def _version_set(felt: str, version: int) -> str:
    return re.sub(r'data-version="-?\d+"', f'data-version="{version}"', felt, count=1)


def felt_version(html: str) -> int:
    felt = element(html, "felt-root")
    assert felt is not None, html[:300]
    found = re.search(r'data-version="(-?\d+)"', felt)
    assert found is not None
    return int(found.group(1))


@dataclass
class TablePage:
    """One open table page: its HTML, its socket, and what it heard."""

    ws_url: str
    headers: dict[str, str]
    fetch_view: Callable[[], Awaitable[str]]  # the view over HTTP (a fresh load)
    local_address: str = "127.0.0.1"
    html: str = ""
    counter: int = 0  # the page's move counter (table-socket.js: grows by one a message)
    heard: list[dict[str, Any]] = field(default_factory=list)  # every frame, in order
    refetches: int = 0
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    _ws: ClientConnection | None = None
    _reader: asyncio.Task[None] | None = None
    _answers: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    _catching_up: bool = False

    @property
    def version(self) -> int:
        return felt_version(self.html)

    async def load(self) -> None:
        self.html = await self.fetch_view()

    async def connect(self) -> dict[str, Any]:
        """Open the socket (through the proxy); the first frame is the ``sync``."""
        self.closed.clear()
        self._catching_up = False
        self._ws = await websockets.connect(
            self.ws_url,
            additional_headers=self.headers,
            local_addr=(self.local_address, 0),
            open_timeout=10,
        )
        first = json.loads(await asyncio.wait_for(self._ws.recv(), 10))
        assert first["t"] == "sync", first
        self._reader = asyncio.create_task(self._read())
        await self._frame(first)
        return dict(first)

    async def _read(self) -> None:
        assert self._ws is not None
        try:
            async for text in self._ws:
                await self._frame(json.loads(text))
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()
            for answer in self._answers.values():
                if not answer.done():
                    answer.cancel()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await self._reader

    # -- the frames (table-socket.js FRAMES) --------------------------------------------------
    async def _frame(self, frame: dict[str, Any]) -> None:
        self.heard.append(frame)
        kind = frame["t"]
        if kind == "sync":
            self._catching_up = False
            if frame["v"] > self.version:
                await self._catch_up()
        elif kind == "refetch":
            self._catching_up = False
            await self._refetch()
        elif kind == "felt":
            shown = self.version
            if frame["v"] <= shown:
                return
            if frame["from"] != shown:
                await self._catch_up()
            elif frame["html"] is None:
                self._felt_root(_version_set(self._felt(), frame["v"]))
            else:
                await self._apply_felt(frame["html"], frame["v"])
        elif kind == "seat":
            self._apply_seat(frame["html"])
        elif kind in ("ack", "refused"):
            answer = self._answers.pop(frame["a"], None)
            if answer is not None and not answer.done():
                answer.set_result(frame)
            if kind == "refused" and frame["code"] == "stale":
                await self._catch_up()
            elif kind == "refused" and frame["html"]:
                self._apply_seat(frame["html"])

    async def _catch_up(self) -> None:
        if self._catching_up or self._ws is None:
            return
        self._catching_up = True
        felt = self._felt()
        game = re.search(r'data-game="(\d*)"', felt)
        game_id = int(game.group(1)) if game and game.group(1) else None
        since = {"t": "since", "v": self.version, "g": game_id}
        await self._ws.send(json.dumps(since))

    async def _refetch(self) -> None:
        self.refetches += 1
        self.html = await self.fetch_view()

    def _felt(self) -> str:
        felt = element(self.html, "felt-root")
        assert felt is not None
        return felt

    def _felt_root(self, felt: str) -> None:
        self.html = replaced(self.html, "felt-root", felt)

    async def _apply_felt(self, html: str, version: int) -> None:
        fresh = element(html, "felt-root")
        if fresh is not None:  # the whole felt, the player's parts carried into their places
            fresh = _carry_over(self._felt(), fresh)
            for ident in PARTS:
                part = element(self.html, ident)
                if part is not None and element(fresh, ident) is not None:
                    fresh = replaced(fresh, ident, part)
            self._felt_root(fresh)
            return
        felt = self._felt()
        regions = top_elements(html)
        if not regions or any(element(felt, ident) is None for ident in regions):
            await self._refetch()  # a place this page does not have
            return
        html = _carry_over(felt, html)
        for ident, body in top_elements(html).items():
            felt = replaced(felt, ident, body)
        self._felt_root(_version_set(felt, version))

    def _apply_seat(self, html: str) -> None:
        parts = top_elements(html)
        for ident in PARTS:
            if ident in parts and element(self.html, ident) is not None:
                body = parts[ident].replace(' hx-swap-oob="true"', "")
                self.html = replaced(self.html, ident, body)
        actions = element(html, "my-actions") if "my-area" not in parts else None
        if actions is not None:
            self.html = replaced(
                self.html, "my-actions", actions.replace(' hx-swap-oob="true"', "")
            )

    # -- moves ---------------------------------------------------------------------------------
    async def send_move(self, fields: dict[str, str]) -> asyncio.Future[dict[str, Any]]:
        """Send a move; the future is its answer (``ack`` or ``refused``)."""
        assert self._ws is not None
        self.counter += 1
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[self.counter] = answer
        await self._ws.send(json.dumps({"t": "move", "a": self.counter, "d": fields}))
        return answer

    async def move(self, fields: dict[str, str]) -> dict[str, Any]:
        return await asyncio.wait_for(await self.send_move(fields), 15)

    async def settled_at(self, version: int, timeout: float = 10) -> None:
        """Wait until the page shows ``version`` (its frames applied, any catch-up done)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.version != version or self._catching_up:
            assert asyncio.get_running_loop().time() < deadline, (
                f"the page shows v{self.version}, not v{version}; heard {self.heard[-6:]}"
            )
            await asyncio.sleep(0.05)


# -- what a player reads off the page -----------------------------------------------------------
class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def text_of(html: str | None) -> str | None:
    if html is None:
        return None
    reader = _Text()
    reader.feed(html)
    words = " ".join(" ".join(reader.parts).split())
    return re.sub(r"\b\d+s\b", "", words)  # the countdowns, which run with the clock


# Classes the page sets for its viewer (table.js ``personalise``): the viewer's seat, the
# places around the felt turned for the viewer, the seat that just moved.
_PERSONAL = re.compile(r"me|just-moved|slot-[a-z-]+")


def _classes(html: str) -> str:
    found = re.match(r'<\w+[^>]*?\sclass="([^"]*)"', html)
    names = found.group(1).split() if found else []
    return " ".join(sorted(name for name in names if not _PERSONAL.fullmatch(name)))


def shown(html: str) -> dict[str, Any]:
    """What the page shows a player: each seat (its classes and words), the decks, the line of
    what just happened, the open deck's history, the hand, the actions, and the version; the
    countdowns left out (as the browser tests' ``_SHOWN``)."""
    felt = element(html, "felt-root") or ""
    found = _Elements(felt)
    seats = sorted(ident for ident in found.spans if re.fullmatch(r"felt-seat-\d+", ident))
    hand = element(html, "my-hand") or ""
    actions = element(html, "my-actions") or ""
    return {
        "version": felt_version(html),
        "seats": [(s, _classes(element(felt, s) or ""), text_of(element(felt, s))) for s in seats],
        "closed": text_of(element(felt, "pile-closed")),
        "open": re.findall(r'data-code="([^"]+)"', element(felt, "pile-open") or ""),
        "line": text_of(element(felt, "last-move")),
        "discards": text_of(element(felt, "discard-history")),
        "recent": text_of(element(felt, "recent-moves")),
        "hand": re.findall(r'class="pcard[^"]*"[^>]*data-code="([^"]+)"', hand)
        or re.findall(r'data-code="([^"]+)"', hand),
        "actions": re.findall(r'name="action" value="([^"]+)"', actions),
        "seat_top": _classes(element(html, "seat-top") or ""),
    }
