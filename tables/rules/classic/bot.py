"""The classic computer players: their meld moves and the three levels' choices."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import ACE, KING, Card, CardLike
from ..errors import RulesError
from .melds import TableMeld, card_points, classify_meld, hand_points, lay_off_result, to_cards
from .settings import MIN_MELD, ClassicSettings


def _candidate_melds(hand: Sequence[Card], settings: ClassicSettings) -> list[tuple[Card, ...]]:
    """Sets and runs that can be laid down from ``hand`` (each checked by ``classify_meld``)."""
    found: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for card in hand:
        by_rank.setdefault(card.rank, []).append(card)
        by_suit.setdefault(card.suit, []).append(card)
    for cards in by_rank.values():
        group = (
            cards if settings.set_suits_may_repeat else list({c.suit: c for c in cards}.values())
        )
        if settings.largest_set is not None:
            group = group[: settings.largest_set]
        if len(group) >= MIN_MELD:
            found.append(tuple(group))
    for suit_cards in by_suit.values():
        ranks = {c.rank: c for c in suit_cards}
        positions = sorted(ranks) + ([KING + 1] if settings.ace_high and ACE in ranks else [])
        if not settings.ace_low and ACE in ranks:
            positions.remove(ACE)
        run: list[int] = []
        for pos in [*positions, -1]:
            if run and pos == run[-1] + 1:
                run.append(pos)
                continue
            if len(run) >= MIN_MELD:
                found.append(tuple(ranks[ACE if p == KING + 1 else p] for p in run))
            run = [pos]
    return [meld for meld in found if classify_meld(meld, settings) is not None]


def bot_meld_action(
    hand: Sequence[CardLike], melds: Sequence[TableMeld], settings: ClassicSettings
) -> tuple[str, Any] | None:
    """A simple computer player's next meld move after drawing, shedding the most penalty points
    first: ``("lay_down", cards)`` or ``("lay_off", (card, meld_id))``, or ``None``. It keeps a
    card to discard unless going out by melding is allowed."""
    cards = to_cards(hand)
    keep = 0 if settings.go_out_by_melding else 1
    candidates = [m for m in _candidate_melds(cards, settings) if len(cards) - len(m) >= keep]
    if candidates:
        best = max(candidates, key=lambda m: (hand_points(m, settings), len(m)))
        return ("lay_down", best)
    if len(cards) - 1 < keep:
        return None
    for card in sorted(cards, key=lambda c: (card_points(c, settings), c), reverse=True):
        for meld in melds:
            try:
                lay_off_result(meld, [card], settings)
            except RulesError:
                continue
            return ("lay_off", (card, meld.id))
    return None


# --------------------------------------------------------------------------- the three levels

CLASSIC_STRENGTHS = ("easy", "medium", "hard")


def _order(card: Card, settings: ClassicSettings) -> tuple[int, str]:
    return card_points(card, settings), card.code


def _near_meld(card: Card, hand: Sequence[Card]) -> bool:
    """Whether ``card`` is half of a meld in ``hand``: a pair of its rank, or a card of its suit
    one or two ranks away."""
    for other in hand:
        if other is card:
            continue
        if other.rank == card.rank:
            return True
        if other.suit == card.suit and 0 < abs(other.rank - card.rank) <= 2:
            return True
    return False


def _useful_open(top: Card, hand: Sequence[Card], settings: ClassicSettings) -> bool:
    """Whether the open card would make a meld with the hand that the hand alone does not."""
    with_top = _candidate_melds([*hand, top], settings)
    return any(any(c is top for c in meld) for meld in with_top)


def classic_bot_decide(
    view: Mapping[str, Any], settings: ClassicSettings, strength: str = "medium", seed: int = 0
) -> dict[str, Any] | None:
    """The action (engine JSON without the seat) a computer player at ``strength`` takes now in
    classic rummy, from its own view (its cards, the open card, the melds on the table):

    * easy: draws from the stock, lays down the first meld it sees (never lays off) and throws
      a card at random;
    * medium: draws from the stock, lays down the meld worth most, lays off what fits, throws
      its highest card;
    * hard: as medium, but takes the open card when it makes a meld, and throws its highest
      card that is not half of a meld (a pair, or a neighbour in its suit)."""
    allowed = set(view.get("allowed", ()))
    deal: Mapping[str, Any] = view.get("deal") or {}
    hand = to_cards((view.get("hand") or {}).get("cards") or [])
    if strength not in CLASSIC_STRENGTHS:
        strength = "medium"
    if "pick_closed" in allowed or "pick_open" in allowed:
        top = deal.get("open_top")
        if (
            strength == "hard"
            and "pick_open" in allowed
            and top
            and _useful_open(to_cards([top])[0], hand, settings)
        ):
            return {"type": "pick_open"}
        return {"type": "pick_closed"} if "pick_closed" in allowed else {"type": "pick_open"}
    if "lay_down" in allowed and hand:
        if strength == "easy":
            keep = 0 if settings.go_out_by_melding else 1
            first = [m for m in _candidate_melds(hand, settings) if len(hand) - len(m) >= keep]
            if first:
                return {"type": "lay_down", "melds": [[c.code for c in first[0]]]}
        else:
            melds = [TableMeld.from_json(m) for m in deal.get("melds", [])]
            move = bot_meld_action(hand, melds, settings)
            if move is not None and move[0] == "lay_down":
                return {"type": "lay_down", "melds": [[c.code for c in move[1]]]}
            if move is not None and "lay_off" in allowed:
                card, meld_id = move[1]
                return {"type": "lay_off", "cards": [card.code], "meld_id": meld_id}
    if "discard" in allowed and hand:
        picked = deal.get("picked_open_card")
        candidates = [c for c in hand if c.code != picked] or list(hand)
        if strength == "easy":
            choice = random.Random(seed).choice(candidates)
        elif strength == "hard":
            loose = [c for c in candidates if not _near_meld(c, hand)] or candidates
            choice = max(loose, key=lambda c: _order(c, settings))
        else:
            choice = max(candidates, key=lambda c: _order(c, settings))
        return {"type": "discard", "card": choice.code}
    return None
