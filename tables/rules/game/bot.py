"""Computer players of the 13-card games, in three strengths (pure: no Django, no state).

A bot sees only a ``SeatView``: what its own seat may know. It is built by ``seat_view`` from the
engine's view of that seat (``game_view(state, seat)``: its own cards, the open deck's top, the
counts) and from the deal's public record (``public_record``: every open discard and every card
picked from the open deck, by seat; a pick from the closed deck records nothing). It holds no
other seat's cards and nothing of the closed deck, so no strength can read them.

``bot_decide(view, strength, seed=...)`` returns the action as engine JSON (without the seat),
or ``None`` when the seat has nothing to do:

* ``medium``: the greedy player. Pick the open card when it lowers the hand's best count, else
  the closed deck; drop on the first turn only when the hand is hopeless (no joker and even its
  best arrangement counts the full count); after picking, show when the hand can be shown, else
  throw the card whose loss leaves the lowest count; in a meld window submit the best
  arrangement; accept a split; never rejoin.
* ``easy``: the greedy player with mistakes: it never takes the open card, never drops, and
  about one discard in three (``EASY_MISTAKE``, drawn from ``seed``) throws a random card that
  is not a joker instead of the best one.
* ``hard``: counts the cards it has seen (its own, the open discards and the opponents' open
  picks) to judge what the closed deck may still bring. Among the discards within
  ``HARD_MARGIN`` of the lowest count it keeps the hand expected to count least after the next
  card (the live cards that would complete its partial melds, ``HARD_OUT_WEIGHT``), with a
  penalty (``HARD_DANGER``) for a card next to what an opponent took from the open deck (a set
  of that rank or a run in that suit: it keeps useful cards from them). It takes the open card
  only when that leaves a lower count than the closed deck is expected to, and drops on its
  first turn a hand with no pure sequence and no joker that counts ``HARD_FIRST_DROP`` or more.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..cards import ACE, KING, Card, parse_card
from ..evaluate import HandEvaluation, best_discard, evaluate_hand
from ..melds import MeldKind, MeldSettings, card_points, classify_group, is_joker
from ..settings import GameSettings

__all__ = [
    "STRENGTHS",
    "PublicRecord",
    "SeatView",
    "Strength",
    "bot_decide",
    "public_record",
    "seat_view",
]

Strength = Literal["easy", "medium", "hard"]
STRENGTHS: Final[tuple[Strength, ...]] = ("easy", "medium", "hard")

EASY_MISTAKE: Final = 0.35
"""How often the easy bot throws a random card instead of the best one."""
HARD_MARGIN: Final = 14
"""The hard bot weighs every discard whose count is at most this many points over the lowest."""
HARD_OUT_WEIGHT: Final = 2.0
"""How much the hard bot weighs what the next card is expected to take off its count (the live
cards completing its partial melds) against the count now."""
HARD_DANGER: Final = 1
"""Points of penalty for throwing a card next to an opponent's open pick."""
HARD_FIRST_DROP: Final = 60
"""The hard bot drops on its first turn a hand whose best count is at least this, with no joker
and no pure sequence."""


@dataclass(frozen=True)
class PublicRecord:
    """What everyone at the table saw of the deal so far: ``discards`` every card thrown to the
    open deck (the first open card as seat ``None``), ``open_picks`` every card taken from it,
    each with its seat, oldest first."""

    discards: tuple[tuple[int | None, Card], ...] = ()
    open_picks: tuple[tuple[int, Card], ...] = ()


def public_record(events: Iterable[Mapping[str, Any]]) -> PublicRecord:
    """The public record of the current deal from its events (as JSON, oldest first; a new
    deal starts a new record). A card picked from the closed deck is never recorded."""
    discards: list[tuple[int | None, Card]] = []
    picks: list[tuple[int, Card]] = []
    for event in events:
        kind = event.get("type")
        if kind == "deal_started":
            discards, picks = [(None, parse_card(event["open_card"]))], []
        elif kind == "card_discarded":
            discards.append((int(event["seat"]), parse_card(event["card"])))
        elif kind == "card_picked" and event.get("source") == "open":
            picks.append((int(event["seat"]), parse_card(event["card"])))
    return PublicRecord(discards=tuple(discards), open_picks=tuple(picks))


@dataclass(frozen=True)
class SeatView:
    """Everything a bot may read: its own seat's knowledge, nothing else."""

    seat: int
    allowed: frozenset[str]
    cards: tuple[Card, ...]
    picked: Card | None
    picked_from_open: bool
    cut: Card | None
    open_top: Card | None
    turns: int
    opponents: tuple[int, ...]
    record: PublicRecord
    meld: MeldSettings
    full_count: int
    first_drop: int
    middle_drop: int
    packs: int
    printed_jokers: int


