"""Shoes: building, shuffling (``secrets``, Fisher-Yates) and dealing (RULES.md sections 1, 4).

A ``Shoe`` is the whole order of the cards for one deal, fixed (and stored by the server)
before the first card is dealt, plus the random keys of every reshuffle the deal may need, so a
stored shoe reproduces the deal exactly.

Order convention (``deal``), with ``n`` players and hand size ``h``:

* ``cards[0]`` is dealt first. Cards ``0 .. n*h - 1`` are dealt one at a time round the table:
  card ``i`` goes to player ``i % n``, where player 0 is the deal's starter and the others follow
  clockwise. So player ``p`` holds ``cards[p], cards[p + n], cards[p + 2n], ...``.
* ``cards[n*h]`` is the first open card (the open deck).
* ``cards[n*h + 1]`` is the turned-up card that gives the wild joker (out of play).
* ``cards[n*h + 2:]`` is the closed deck, its first element on top (picked next).

Reshuffle number ``r`` (0-based) of a deal uses ``reshuffle_keys[r]``, a uniformly random
permutation of ``range(len(cards))``. The open deck minus its top card (listed bottom first) is
reordered by ascending key: the card at position ``i`` gets key ``keys[i]``. Because the keys are
distinct and uniformly permuted, the new order of any number of cards is uniformly random. The
open deck's top card stays as the new open deck.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import PRINTED_JOKER, STANDARD_PACK, Card, CardLike, parse_card, parse_cards
from .errors import InvalidShoe, Refusal
from .settings import GameSettings

__all__ = [
    "HAND_SIZE",
    "DealtCards",
    "RandBelow",
    "Shoe",
    "build_cards",
    "deal",
    "new_shoe",
    "random_permutation",
    "reshuffle",
    "shuffle_cards",
    "stacked_shoe",
    "toss",
]

HAND_SIZE = 13
"""Cards dealt to each player in the 13-card games."""

RandBelow = Callable[[int], int]
"""A function returning a uniformly random integer in ``0 .. n - 1``: ``secrets.randbelow``."""


@dataclass(frozen=True)
class Shoe:
    """The order of every card of a deal (``cards[0]`` dealt first) and the reshuffle keys."""

    cards: tuple[Card, ...]
    reshuffle_keys: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        size = len(self.cards)
        for keys in self.reshuffle_keys:
            if sorted(keys) != list(range(size)):
                raise InvalidShoe(Refusal.RESHUFFLE_KEY_PERMUTATION)

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [card.code for card in self.cards],
            "reshuffle_keys": [list(keys) for keys in self.reshuffle_keys],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Shoe:
        try:
            cards = tuple(parse_cards(data["cards"]))
            keys = tuple(tuple(int(k) for k in row) for row in data.get("reshuffle_keys", ()))
        except (KeyError, TypeError) as exc:
            raise InvalidShoe(Refusal.NOT_A_SHOE, detail=str(exc)) from exc
        return cls(cards, keys)


@dataclass(frozen=True)
class DealtCards:
    """The result of dealing a shoe: ``hands`` in deal order (starter first)."""

    hands: tuple[tuple[Card, ...], ...]
    open_card: Card
    cut_card: Card
    closed: tuple[Card, ...]


def build_cards(settings: GameSettings) -> tuple[Card, ...]:
    """Every card of the shoe the settings call for, unshuffled: each pack is the 52 cards
    (spades, hearts, diamonds, clubs; Ace to King) followed by its printed jokers."""
    pack = (*STANDARD_PACK, *([PRINTED_JOKER] * settings.printed_jokers_per_pack))
    return pack * settings.packs


def shuffle_cards(cards: Sequence[Card], *, randbelow: RandBelow | None = None) -> tuple[Card, ...]:
    """A Fisher-Yates shuffle of ``cards`` drawing from the OS CSPRNG (``secrets.randbelow``)
    unless another ``randbelow`` is given (tests, replays)."""
    draw = randbelow or secrets.randbelow
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = draw(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def random_permutation(size: int, *, randbelow: RandBelow | None = None) -> tuple[int, ...]:
    """A uniformly random permutation of ``range(size)`` (Fisher-Yates, ``secrets`` by default)."""
    draw = randbelow or secrets.randbelow
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = draw(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def new_shoe(settings: GameSettings, *, randbelow: RandBelow | None = None) -> Shoe:
    """A freshly shuffled shoe for one deal, with ``settings.max_reshuffles`` reshuffle keys."""
    cards = shuffle_cards(build_cards(settings), randbelow=randbelow)
    keys = tuple(
        random_permutation(len(cards), randbelow=randbelow) for _ in range(settings.max_reshuffles)
    )
    return Shoe(cards, keys)


def toss(seats: Sequence[int], *, randbelow: RandBelow | None = None) -> int:
    """The seat that starts the first deal, drawn uniformly at random."""
    if not seats:
        raise InvalidShoe(Refusal.TOSS_NEEDS_SEAT)
    return seats[(randbelow or secrets.randbelow)(len(seats))]


def check_shoe(shoe: Shoe, settings: GameSettings) -> None:
    """Raise ``InvalidShoe`` unless ``shoe`` holds exactly the cards of the settings' packs and
    enough reshuffle keys."""
    if Counter(shoe.cards) != Counter(build_cards(settings)):
        raise InvalidShoe(
            Refusal.SHOE_PACKS,
            packs=settings.packs,
            count=52 + settings.printed_jokers_per_pack,
        )
    if len(shoe.reshuffle_keys) < settings.max_reshuffles:
        raise InvalidShoe(Refusal.RESHUFFLE_KEYS_COUNT, count=settings.max_reshuffles)


def deal(shoe: Shoe | Sequence[Card], n_players: int, hand_size: int = HAND_SIZE) -> DealtCards:
    """Deal ``shoe`` to ``n_players`` (see the module docstring for the exact order)."""
    cards = shoe.cards if isinstance(shoe, Shoe) else tuple(shoe)
    if n_players < 1 or hand_size < 1:
        raise InvalidShoe(Refusal.DEAL_NEEDS_PLAYERS)
    dealt = n_players * hand_size
    if len(cards) < dealt + 2:
        raise InvalidShoe(
            Refusal.CARDS_CANNOT_DEAL, count=len(cards), hand_size=hand_size, players=n_players
        )
    hands = tuple(tuple(cards[p:dealt:n_players]) for p in range(n_players))
    return DealtCards(hands, cards[dealt], cards[dealt + 1], tuple(cards[dealt + 2 :]))


def reshuffle(
    open_deck: Sequence[Card], keys: Sequence[int]
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Turn the open deck (bottom first, top last) into ``(new closed deck, new open deck)``:
    every card but the top, ordered by ``keys``, becomes the closed deck (first = top); the old
    top card alone is the new open deck."""
    if not open_deck:
        return (), ()
    under = list(open_deck[:-1])
    if len(under) > len(keys):
        raise InvalidShoe(Refusal.RESHUFFLE_KEYS_SHORT)
    order = sorted(range(len(under)), key=lambda i: keys[i])
    return tuple(under[i] for i in order), (open_deck[-1],)


