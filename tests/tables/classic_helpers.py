"""Helpers of the classic-table tests: planted classic deals, rule-book card values, snapshots.

Planting a classic hand: ``ClassicPlanter.add(hands={seat: codes}, open_card=..., stock_top=...)``
queues a hand; when the server next asks ``_context.deal_shoe_new`` for a start-deal action it
gets a classic ``StartDeal`` whose shoe (``stacked_classic_shoe``) deals exactly those hands,
whatever the deal order is, and whose reshuffle seed is the planted one (default ``SEED``).
Seats left out are dealt filler cards (the unused cards in pack order).
"""

from __future__ import annotations

import json
from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tables_testkit import deal_order

from ledger import selectors as ledger_selectors
from tables.models import Deal, Game, Move
from tables.rules import classic
from tables.rules.cards import parse_cards

SEED = "c1a551c0" * 8
"""A planted reshuffle seed (64 hex digits, as ``new_start_deal`` makes with ``secrets``)."""

# Card values of RULES.md section 8, written out independently of the engine.
RULE_BOOK_VALUES: dict[str, int] = {
    **{str(n): n for n in range(2, 11)},
    "J": 10,
    "Q": 10,
    "K": 10,
    "A": 11,
}


def rule_points(codes: str | Iterable[str]) -> int:
    """What a loser's cards count by the rule book: 2-10 face value, J Q K 10, A 11."""
    cards = codes.split() if isinstance(codes, str) else list(codes)
    return sum(RULE_BOOK_VALUES[code[:-1]] for code in cards)


def codes(value: str | Iterable[str]) -> list[str]:
    """Card codes from a space-separated string or an iterable of codes (validated)."""
    return [card.code for card in parse_cards(value)]


@dataclass
class PlannedHand:
    hands: dict[int, list[str]]
    open_card: str
    stock_top: list[str] = field(default_factory=list)
    seed: str = SEED


class ClassicPlanter:
    """Replaces ``_context.deal_shoe_new`` at classic tables: queued hands are dealt as planted,
    the rest are shuffled as usual (``classic.new_start_deal``)."""

    def __init__(self) -> None:
        self.queue: deque[PlannedHand] = deque()
        self.dealt: list[PlannedHand] = []

    def add(
        self,
        *,
        hands: Mapping[int, str | Sequence[str]],
        open_card: str,
        stock_top: str | Sequence[str] = (),
        seed: str = SEED,
    ) -> None:
        self.queue.append(
            PlannedHand(
                hands={seat: codes(hand) for seat, hand in hands.items()},
                open_card=codes([open_card])[0],
                stock_top=codes(stock_top),
                seed=seed,
            )
        )

    def __call__(self, *, game: Game, settings: Any) -> Any:
        assert game.variant == "classic", "the classic planter deals classic games only"
        if not self.queue:
            return classic.new_start_deal(settings)
        plan = self.queue.popleft()
        self.dealt.append(plan)
        order = deal_order(game)
        assert set(plan.hands) <= set(order), f"planted seats {set(plan.hands)} not in {order}"
        spare: Counter[str] = Counter(card.code for card in classic.classic_shoe(settings))
        spare.subtract([c for hand in plan.hands.values() for c in hand])
        spare.subtract([plan.open_card, *plan.stock_top])
        filler: list[str] = []
        for card in classic.classic_shoe(settings):
            if spare[card.code] > 0:
                spare[card.code] -= 1
                filler.append(card.code)
        hands: list[list[str]] = []
        for seat in order:
            if seat in plan.hands:
                hands.append(plan.hands[seat])
            else:
                hands.append(filler[: settings.hand_size])
                del filler[: settings.hand_size]
        shoe = classic.stacked_classic_shoe(
            settings, hands=hands, open_card=plan.open_card, stock_top=plan.stock_top
        )
        return classic.StartDeal(shoe, plan.seed)


# --------------------------------------------------------------------------- reads


def state_of(game: Game) -> classic.ClassicState:
    """The full server-side classic state of ``game`` (support view: every card)."""
    game.refresh_from_db()
    assert game.state is not None
    return classic.ClassicState.from_json(game.state)


def hand_of(game: Game, seat: int) -> list[str]:
    return [card.code for card in state_of(game).player(seat).hand]


def last_events(game: Game, kind: str | None = None) -> list[dict[str, Any]]:
    """The events of the newest move (only those of type ``kind`` when given)."""
    move = Move.objects.filter(game=game).order_by("-version").first()
    assert move is not None
    return [e for e in move.events if kind is None or e["type"] == kind]


def events_of(game: Game, kind: str) -> list[dict[str, Any]]:
    """Every logged event of type ``kind`` in ``game``, oldest first."""
    found: list[dict[str, Any]] = []
    for move in Move.objects.filter(game=game).order_by("version"):
        found.extend(e for e in move.events if e["type"] == kind)
    return found


def snapshot(game: Game, users: Iterable[Any]) -> dict[str, Any]:
    """Everything a refused request must leave as it was: the game row, its move log and
    deals, every wallet and the pot."""
    game.refresh_from_db()
    return {
        "version": game.version,
        "status": game.status,
        "state": json.dumps(game.state, sort_keys=True),
        "deadline": game.deadline,
        "moves": Move.objects.filter(game=game).count(),
        "deals": Deal.objects.filter(game=game).count(),
        "wallets": [
            ledger_selectors.wallet_balance(user=user, currency=game.currency) for user in users
        ],
        "pot": ledger_selectors.pot_balance(pot_ref=game.pot_ref, currency=game.currency),
    }
