"""What was last pushed for each game, shared by every web process through the cache (Redis
when configured): the felt in each language (its version, the digest of its skeleton and of
each region) and each seat's parts (their version and the digests of their keys).

The next push of a game, whichever process makes it, sends only what changed since, when what
is remembered is at the version the change starts from; anything else (nothing remembered, an
older version, the cache down or emptied) sends the whole felt and every part, which is always
right (with no seat remembered, a seat's parts are told against the state before the change
where it changed the game's state alone: ``realtime._Before``). One read and one write a push,
whatever the number of seats and languages: all of a game's is kept under one key, rewritten
whole by each push.

The same write keeps each felt frame for a while (``history``), under the version it moves
the felt from, so a page that missed frames asks its socket ``since`` the version it shows and
gets them in order (``history_since``: one read) instead of loading its view again.

**A table this process owns.** When every socket of a table is held by this process (the proxy
hashes a table's sockets to one web process; ``fanout.table_owned`` says so for a move on one of
them), the push of a move on its socket reads what was sent from this process's memory
(``Owned``, the newest ``LIVE_OWNED_GAMES`` games, with the felt frames a page may ask for
``since``) and writes it there; the cache gets the same write behind it, from one thread of the
process that sends what the moves left in one round trip (``_behind``), off the move's thread.
Any other push (a POST, a Celery worker's timer, a table whose sockets are spread over
processes) goes through the cache as above; it takes this process's memory where the cache does
not hold the version the change starts from yet, and ``history_since`` takes frames from both.
A process that goes away takes with it what it had not written yet (a fraction of a second):
the next push of those games, wherever it runs, finds an older version in the cache and sends
the whole felt and every part, and a page that asks ``since`` such a frame loads its view
(``docs/deploy.md``).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

# Long enough to span the slowest turn with its extra time; an entry is only ever trusted at the
# version it was written for.
TTL_S = 900

FeltSent = tuple[int, str, dict[str, str]]  # version, skeleton digest, region id -> digest
SeatSent = tuple[int, tuple[str, str, str]]  # version, digests of the parts' keys
# A felt frame kept for catching up: from, to, the felt's HTML by language (None: unchanged).
Kept = tuple[int, int, dict[str, str] | None]

_generation = [0]


def digest(text: str) -> str:
    """A digest that is the same in every process (unlike ``hash``)."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _game_key(game_id: int) -> str:
    """The one key of what was pushed for a game: its felt in each language, each seat's parts."""
    return f"sent:{_generation[0]}:{game_id}"


def _history_key(game_id: int, from_version: int) -> str:
    return f"sent:{_generation[0]}:{game_id}:from:{from_version}"


def history_frames() -> int:
    """How many felt frames a page may have missed and still catch up on over its socket."""
    return int(settings.LIVE_HISTORY_FRAMES)


# What is kept under a game's key: the felt by language, each seat's parts by user.
Remembered = tuple[dict[str, FeltSent], dict[int, SeatSent]]

# Seconds a push of an owned table trusts the values of the cache keys it read with what was
# pushed (the felt's rating badges, which change when a game ends) before it reads them again.
READS_TRUST_S = 60.0


@dataclass
class Owned:
    """What this process pushed for a game of a table it owns: the version of its last push,
    what that push left (as the cache would hold it), the felt frames by the version they move
    the felt from, and the cache keys read with it (``also``) with their values."""

    version: int
    remembered: Remembered
    frames: dict[int, Kept] = field(default_factory=dict)
    reads: dict[str, object] = field(default_factory=dict)
    asked: frozenset[str] = frozenset()
    read_at: float = 0.0
    written_at: float = 0.0


_owned: OrderedDict[int, Owned] = OrderedDict()  # by game, the least recently pushed first
_owned_lock = threading.Lock()  # the move threads of different tables push at once


def owned_games() -> int:
    """How many games' pushes this process remembers in its own memory (0: none)."""
    return int(settings.LIVE_OWNED_GAMES)


def _owned_of(game_id: int) -> Owned | None:
    """This process's memory of the game, whatever its version (its frames are kept)."""
    with _owned_lock:
        return _owned.get(game_id)


def _at(entry: Owned | None, version: int) -> Owned | None:
    """``entry`` when its last push made ``version`` (and it has not expired)."""
    if entry is None or entry.version != version or time.time() - entry.written_at > TTL_S:
        return None
    return entry


