"""What was last pushed for each game, shared by every web process through the cache (Redis
when configured): the felt in each language (its version, the digest of its skeleton and of
each region) and each seat's parts (their version and the digests of their keys).

The next push of a game, whichever process makes it, sends only what changed since, when what
is remembered is at the version the change starts from; anything else (nothing remembered, an
older version, the cache down or emptied) sends the whole felt and every part, which is always
right. One read and one write a push, whatever the number of seats and languages.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.core.cache import cache

# Long enough to span the slowest turn with its extra time; an entry is only ever trusted at the
# version it was written for.
TTL_S = 900

FeltSent = tuple[int, str, dict[str, str]]  # version, skeleton digest, region id -> digest
SeatSent = tuple[int, tuple[str, str, str]]  # version, digests of the parts' keys

_generation = [0]


def digest(text: str) -> str:
    """A digest that is the same in every process (unlike ``hash``)."""
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _felt_key(game_id: int, language: str) -> str:
    return f"sent:{_generation[0]}:{game_id}:felt:{language}"


def _seat_key(game_id: int, user_id: int) -> str:
    return f"sent:{_generation[0]}:{game_id}:seat:{user_id}"


@dataclass
class Sent:
    """What was pushed for one game, read at the start of a push, and what this push sends."""

    game_id: int
    felts: dict[str, FeltSent] = field(default_factory=dict)
    seats: dict[int, SeatSent] = field(default_factory=dict)
    written: dict[str, FeltSent | SeatSent] = field(default_factory=dict)

    def felt_at(self, language: str, version: int) -> FeltSent | None:
        entry = self.felts.get(language)
        return entry if entry is not None and entry[0] == version else None

    def seat_at(self, user_id: int, version: int) -> tuple[str, str, str] | None:
        entry = self.seats.get(user_id)
        return entry[1] if entry is not None and entry[0] == version else None

    def felt_sent(self, language: str, entry: FeltSent) -> None:
        self.written[_felt_key(self.game_id, language)] = entry

    def felt_carried(self, language: str, *, from_version: int, version: int) -> None:
        """The felt at ``version`` is the one sent at ``from_version`` (nothing shown changed)."""
        before = self.felt_at(language, from_version)
        if before is not None:
            self.felt_sent(language, (version, before[1], before[2]))

    def seat_sent(self, user_id: int, entry: SeatSent) -> None:
        self.written[_seat_key(self.game_id, user_id)] = entry


def sent_read(*, game_id: int, languages: list[str], user_ids: list[int]) -> Sent:
    """What was last pushed for the game in ``languages`` and to ``user_ids`` (one cache read)."""
    felt_keys = {_felt_key(game_id, language): language for language in languages}
    seat_keys = {_seat_key(game_id, user_id): user_id for user_id in user_ids}
    found = cache.get_many([*felt_keys, *seat_keys])
    sent = Sent(game_id=game_id)
    for key, value in found.items():
        if key in felt_keys:
            sent.felts[felt_keys[key]] = value
        elif key in seat_keys:
            sent.seats[seat_keys[key]] = value
    return sent


def sent_write(sent: Sent) -> None:
    """Remember what this push sends (one cache write)."""
    if sent.written:
        cache.set_many(sent.written, TTL_S)


def sent_forget() -> None:
    """Forget everything pushed before (the next push of every game sends it whole)."""
    _generation[0] += 1
