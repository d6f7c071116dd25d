"""The classic shoe, its reproducible reshuffles and the server's ``StartDeal``."""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence

from ..cards import STANDARD_PACK, Card, CardLike, parse_card
from ..errors import InvalidMove, Refusal
from ..shoe import Shoe, shuffle_cards
from .actions import StartDeal
from .melds import to_cards
from .settings import ClassicSettings


def classic_shoe(settings: ClassicSettings) -> tuple[Card, ...]:
    """The unshuffled shoe: ``packs`` standard packs, no jokers."""
    return STANDARD_PACK * settings.packs


class _Stream:
    """A deterministic byte stream: SHA-256 over (seed, label, block number)."""

    def __init__(self, seed: str, label: str) -> None:
        self._prefix = f"{seed}\x00{label}\x00".encode()
        self._block = 0
        self._buffer = b""

    def _take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._buffer += hashlib.sha256(self._prefix + str(self._block).encode()).digest()
            self._block += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, bound: int) -> int:
        """An unbiased integer in ``0..bound-1`` (rejection sampling over 32-bit words)."""
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            value = int.from_bytes(self._take(4), "big")
            if value < limit:
                return value % bound


def seeded_shuffle(cards: Sequence[Card], seed: str, label: str) -> tuple[Card, ...]:
    """Fisher-Yates shuffle of ``cards`` driven by SHA-256 of ``seed`` and ``label``: the same
    inputs always give the same order. The seed comes from ``secrets`` (see ``new_start_deal``)."""
    items = list(cards)
    stream = _Stream(seed, label)
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


def stacked_classic_shoe(
    settings: ClassicSettings,
    *,
    hands: Sequence[Iterable[CardLike]],
    open_card: CardLike,
    stock_top: Iterable[CardLike] = (),
) -> Shoe:
    """A shoe that deals exactly ``hands`` (starter first, then clockwise), turns up
    ``open_card`` and puts ``stock_top`` on top of the stock; the other cards follow in
    ``classic_shoe`` order. For replaying a known hand and for tests."""
    parsed = [to_cards(hand) for hand in hands]
    if not parsed or any(len(hand) != settings.hand_size for hand in parsed):
        raise InvalidMove(Refusal.HAND_SIZE_EACH, count=settings.hand_size)
    head = [parsed[p][i] for i in range(settings.hand_size) for p in range(len(parsed))]
    head += [parse_card(open_card), *to_cards(stock_top)]
    rest = Counter(classic_shoe(settings))
    rest.subtract(head)
    extra = sorted({card.code for card, n in rest.items() if n < 0})
    if extra:
        raise InvalidMove(Refusal.TOO_MANY_COPIES, names=tuple(extra))
    tail: list[Card] = []
    for card in classic_shoe(settings):
        if rest[card] > 0:
            rest[card] -= 1
            tail.append(card)
    return Shoe((*head, *tail))


def new_start_deal(settings: ClassicSettings) -> StartDeal:
    """A ``StartDeal`` with a freshly shuffled shoe and reshuffle seed from ``secrets``
    (Fisher-Yates on the operating system's CSPRNG). The only impure function here."""
    return StartDeal(Shoe(shuffle_cards(classic_shoe(settings))), secrets.token_hex(32))