@dataclass
class Sent:
    """What was pushed for one game, read at the start of a push, and what this push sends."""

    game_id: int
    felts: dict[str, FeltSent] = field(default_factory=dict)
    seats: dict[int, SeatSent] = field(default_factory=dict)
    felts_sent: dict[str, FeltSent] = field(default_factory=dict)
    seats_sent: dict[int, SeatSent] = field(default_factory=dict)
    kept: Kept | None = None
    owned: Owned | None = None  # read for a table this process owns: written back to memory

    def felt_at(self, language: str, version: int) -> FeltSent | None:
        entry = self.felts.get(language)
        return entry if entry is not None and entry[0] == version else None

    def seat_at(self, user_id: int, version: int) -> tuple[str, str, str] | None:
        entry = self.seats.get(user_id)
        return entry[1] if entry is not None and entry[0] == version else None

    def seats_at(self, version: int) -> bool:
        """Whether any seat's parts read are remembered at ``version``."""
        return any(entry[0] == version for entry in self.seats.values())

    def felt_sent(self, language: str, entry: FeltSent) -> None:
        self.felts_sent[language] = entry

    def felt_carried(self, language: str, *, from_version: int, version: int) -> None:
        """The felt at ``version`` is the one sent at ``from_version`` (nothing shown changed)."""
        before = self.felt_at(language, from_version)
        if before is not None:
            self.felt_sent(language, (version, before[1], before[2]))

    def seat_sent(self, user_id: int, entry: SeatSent) -> None:
        self.seats_sent[user_id] = entry

    def history(self, *, from_version: int, version: int, html: dict[str, str] | None) -> None:
        """Keep the felt frame that moves the felt from ``from_version`` to ``version``."""
        self.kept = (from_version, version, html)

    def remembered(self) -> Remembered:
        """What this push sends with what it read and still holds, as it is remembered."""
        return {**self.felts, **self.felts_sent}, {**self.seats, **self.seats_sent}


def _take(sent: Sent, remembered: Remembered, languages: list[str], user_ids: list[int]) -> None:
    felts, seats = remembered
    sent.felts = {language: felts[language] for language in languages if language in felts}
    sent.seats = {user_id: seats[user_id] for user_id in user_ids if user_id in seats}


def _take_missing(sent: Sent, entry: Owned, languages: list[str], user_ids: list[int]) -> None:
    """Where the cache does not hold the version of ``entry``, what this process pushed at it."""
    felts, seats = entry.remembered
    for language in languages:
        if sent.felt_at(language, entry.version) is None and language in felts:
            sent.felts[language] = felts[language]
    for user_id in user_ids:
        if sent.seat_at(user_id, entry.version) is None and user_id in seats:
            sent.seats[user_id] = seats[user_id]


def sent_read(
    *,
    game_id: int,
    languages: list[str],
    user_ids: list[int],
    also: Iterable[str] = (),
    from_version: int | None = None,
) -> tuple[Sent, dict[str, object]]:
    """What was last pushed for the game in ``languages`` and to ``user_ids``, and the values of
    the cache keys ``also`` (one cache read for them all). Where the cache does not hold
    ``from_version`` (the version the change starts from), what this process remembers pushing
    at it."""
    game_key = _game_key(game_id)
    also = list(also)
    found = cache.get_many([game_key, *also])
    sent = Sent(game_id=game_id)
    remembered: Remembered | None = found.get(game_key)
    if remembered is not None:
        _take(sent, remembered, languages, user_ids)
    entry = _at(_owned_of(game_id), from_version) if from_version is not None else None
    if entry is not None:
        _take_missing(sent, entry, languages, user_ids)
    return sent, {key: found[key] for key in also if key in found}


def sent_read_owned(
    *,
    game_id: int,
    languages: list[str],
    user_ids: list[int],
    also: Iterable[str],
    from_version: int,
    reread: bool,
) -> tuple[Sent, dict[str, object]]:
    """``sent_read`` for a table this process owns: from its memory, when its last push made
    ``from_version`` and (unless ``reread``: the change may have changed them) it read the
    values of ``also`` less than ``READS_TRUST_S`` ago; else from the cache, once."""
    also = list(also)
    before = _owned_of(game_id)
    entry = _at(before, from_version)
    fresh = (
        entry is not None
        and not reread
        and entry.asked.issuperset(also)
        and time.time() - entry.read_at < READS_TRUST_S
    )
    if entry is None:
        sent, reads = sent_read(game_id=game_id, languages=languages, user_ids=user_ids, also=also)
        read_at = time.time()
    else:
        sent = Sent(game_id=game_id)
        _take(sent, entry.remembered, languages, user_ids)
        if fresh:
            reads, read_at = (
                {key: entry.reads[key] for key in also if key in entry.reads},
                entry.read_at,
            )
        else:
            found = cache.get_many(also) if also else {}
            reads, read_at = {key: found[key] for key in also if key in found}, time.time()
    sent.owned = Owned(
        version=from_version,
        remembered=({}, {}),
        frames=dict(before.frames) if before is not None else {},
        reads=reads,
        asked=frozenset(also),
        read_at=read_at,
    )
    return sent, reads


# How long the writer gathers the moves' writes after the first one before it sends them: at a
# hundred moves a second a few moves' writes share a round trip, and the moves in between do not
# wake it.
GATHER_S = 0.025


