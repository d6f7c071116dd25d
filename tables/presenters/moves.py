"""What just happened at the table, for everyone: one short line per public move ("Bilal took
6♠ from the open deck", "Chen dropped: 20") and the open deck's history (the last discards, with
who threw them), from the newest entries of the move log (``selectors.recent_moves``, or the
moves a push's own change recorded).

Only public facts are put in words: a card picked from the closed deck is never named, nor any
hand. Presentation only: the events are the engine's."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from tables.presenters.cards import CardFace, card_face, cards_words

__all__ = ["MoveLine", "move_lines", "recent_discards"]

HISTORY_SIZE = 8
"""How many discards the open deck's history shows."""

_DROP_WORDS = {
    "drop": gettext_lazy("%(who)s dropped: %(score)s"),
    "middle_drop": gettext_lazy("%(who)s dropped: %(score)s"),
    "missed_turns": gettext_lazy("%(who)s was dropped after missing turns: %(score)s"),
    "auto_drop": gettext_lazy("%(who)s dropped (auto drop): %(score)s"),
    "leave": gettext_lazy("%(who)s left the deal: %(score)s"),
    "disconnect": gettext_lazy("%(who)s was dropped (offline): %(score)s"),
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
    # The seat the line is about (the mover, or the starter of a deal) and the same line said
    # to that player ("You took 6♠..."): the felt is shared by every seat, and the page shows
    # ``you_text`` to the player it is about (``data-you``).
    subject: int | None = None
    you_text: str = ""
    you_who: str = ""


def _line(
    event: dict[str, Any], version: int, name: Callable[[int], str], cut: str | None
) -> MoveLine | None:
    kind = event.get("type")
    seat = event.get("seat")
    who = name(seat) if isinstance(seat, int) else ""

    def late(text: str) -> str:
        return gettext("%(line)s (time ran out)") % {"line": text} if event.get("auto") else text

    if kind == "card_picked":
        if event.get("source") == "open":
            card = card_face(event.get("card"), cut)
            label = card.label if card is not None else gettext("a card")
            text = gettext("%(who)s took %(card)s from the open deck") % {
                "who": who,
                "card": label,
            }
            return MoveLine(version, seat, "pick_open", late(text), card)
        # The closed deck's card is the picker's secret: never named.
        text = gettext("%(who)s picked from the closed deck") % {"who": who}
        return MoveLine(version, seat, "pick_closed", late(text))
    if kind == "card_discarded":
        card = card_face(event.get("card"), cut)
        label = card.label if card is not None else gettext("a card")
        text = gettext("%(who)s discarded %(card)s") % {"who": who, "card": label}
        return MoveLine(version, seat, "discard", late(text), card)
    if kind == "dropped":
        words = _DROP_WORDS.get(str(event.get("reason")), _DROP_WORDS["drop"])
        return MoveLine(
            version, seat, "drop", str(words) % {"who": who, "score": event.get("score")}
        )
    if kind == "declared":
        if event.get("valid"):
            text = gettext("%(who)s declared a valid show") % {"who": who}
        else:
            text = gettext("%(who)s made a wrong show") % {"who": who}
        return MoveLine(version, seat, "declare", text)
    if kind == "meld_submitted":
        text = gettext("%(who)s submitted their groups") % {"who": who}
        return MoveLine(version, seat, "meld", text)
    if kind == "turn_missed":
        return MoveLine(version, seat, "missed", gettext("%(who)s missed a turn") % {"who": who})
    if kind == "extra_time_started":
        text = gettext("%(who)s is on extra time") % {"who": who}
        return MoveLine(version, seat, "extra_time", text)
    if kind == "deck_reshuffled":
        text = gettext("The open deck was shuffled into the closed deck")
        return MoveLine(version, None, "reshuffle", text)
    if kind == "deal_started":
        text = gettext("Cards dealt: %(name)s starts") % {"name": name(event["starter"])}
        return MoveLine(version, None, "deal", text)
    if kind == "eliminated":
        text = gettext("%(who)s is out at %(total)s") % {"who": who, "total": event.get("total")}
        return MoveLine(version, seat, "eliminated", text)
    if kind == "rejoined":
        text = gettext("%(who)s rejoined at %(total)s") % {
            "who": who,
            "total": event.get("total"),
        }
        return MoveLine(version, seat, "rejoined", text)
    if kind == "player_left":
        return MoveLine(version, seat, "left", gettext("%(who)s left the table") % {"who": who})
    if kind == "melds_laid_down":
        cards = [c for meld in event.get("melds") or [] for c in (meld.get("cards") or [])]
        text = gettext("%(who)s laid down %(cards)s") % {"who": who, "cards": cards_words(cards)}
        return MoveLine(version, seat, "lay_down", text)
    if kind == "cards_laid_off":
        text = gettext("%(who)s laid off %(cards)s") % {
            "who": who,
            "cards": cards_words(event.get("cards") or []),
        }
        return MoveLine(version, seat, "lay_off", text)
    if kind == "went_out":
        if event.get("rummy"):
            text = gettext("%(who)s went out going rummy") % {"who": who}
        else:
            text = gettext("%(who)s went out") % {"who": who}
        return MoveLine(version, seat, "out", text)
    return None


def _said_to_you(line: MoveLine | None) -> MoveLine | None:
    """A line about the viewer, said to them: "You are on extra time". English only: the
    Hindi lines use the respectful plural, which reads right with "आप" as with a name."""
    if line is not None and line.kind == "deal" and line.text.endswith(": You starts"):
        text = line.text.removesuffix("You starts") + "you start"
        return MoveLine(line.version, line.seat, line.kind, text, line.card, line.who)
    if line is None or not line.text.startswith("You "):
        return line
    text = " ".join(
        {"is": "are", "was": "were", "their": "your"}.get(word, word)
        for word in line.text.split(" ")
    )
    return MoveLine(line.version, line.seat, line.kind, text, line.card, "you")


def _subject(event: dict[str, Any]) -> int | None:
    seat = event.get("starter") if event.get("type") == "deal_started" else event.get("seat")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def move_lines(
    moves: Iterable[dict[str, Any]],
    name: Callable[[int], str],
    cut: str | None,
    *,
    said_to_subject: bool = False,
) -> list[MoveLine]:
    """The public lines of ``moves`` (oldest first), oldest first. ``name(seat)`` says who
    ("You" for the viewer). With ``said_to_subject`` every line also carries itself as said
    to the player it is about (``you_text``, ``you_who``), for a felt every seat shares."""
    lines: list[MoveLine] = []
    for move in moves:
        version = int(move.get("version") or 0)
        for event in move.get("events") or []:
            line = _said_to_you(_line(event, version, name, cut))
            if line is None:
                continue
            if line.seat is not None and not line.who:
                line = replace(line, who=name(line.seat))
            subject = _subject(event)
            if said_to_subject and subject is not None:
                you = gettext("You")

                def to_subject(seat: int, subject: int = subject, you: str = you) -> str:
                    return you if seat == subject else name(seat)

                mine = _said_to_you(_line(event, version, to_subject, cut))
                if mine is not None:
                    line = replace(
                        line, subject=subject, you_text=mine.text, you_who=mine.who or you
                    )
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