def seat_view(view: Mapping[str, Any], record: PublicRecord, settings: GameSettings) -> SeatView:
    """A bot's ``SeatView`` from the engine's view of its seat (``game_view(state, seat)``), the
    deal's ``public_record`` and the game's settings."""
    seat = int(view["viewer"])
    hand = view.get("hand") or {}
    deal = view.get("deal") or {}
    me: Mapping[str, Any] = next((p for p in view.get("players", ()) if p["seat"] == seat), {})
    cut = deal.get("cut_joker")
    top = deal.get("open_top")
    picked = hand.get("picked")
    return SeatView(
        seat=seat,
        allowed=frozenset(view.get("allowed", ())),
        cards=tuple(parse_card(c) for c in hand.get("cards", ())),
        picked=parse_card(picked) if picked else None,
        picked_from_open=bool(deal.get("picked_open_card")),
        cut=parse_card(cut) if cut else None,
        open_top=parse_card(top) if top else None,
        turns=int(me.get("turns", 0)),
        opponents=tuple(
            p["seat"]
            for p in view.get("players", ())
            if p["seat"] != seat and p.get("deal_status") == "playing"
        ),
        record=record,
        meld=settings.meld,
        full_count=settings.full_count,
        first_drop=settings.first_drop,
        middle_drop=settings.middle_drop,
        packs=settings.packs,
        printed_jokers=settings.printed_jokers_per_pack,
    )


# =============================================================================== decisions


def _groups_json(evaluation: HandEvaluation) -> list[list[str]]:
    groups = [[c.code for c in g] for g in evaluation.groups]
    if evaluation.ungrouped:
        groups.append([c.code for c in evaluation.ungrouped])
    return groups