class _WriteBehind:
    """The cache's writes of the pushes of owned tables, sent by one thread of the process:
    whatever the moves left in ``GATHER_S`` after the first goes in one round trip (a newer
    entry of a game's key replaces an older one still waiting). A move wakes the thread only
    when it waits for work."""

    def __init__(self) -> None:
        self._pending: dict[str, object] = {}
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._idle = False  # the thread waits for a write
        self._writing = 0  # batches taken and not yet written
        self._thread: threading.Thread | None = None

    def put(self, entries: dict[str, object]) -> None:
        with self._lock:
            self._pending.update(entries)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="sent-writer", daemon=True)
                self._thread.start()
            elif self._idle:
                self._idle = False
                self._wake.notify_all()

    def discard(self, key: str) -> None:
        """Drop a waiting write of ``key``: a push through the cache wrote a newer one."""
        with self._lock:
            self._pending.pop(key, None)

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._pending:
                    self._idle = True
                    self._wake.wait()
                self._idle = False
                self._writing += 1
            time.sleep(GATHER_S)
            with self._lock:
                batch, self._pending = self._pending, {}
            try:
                if batch:
                    cache.set_many(batch, TTL_S)
            except Exception:  # the next push of these games sends them whole
                logger.warning("could not write %s pushes' memory to the cache", len(batch))
            finally:
                with self._lock:
                    self._writing -= 1
                    self._wake.notify_all()  # the flushes waiting

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every write put so far is in the cache (tests, a process stopping)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._pending or self._writing:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(left)
        return True


_behind = _WriteBehind()


def sent_flush(timeout: float = 5.0) -> bool:
    """Wait until what the pushes of owned tables left is written to the cache."""
    return _behind.flush(timeout)


def _owned_write(sent: Sent, owned: Owned) -> None:
    """Remember this push of an owned table in this process's memory, and write it to the cache
    behind the move (``_behind``)."""
    if sent.kept is None:
        return
    from_version, version, _html = sent.kept
    frames = {**owned.frames, from_version: sent.kept}
    for old in sorted(frames)[: max(0, len(frames) - history_frames())]:
        del frames[old]
    entry = Owned(
        version=version,
        remembered=sent.remembered(),
        frames=frames,
        reads=owned.reads,
        asked=owned.asked,
        read_at=owned.read_at,
        written_at=time.time(),
    )
    with _owned_lock:
        _owned[sent.game_id] = entry
        _owned.move_to_end(sent.game_id)
        while len(_owned) > owned_games():
            _owned.popitem(last=False)
    _behind.put(
        {
            _game_key(sent.game_id): entry.remembered,
            _history_key(sent.game_id, from_version): sent.kept,
        }
    )


def sent_write(sent: Sent) -> None:
    """Remember what this push sends with what it read and still holds (the languages and the
    players at the table), and keep its felt frame: one cache write of two keys (for a table
    this process owns, its memory, with the cache written behind). Two pushes of a game written
    at once from two processes keep one of them: an entry is only ever trusted at the version
    it was written for, so the other's next push sends its parts whole."""
    if sent.owned is not None:
        _owned_write(sent, sent.owned)
        return
    written: dict[str, Remembered | Kept] = {}
    if sent.felts_sent or sent.seats_sent:
        _behind.discard(_game_key(sent.game_id))  # an older owned push's, still waiting
        written[_game_key(sent.game_id)] = sent.remembered()
    if sent.kept is not None:
        written[_history_key(sent.game_id, sent.kept[0])] = sent.kept
    if written:
        cache.set_many(written, TTL_S)


def history_since(*, game_id: int, version: int, current: int) -> list[Kept] | None:
    """The felt frames from ``version`` up to ``current`` in order (this process's memory, then
    at most one cache read for the rest), or ``None`` when they are no longer all kept (the page
    then loads its view)."""
    if current <= version:
        return []
    if current - version > history_frames():
        return None
    entry = _owned_of(game_id)
    kept: dict[int, Kept] = {}
    if entry is not None and time.time() - entry.written_at <= TTL_S:
        kept.update(entry.frames)
    missing = {_history_key(game_id, v): v for v in range(version, current) if v not in kept}
    if missing:  # frames pushed by another process (or before the table was owned here)
        found: dict[str, Kept] = cache.get_many(list(missing))
        kept.update({missing[key]: frame for key, frame in found.items()})
    frames: list[Kept] = []
    at = version
    while at < current:
        frame = kept.get(at)
        if frame is None or frame[1] <= at:
            return None
        frames.append(frame)
        at = frame[1]
    return frames


def sent_forget() -> None:
    """Forget everything pushed before (the next push of every game sends it whole)."""
    _generation[0] += 1
    owned_forget()


def owned_forget() -> None:
    """Forget what this process remembers of its owned tables (as a new process knows nothing
    of them); the cache keeps what was written behind."""
    with _owned_lock:
        _owned.clear()