def stacked_shoe(
    settings: GameSettings,
    *,
    hands: Sequence[Sequence[CardLike]],
    open_card: CardLike,
    cut_card: CardLike,
    closed_top: Sequence[CardLike] = (),
    reshuffle_keys: Sequence[Sequence[int]] | None = None,
) -> Shoe:
    """A shoe that deals exactly ``hands`` (in deal order, starter first), ``open_card``,
    ``cut_card`` and then ``closed_top`` on top of the closed deck; the rest of the packs follow
    in ``build_cards`` order. Used to replay a known deal and in tests. Reshuffle keys default
    to the identity (the reshuffled cards keep their open-deck order, bottom first)."""
    parsed_hands = [parse_cards(hand) for hand in hands]
    if not parsed_hands or len({len(hand) for hand in parsed_hands}) != 1:
        raise InvalidShoe(Refusal.HANDS_SAME_SIZE)
    hand_size = len(parsed_hands[0])
    head: list[Card] = [
        parsed_hands[p][i] for i in range(hand_size) for p in range(len(parsed_hands))
    ]
    head += [parse_card(open_card), parse_card(cut_card), *parse_cards(closed_top)]
    rest = Counter(build_cards(settings))
    rest.subtract(head)
    missing = sorted({card.code for card, n in rest.items() if n < 0})
    if missing:
        raise InvalidShoe(Refusal.TOO_MANY_COPIES, names=tuple(missing))
    tail = [card for card in build_cards(settings) if _take(rest, card)]
    cards = (*head, *tail)
    if reshuffle_keys is None:
        keys = tuple(tuple(range(len(cards))) for _ in range(settings.max_reshuffles))
    else:
        keys = tuple(tuple(row) for row in reshuffle_keys)
    return Shoe(cards, keys)


def _take(remaining: Counter[Card], card: Card) -> bool:
    if remaining[card] > 0:
        remaining[card] -= 1
        return True
    return False