def _without(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


def _evaluations(view: SeatView) -> dict[Card, HandEvaluation]:
    """The evaluation of the hand kept after each distinct discard."""
    assert view.cut is not None
    return {
        card: evaluate_hand(_without(view.cards, card), view.cut, settings=view.meld)
        for card in dict.fromkeys(view.cards)
    }


def _code(card: Card) -> str:
    return card.code


def _declare(finish: Card, kept: HandEvaluation) -> dict[str, Any]:
    return {
        "type": "declare",
        "finish_card": finish.code,
        "groups": [[c.code for c in g] for g in kept.groups],
    }


def _points(view: SeatView, card: Card) -> int:
    assert view.cut is not None
    return card_points(card, view.cut)


def _has_pure(evaluation: HandEvaluation, view: SeatView) -> bool:
    assert view.cut is not None
    return any(
        classify_group(g, view.cut, settings=view.meld) is MeldKind.PURE_SEQUENCE
        for g in evaluation.groups
    )


def _unseen(view: SeatView) -> Counter[Card]:
    """The cards this seat has not seen: the packs, less its own cards and every open discard
    (a card picked from the open deck was a discard first)."""
    counts: Counter[Card] = Counter()
    for rank in range(ACE, KING + 1):
        for suit in "SHDC":
            counts[Card(rank, suit)] = view.packs
    counts[Card(0, "")] = view.packs * view.printed_jokers
    counts.subtract(view.cards)
    counts.subtract(card for _, card in view.record.discards)
    return counts


def _relevant(kept: HandEvaluation, view: SeatView, unseen: Counter[Card]) -> list[Card]:
    """The unseen cards that could lower the count of ``kept``: a joker, a card of the rank of a
    loose card, or of its suit within two ranks."""
    assert view.cut is not None
    loose = [c for c in kept.ungrouped if not is_joker(c, view.cut)]
    found: set[Card] = set()
    for card, n in unseen.items():
        if n <= 0:
            continue
        if is_joker(card, view.cut) or any(
            card.rank == c.rank or (card.suit == c.suit and abs(card.rank - c.rank) <= 2)
            for c in loose
        ):
            found.add(card)
    return sorted(found, key=_code)


def _expected_count(
    kept_cards: Sequence[Card], kept: HandEvaluation, view: SeatView, unseen: Counter[Card]
) -> float:
    """The count ``kept`` is expected to have after the next card from the closed deck (drawn
    from the cards this seat has not seen) and the best throw after it."""
    assert view.cut is not None
    now = min(kept.points, view.full_count)
    total = sum(n for n in unseen.values() if n > 0)
    if total == 0:
        return float(now)
    gain = 0.0
    for card in _relevant(kept, view, unseen):
        drawn = evaluate_hand([*kept_cards, card], view.cut, settings=view.meld)
        loose = [_points(view, c) for c in drawn.ungrouped]
        after = min(drawn.points - max(loose, default=0), view.full_count)
        if after < now:
            gain += unseen[card] * (now - after)
    return now - HARD_OUT_WEIGHT * gain / total


def _danger(view: SeatView, card: Card) -> int:
    """How close ``card`` is to what the opponents took from the open deck."""
    score = 0
    for seat, taken in view.record.open_picks:
        if seat == view.seat or taken.is_printed_joker:
            continue
        near = taken.suit == card.suit and abs(taken.rank - card.rank) <= 2
        if taken.rank == card.rank or near:
            score += 1
    return score


def _hard_discard(view: SeatView, evals: Mapping[Card, HandEvaluation]) -> Card:
    lowest = min(e.points for e in evals.values())
    unseen = _unseen(view)
    candidates = [
        c
        for c, e in evals.items()
        if e.points <= lowest + HARD_MARGIN and not (view.picked_from_open and c == view.picked)
    ] or list(evals)

    def score(card: Card) -> tuple[float, int, str]:
        kept = _without(view.cards, card)
        value = _expected_count(kept, evals[card], view, unseen) + HARD_DANGER * _danger(view, card)
        return (value, -_points(view, card), card.code)

    return min(candidates, key=score)


def _drop_now(view: SeatView, strength: Strength) -> bool:
    assert view.cut is not None
    if "drop" not in view.allowed or strength == "easy":
        return False
    current = evaluate_hand(view.cards, view.cut, settings=view.meld)
    jokers = sum(1 for c in view.cards if is_joker(c, view.cut))
    if strength == "medium":
        return view.turns == 0 and current.points >= view.full_count and jokers == 0
    if _has_pure(current, view):
        return False
    return view.turns == 0 and current.points >= HARD_FIRST_DROP and jokers == 0


def _pick(view: SeatView, strength: Strength) -> dict[str, Any]:
    assert view.cut is not None
    top = view.open_top
    if strength != "easy" and "pick_open" in view.allowed and top is not None:
        current = evaluate_hand(view.cards, view.cut, settings=view.meld)
        with_top = [*view.cards, top]
        kept = [
            evaluate_hand(_without(with_top, c), view.cut, settings=view.meld).points
            for c in dict.fromkeys(with_top)
            if c != top
        ]
        if not kept:
            return {"type": "pick_closed"}
        if strength == "medium":
            if min(kept) < current.points:
                return {"type": "pick_open"}
        else:  # hard: the open card against what the closed deck is expected to bring
            closed = _expected_count(view.cards, current, view, _unseen(view))
            if min(min(kept), view.full_count) < closed:
                return {"type": "pick_open"}
    return {"type": "pick_closed"}


def bot_decide(view: SeatView, strength: Strength, *, seed: int = 0) -> dict[str, Any] | None:
    """The action a computer player of ``strength`` takes now, as engine JSON without the seat
    (``None``: nothing to do). ``seed`` makes the easy bot's mistakes reproducible."""
    allowed = view.allowed
    if view.cut is None or not view.cards:
        return {"type": "split_accept"} if "split_accept" in allowed else None
    if "pick_closed" in allowed:
        if _drop_now(view, strength):
            return {"type": "drop"}
        return _pick(view, strength)
    if "discard" in allowed:
        if strength == "hard":
            evals = _evaluations(view)
            showable = [c for c, e in evals.items() if e.can_declare]
            if showable and "declare" in allowed:
                return _declare(showable[0], evals[showable[0]])
            return {"type": "discard", "card": _hard_discard(view, evals).code}
        choice = best_discard(view.cards, view.cut, settings=view.meld)
        if choice.evaluation.can_declare and "declare" in allowed:
            return _declare(choice.card, choice.evaluation)
        card = choice.card
        if view.picked_from_open and card == view.picked and len(view.cards) > 1:
            card = next(c for c in sorted(view.cards, key=_code, reverse=True) if c != card)
        rng = random.Random(seed)
        if strength == "easy" and rng.random() < EASY_MISTAKE:
            plain = sorted((c for c in view.cards if not is_joker(c, view.cut)), key=_code)
            if plain:
                card = rng.choice(plain)
        return {"type": "discard", "card": card.code}
    if "submit_meld" in allowed:
        evaluation = evaluate_hand(view.cards, view.cut, settings=view.meld)
        return {"type": "submit_meld", "groups": _groups_json(evaluation)}
    if "split_accept" in allowed:
        return {"type": "split_accept"}
    return None
