"""What just happened at the table, for everyone: one short line per public move ("Bilal took
6♠ from the open deck", "Chen dropped: 20") and the open deck's history (the last discards, with
who threw them), from the newest entries of the move log (``selectors.recent_moves``, or the
moves a push's own change recorded).

Only public facts are put in words: a card picked from the closed deck is never named, nor any
hand. Presentation only: the events are the engine's."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .cards import CardFace, card_face, cards_words

__all__ = ["MoveLine", "move_lines", "recent_discards"]

HISTORY_SIZE = 8
"""How many discards the open deck's history shows."""

_DROP_WORDS = {
    "drop": "dropped",
    "middle_drop": "dropped",
    "missed_turns": "was dropped after missing turns",
    "auto_drop": "dropped (auto drop)",
    "leave": "left the deal",
    "disconnect": "was dropped (offline)",
}


@dataclass(frozen=True)
class MoveLine:
    """One public move: ``text`` in words, who made it (``seat``, ``None``: the server), the
    card everyone saw (``card``: a discard or a pick from the open deck) and the version the
    move produced. ``kind`` names the move for the page (``pick_open``, ``discard``...)."""

    version: int
    seat: int | None
    kind: str
    text: str
    card: CardFace | None = None
    who: str = ""


def _line(
    event: dict[str, Any], version: int, name: Callable[[int], str], cut: str | None
) -> MoveLine | None:
    kind = event.get("type")
    seat = event.get("seat")
    who = name(seat) if isinstance(seat, int) else ""
    if kind == "card_picked":
        late = " (time ran out)" if event.get("auto") else ""
        if event.get("source") == "open":
            card = card_face(event.get("card"), cut)
            label = card.label if card is not None else "a card"
            return MoveLine(
                version, seat, "pick_open", f"{who} took {label} from the open deck{late}", card
            )
        # The closed deck's card is the picker's secret: never named.
        return MoveLine(version, seat, "pick_closed", f"{who} picked from the closed deck{late}")
    if kind == "card_discarded":
        card = card_face(event.get("card"), cut)
        label = card.label if card is not None else "a card"
        late = " (time ran out)" if event.get("auto") else ""
        return MoveLine(version, seat, "discard", f"{who} discarded {label}{late}", card)
    if kind == "dropped":
        words = _DROP_WORDS.get(str(event.get("reason")), "dropped")
        return MoveLine(version, seat, "drop", f"{who} {words}: {event.get('score')}")
    if kind == "declared":
        if event.get("valid"):
            return MoveLine(version, seat, "declare", f"{who} declared a valid show")
        return MoveLine(version, seat, "declare", f"{who} made a wrong show")
    if kind == "meld_submitted":
        return MoveLine(version, seat, "meld", f"{who} submitted their groups")
    if kind == "turn_missed":
        return MoveLine(version, seat, "missed", f"{who} missed a turn")
    if kind == "extra_time_started":
        return MoveLine(version, seat, "extra_time", f"{who} is on extra time")
    if kind == "deck_reshuffled":
        return MoveLine(
            version, None, "reshuffle", "The open deck was shuffled into the closed deck"
        )
    if kind == "deal_started":
        return MoveLine(version, None, "deal", f"Cards dealt: {name(event['starter'])} starts")
    if kind == "eliminated":
        return MoveLine(version, seat, "eliminated", f"{who} is out at {event.get('total')}")
    if kind == "rejoined":
        return MoveLine(version, seat, "rejoined", f"{who} rejoined at {event.get('total')}")
    if kind == "player_left":
        return MoveLine(version, seat, "left", f"{who} left the table")
    if kind == "melds_laid_down":
        cards = [c for meld in event.get("melds") or [] for c in (meld.get("cards") or [])]
        return MoveLine(version, seat, "lay_down", f"{who} laid down {cards_words(cards)}")
    if kind == "cards_laid_off":
        return MoveLine(
            version, seat, "lay_off", f"{who} laid off {cards_words(event.get('cards') or [])}"
        )
    if kind == "went_out":
        rummy = " going rummy" if event.get("rummy") else ""
        return MoveLine(version, seat, "out", f"{who} went out{rummy}")
    return None


def _said_to_you(line: MoveLine | None) -> MoveLine | None:
    """A line about the viewer, said to them: "You are on extra time"."""
    if line is None or not line.text.startswith("You "):
        return line
    text = " ".join(
        {"is": "are", "was": "were", "their": "your"}.get(word, word)
        for word in line.text.split(" ")
    )
    return MoveLine(line.version, line.seat, line.kind, text, line.card, "you")


def move_lines(
    moves: Iterable[dict[str, Any]], name: Callable[[int], str], cut: str | None
) -> list[MoveLine]:
    """The public lines of ``moves`` (oldest first), oldest first. ``name(seat)`` says who
    ("You" for the viewer)."""
    lines: list[MoveLine] = []
    for move in moves:
        for event in move.get("events") or []:
            line = _said_to_you(_line(event, int(move.get("version") or 0), name, cut))
            if line is not None and line.seat is not None and not line.who:
                line = MoveLine(
                    line.version, line.seat, line.kind, line.text, line.card, name(line.seat)
                )
            if line is not None:
                lines.append(line)
    return lines


def recent_discards(lines: Iterable[MoveLine]) -> list[MoveLine]:
    """The open deck's history: the newest discards first, at most ``HISTORY_SIZE``, since the
    newest deal began."""
    out: list[MoveLine] = []
    for line in lines:
        if line.kind == "deal":
            out = []
        elif line.kind == "discard":
            out.append(line)
    return list(reversed(out))[:HISTORY_SIZE]
