"""What was last pushed for each game, shared by every web process through the cache (Redis
when configured): the felt in each language (its version, the digest of its skeleton and of
each region) and each seat's parts (their version and the digests of their keys).

The next push of a game, whichever process makes it, sends only what changed since, when what
is remembered is at the version the change starts from; anything else (nothing remembered, an
older version, the cache down or emptied) sends the whole felt and every part, which is always
right. One read and one write a push, whatever the number of seats and languages: all of a
game's is kept under one key, rewritten whole by each push.

The same write keeps each felt frame for a while (``history``), under the version it moves
the felt from, so a page that missed frames asks its socket ``since`` the version it shows and
gets them in order (``history_since``: one read) instead of loading its view again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache

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


@dataclass
class Sent:
    """What was pushed for one game, read at the start of a push, and what this push sends."""

    game_id: int
    felts: dict[str, FeltSent] = field(default_factory=dict)
    seats: dict[int, SeatSent] = field(default_factory=dict)
    felts_sent: dict[str, FeltSent] = field(default_factory=dict)
    seats_sent: dict[int, SeatSent] = field(default_factory=dict)
    kept: Kept | None = None

    def felt_at(self, language: str, version: int) -> FeltSent | None:
        entry = self.felts.get(language)
        return entry if entry is not None and entry[0] == version else None

    def seat_at(self, user_id: int, version: int) -> tuple[str, str, str] | None:
        entry = self.seats.get(user_id)
        return entry[1] if entry is not None and entry[0] == version else None

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


def sent_read(
    *, game_id: int, languages: list[str], user_ids: list[int], also: Iterable[str] = ()
) -> tuple[Sent, dict[str, object]]:
    """What was last pushed for the game in ``languages`` and to ``user_ids``, and the values of
    the cache keys ``also`` (one cache read for them all)."""
    game_key = _game_key(game_id)
    also = list(also)
    found = cache.get_many([game_key, *also])
    sent = Sent(game_id=game_id)
    remembered: Remembered | None = found.get(game_key)
    if remembered is not None:
        felts, seats = remembered
        sent.felts = {language: felts[language] for language in languages if language in felts}
        sent.seats = {user_id: seats[user_id] for user_id in user_ids if user_id in seats}
    return sent, {key: found[key] for key in also if key in found}


def sent_write(sent: Sent) -> None:
    """Remember what this push sends with what it read and still holds (the languages and the
    players at the table), and keep its felt frame: one cache write of two keys. Two pushes of a
    game written at once from two processes keep one of them: an entry is only ever trusted at
    the version it was written for, so the other's next push sends its parts whole."""
    written: dict[str, Remembered | Kept] = {}
    if sent.felts_sent or sent.seats_sent:
        written[_game_key(sent.game_id)] = (
            {**sent.felts, **sent.felts_sent},
            {**sent.seats, **sent.seats_sent},
        )
    if sent.kept is not None:
        written[_history_key(sent.game_id, sent.kept[0])] = sent.kept
    if written:
        cache.set_many(written, TTL_S)


def history_since(*, game_id: int, version: int, current: int) -> list[Kept] | None:
    """The felt frames from ``version`` up to ``current`` in order (one cache read), or
    ``None`` when they are no longer all kept (the page then loads its view)."""
    if current <= version:
        return []
    if current - version > history_frames():
        return None
    keys = [_history_key(game_id, v) for v in range(version, current)]
    found: dict[str, Kept] = cache.get_many(keys)
    frames: list[Kept] = []
    at = version
    while at < current:
        frame = found.get(_history_key(game_id, at))
        if frame is None or frame[1] <= at:
            return None
        frames.append(frame)
        at = frame[1]
    return frames


def sent_forget() -> None:
    """Forget everything pushed before (the next push of every game sends it whole)."""
    _generation[0] += 1
