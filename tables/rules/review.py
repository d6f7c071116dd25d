"""A player's review of one ended 13-card deal, with the engine's advice (pure).

``deal_review(replayed, seat=..., settings=...)`` reads the deal's moves as ``replay_moves``
(``tables.rules.replay``) rebuilt them (the same replay ``verify_deal`` checks) and returns,
for the player at ``seat``, one ``ReviewStep`` per step of the deal (its start, each turn with
its pick, re-arrangements and throw or show, each meld submitted; ``_turns``):

* ``lines``: what happened, as everyone at the table saw it (a card another player took from
  the closed deck is never named; the player's own pick is);
* ``hand``: the player's own groups after the move, and the open deck's top;
* ``advice`` on each of the player's turns that ended in a throw or a show: the count after
  the pick (the lowest count of the 14 cards), the best discard and the count it leaves against
  the count the player's discard left, and whether a valid show was possible;
* ``meld`` in the meld window: the best grouping of the player's 13 cards against the one
  submitted.

``DealReview`` adds the deal's summary (turns that lost points, how many, the turns a show was
possible but not made), the result everyone saw after the deal and the hands dealt (revealed by
the shoe once the deal has ended). Nothing of another player's hand is read before the end.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .cards import Card, parse_card
from .errors import Refusal, RulesError
from .evaluate import best_discard, evaluate_hand
from .game.actions import parse_groups
from .game.state import GameState, find_hand
from .game.view import game_view
from .melds import count_points
from .replay import ReplayedMove
from .settings import GameSettings

__all__ = ["DealReview", "MeldAdvice", "ReviewLine", "ReviewStep", "TurnAdvice", "deal_review"]

Codes = tuple[str, ...]


@dataclass(frozen=True)
class ReviewLine:
    """One thing that happened. ``kind``: "dealt", "picked_closed", "picked_open", "threw",
    "showed", "dropped", "submitted", "missed", "reshuffled", "left", "ended". ``card`` is set
    only where everyone saw it (or it was the reviewer's own pick); ``valid`` for a show."""

    kind: str
    seat: int | None = None
    card: str | None = None
    valid: bool | None = None
    auto: bool = False


@dataclass(frozen=True)
class TurnAdvice:
    """The engine's advice on one of the player's turns (counts uncapped)."""

    turn: int
    picked: str | None
    source: str | None
    count_after_pick: int
    best_discard: str
    best_count: int
    discard: str | None
    discard_count: int | None
    show_possible: bool
    showed: bool

    @property
    def lost(self) -> int:
        """Points the player's throw left over the best one (0 when it was as good)."""
        if self.discard_count is None:
            return 0
        return max(self.discard_count - self.best_count, 0)


@dataclass(frozen=True)
class MeldAdvice:
    best_count: int
    best_groups: tuple[Codes, ...]
    submitted_count: int
    submitted_groups: tuple[Codes, ...]


@dataclass(frozen=True)
class ReviewStep:
    index: int
    version: int
    lines: tuple[ReviewLine, ...]
    hand: tuple[Codes, ...]
    picked: str | None
    open_top: str | None
    closed_count: int
    turn_seat: int | None
    advice: TurnAdvice | None = None
    meld: MeldAdvice | None = None


@dataclass(frozen=True)
class DealReview:
    seat: int
    number: int
    cut: str
    steps: tuple[ReviewStep, ...]
    turns_lost: int
    points_lost: int
    show_turns: tuple[int, ...]
    result: Mapping[str, Any] | None
    dealt: Mapping[int, Codes]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for step, raw in zip(self.steps, data["steps"], strict=True):
            if step.advice is not None:
                raw["advice"]["lost"] = step.advice.lost
        data["dealt"] = {str(k): list(v) for k, v in self.dealt.items()}
        loaded: dict[str, Any] = json.loads(json.dumps(data))  # lists, string keys: JSON
        return loaded


def _codes(cards: Iterable[Card]) -> Codes:
    return tuple(c.code for c in cards)


def _lines(events: Sequence[Mapping[str, Any]], seat: int) -> list[ReviewLine]:
    lines: list[ReviewLine] = []
    for e in events:
        kind = e.get("type")
        who = int(e["seat"]) if e.get("seat") is not None else 0
        if kind == "deal_started":
            lines.append(ReviewLine("dealt", int(e["starter"]), str(e["open_card"])))
        elif kind == "card_picked":
            source = str(e["source"])
            shown = source == "open" or who == seat
            lines.append(
                ReviewLine(
                    "picked_open" if source == "open" else "picked_closed",
                    who,
                    str(e["card"]) if shown else None,
                    auto=bool(e.get("auto")),
                )
            )
        elif kind == "card_discarded":
            lines.append(ReviewLine("threw", who, str(e["card"]), auto=bool(e.get("auto"))))
        elif kind == "declared":
            lines.append(ReviewLine("showed", who, str(e["finish_card"]), valid=bool(e["valid"])))
        elif kind == "dropped":
            lines.append(ReviewLine("dropped", who))
        elif kind == "meld_submitted":
            lines.append(ReviewLine("submitted", who))
        elif kind == "turn_missed":
            lines.append(ReviewLine("missed", who))
        elif kind == "deck_reshuffled":
            lines.append(ReviewLine("reshuffled"))
        elif kind == "player_left":
            lines.append(ReviewLine("left", who))
        elif kind == "deal_ended":
            winner = e.get("winner")
            lines.append(ReviewLine("ended", int(winner) if winner is not None else None))
    return lines


def _turn_advice(
    cards14: Sequence[Card],
    cut: Card,
    settings: GameSettings,
    *,
    turn: int,
    picked: str | None,
    source: str | None,
    discard: Card | None,
    showed: bool,
) -> TurnAdvice:
    meld = settings.meld
    best = best_discard(cards14, cut, settings=meld)
    discard_count: int | None = None
    if discard is not None:
        kept = list(cards14)
        kept.remove(discard)
        discard_count = evaluate_hand(kept, cut, settings=meld).points
    return TurnAdvice(
        turn=turn,
        picked=picked,
        source=source,
        count_after_pick=evaluate_hand(cards14, cut, settings=meld).points,
        best_discard=best.card.code,
        best_count=best.evaluation.points,
        discard=discard.code if discard is not None else None,
        discard_count=discard_count,
        show_possible=best.evaluation.can_declare,
        showed=showed,
    )


# A line that begins a step (the deal, a player's pick) and lines that end one (a turn's end,
# a show, a drop, a submitted meld, the deal's end).
_OPENS = frozenset({"dealt", "picked_open", "picked_closed"})
_CLOSES = frozenset({"threw", "showed", "dropped", "missed", "left", "submitted", "ended"})


def _turns(moves: Sequence[ReviewStep]) -> list[ReviewStep]:
    """The moves folded into steps a player reads: the deal, then each turn (its pick, any
    re-arrangement and its throw or show), each meld submitted. A re-arrangement, which says
    nothing to the table, is part of the step around it (its hand is the step's hand)."""
    groups: list[list[ReviewStep]] = []
    for move in moves:
        kinds = {line.kind for line in move.lines}
        closed = bool(groups) and any(
            line.kind in _CLOSES for done in groups[-1] for line in done.lines
        )
        if not groups or kinds & _OPENS or (move.lines and closed):
            groups.append([move])
        else:
            groups[-1].append(move)
    folded: list[ReviewStep] = []
    for index, group in enumerate(groups):
        last = group[-1]
        folded.append(
            ReviewStep(
                index=index,
                version=last.version,
                lines=tuple(line for move in group for line in move.lines),
                hand=last.hand,
                picked=last.picked,
                open_top=last.open_top,
                closed_count=last.closed_count,
                turn_seat=last.turn_seat,
                advice=next((m.advice for m in reversed(group) if m.advice is not None), None),
                meld=next((m.meld for m in reversed(group) if m.meld is not None), None),
            )
        )
    return folded


def deal_review(
    replayed: Iterable[ReplayedMove], *, seat: int, settings: GameSettings, before: GameState
) -> DealReview:
    """The review of the deal for ``seat`` from its replayed moves (the deal's start first;
    moves after its end are left out). ``before``: the state before the deal."""
    steps: list[ReviewStep] = []
    state = before
    turn = 0
    picked: str | None = None
    source: str | None = None
    dealt: dict[int, Codes] = {}
    result: Mapping[str, Any] | None = None
    number = 0
    cut_code = ""
    for index, step in enumerate(replayed):
        previous, after = state, step.state
        if not isinstance(after, GameState):
            raise RulesError(Refusal.REVIEW_THIRTEEN_ONLY)
        state = after
        events = list(step.events)
        d = state.deal if state.deal is not None else previous.deal
        if d is None:
            continue
        if not dealt:
            dealt = {h.seat: _codes(h.cards) for h in d.hands}
            number, cut_code = d.number, d.cut_card.code
        advice: TurnAdvice | None = None
        meld: MeldAdvice | None = None
        for e in events:
            if e.get("seat") != seat:
                continue
            kind = e.get("type")
            if kind == "card_picked":
                turn += 1
                picked, source = str(e["card"]), str(e["source"])
            elif kind == "card_discarded" or kind == "declared":
                own = find_hand(d, seat)
                before_hand = find_hand(previous.deal, seat) if previous.deal else None
                if kind == "card_discarded" and own is not None:
                    thrown = parse_card(str(e["card"]))
                    cards14 = [*own.cards, thrown]
                else:
                    thrown = None
                    cards14 = list(before_hand.cards) if before_hand is not None else []
                if len(cards14) == 14:
                    advice = _turn_advice(
                        cards14,
                        d.cut_card,
                        settings,
                        turn=turn,
                        picked=picked,
                        source=source,
                        discard=thrown,
                        showed=kind == "declared",
                    )
                picked = source = None
            elif kind == "meld_submitted":
                own = find_hand(d, seat)
                payload = step.move.payload
                if own is not None:
                    submitted = own.groups
                    if payload.get("type") == "submit_meld" and payload.get("seat") == seat:
                        submitted = parse_groups(payload.get("groups") or ())
                    best = evaluate_hand(own.cards, d.cut_card, settings=settings.meld)
                    best_groups = [*best.groups, *([best.ungrouped] if best.ungrouped else [])]
                    meld = MeldAdvice(
                        best_count=best.points,
                        best_groups=tuple(_codes(g) for g in best_groups),
                        submitted_count=count_points(submitted, d.cut_card, settings=settings.meld),
                        submitted_groups=tuple(_codes(g) for g in submitted),
                    )
        own = find_hand(d, seat)
        steps.append(
            ReviewStep(
                index=index,
                version=step.move.version,
                lines=tuple(_lines(events, seat)),
                hand=tuple(_codes(g) for g in own.groups) if own is not None else (),
                picked=d.picked.code if d.turn == seat and d.picked is not None else None,
                open_top=d.open[-1].code if d.open else None,
                closed_count=len(d.closed),
                turn_seat=d.turn if state.phase == "turn" else None,
                advice=advice,
                meld=meld,
            )
        )
        ended = next((e for e in events if e.get("type") == "deal_ended"), None)
        if ended is not None:
            result = {
                "ended": dict(ended),
                "last_deal": game_view(state, None)["last_deal"],
            }
            break
    steps = _turns(steps)
    advices = [s.advice for s in steps if s.advice is not None]
    lost = [a for a in advices if a.lost > 0]
    return DealReview(
        seat=seat,
        number=number,
        cut=cut_code,
        steps=tuple(steps),
        turns_lost=len(lost),
        points_lost=sum(a.lost for a in lost),
        show_turns=tuple(a.turn for a in advices if a.show_possible and not a.showed),
        result=result,
        dealt=dealt,
    )
