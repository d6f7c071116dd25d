"""What just happened at the table, for everyone: one short line per public move ("Bilal took
6♠ from the open deck", "Chen dropped: 20") and the open deck's history (the last discards, with
who threw them), from the newest entries of the move log (``selectors.recent_moves``, or the
moves a push's own change recorded).

Only public facts are put in words: a card picked from the closed deck is never named, nor any
hand. Presentation only: the events are the engine's.

The same lines, said for the record (``record_line``, ``action_words``), are support's
step-through (``tables.support.presenters``): there every card is named, a turn the server
played says so, and the events the felt leaves to its result sheets (a deal's or game's end)
have lines too."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from tables.presenters.cards import CardFace, card_face, cards_words
from tables.presenters.shown import Shown
from tables.rules.melds import DECLARATION_SIZE

__all__ = [
    "ACTION_WORDS",
    "END_WORDS",
    "MoveLine",
    "action_words",
    "deal_ended_words",
    "dealt_words",
    "declared_words",
    "discarded_words",
    "dropped_words",
    "end_words",
    "fault_words",
    "left_words",
    "missed_words",
    "move_lines",
    "picked_words",
    "recent_discards",
    "record_line",
    "reshuffled_words",
    "said_to_you",
    "submitted_words",
    "verdict_words",
]

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


# A logged move's action in words, for the record ("Asha · picked from the closed deck").
ACTION_WORDS = {
    "start_deal": gettext_lazy("dealt the cards"),
    "pick_closed": gettext_lazy("picked from the closed deck"),
    "pick_open": gettext_lazy("picked from the open deck"),
    "discard": gettext_lazy("discarded"),
    "declare": gettext_lazy("declared"),
    "drop": gettext_lazy("dropped"),
    "set_auto_drop": gettext_lazy("set auto drop"),
    "arrange": gettext_lazy("arranged the hand"),
    "submit_meld": gettext_lazy("submitted groups"),
    "rejoin": gettext_lazy("rejoined"),
    "split_accept": gettext_lazy("accepted the split"),
    "split_decline": gettext_lazy("declined the split"),
    "leave": gettext_lazy("left the game"),
    "timeout": gettext_lazy("timer ran out"),
    "lay_down": gettext_lazy("laid down"),
    "lay_off": gettext_lazy("laid off"),
}

# How a deal or a game ended (the engine's reason codes), for the record.
END_WORDS = {
    "show": gettext_lazy("valid show"),
    "last_player": gettext_lazy("last player in"),
    "exhausted": gettext_lazy("the closed deck ran out"),
    "rummy": gettext_lazy("went out going rummy"),
    "out": gettext_lazy("went out"),
    "winner": gettext_lazy("a winner"),
    "points": gettext_lazy("the points deal settled"),
    "no_deal": gettext_lazy("ended before its deal"),
    "manual_split": gettext_lazy("prize split by agreement"),
    "auto_split": gettext_lazy("prize split equally"),
    "ring": gettext_lazy("ring game over"),
}

# The engine's verdicts on a show (its codes: ``Declared.code``, ``turns.show_fault``).
_FAULT_WORDS = {
    "card_count": gettext_lazy(
        "Wrong card count: a show groups %(size)s cards besides the finish card; these "
        "groups hold %(held)s."
    ),
    "no_pure_sequence": gettext_lazy(
        "No pure sequence: a show needs at least one sequence with no joker standing in."
    ),
    "one_sequence": gettext_lazy(
        "Only one sequence: a show needs two sequences, at least one of them pure."
    ),
    "invalid_group": gettext_lazy("%(cards)s is not a valid set or sequence."),
    "valid": gettext_lazy("Every card is in a valid set or sequence."),
}

# Declared events logged before the engine gave its verdict a code carry only its sentence:
# the code each of the engine's old sentences stood for (read back only for those events).
_LEGACY_VERDICTS = (
    (
        re.compile(
            r"A declaration groups exactly (?P<size>\d+) cards; these groups hold (?P<held>\d+)\."
        ),
        "card_count",
    ),
    (re.compile(r"You need at least one pure sequence\."), "no_pure_sequence"),
    (re.compile(r"You need a second sequence \(pure or with jokers\)\."), "one_sequence"),
    (re.compile(r"(?P<cards>.+) is not a valid sequence or set\."), "invalid_group"),
    (re.compile(r"Valid declaration: every card is in a valid meld\."), "valid"),
)


def action_words(action: str) -> str:
    """A logged move's action in words (``ACTION_WORDS``; an action it does not know, by its
    name)."""
    words = ACTION_WORDS.get(action)
    return str(words) if words is not None else action.replace("_", " ")


def end_words(reason: Any) -> str:
    """A deal's or game's end reason in words (``END_WORDS``; one it does not know, by its
    code)."""
    words = END_WORDS.get(str(reason or ""))
    return str(words) if words is not None else str(reason or "").replace("_", " ")


def fault_words(code: Any, held: Any = 0, group: Any = ()) -> str:
    """The engine's verdict on a show in words, from its code (``Declared.code``) and
    parameters (``held``: the cards a show's groups hold; ``group``: the group that is no
    meld), cards as players write them. Empty for a code it does not know."""
    words = _FAULT_WORDS.get(str(code or ""))
    if words is None:
        return ""
    return str(words) % {
        "size": DECLARATION_SIZE,
        "held": held,
        "cards": cards_words(group or ()),
    }


def verdict_words(event: Any) -> str:
    """The verdict on a show in words: a ``declared`` event's (its ``code`` and parameters,
    ``fault_words``) or, for an event logged before the codes or a bare sentence, the engine's
    sentence (the code it stood for, in words; a sentence it does not know: as it was)."""
    if isinstance(event, dict):
        if event.get("code"):
            words = fault_words(event["code"], event.get("held"), event.get("group"))
            if words:
                return words
        event = event.get("reason")
    text = str(event or "").strip()
    for pattern, code in _LEGACY_VERDICTS:
        match = pattern.fullmatch(text)
        if match:
            found = match.groupdict()
            return fault_words(code, found.get("held", 0), (found.get("cards") or "").split())
    return text


# ------------------------------------------------------------ each move kind, worded once
# The felt's lines, the record's (support's step-through) and My games' review
# (``tables.history.presenters``) all say a move with these. ``who`` is the player's name as
# the line says it ("You" for the viewer: ``said_to_you`` then puts the line in the second
# person); a card is in words already (``card_words``).


def dealt_words(starter: str, open_card: str = "", *, you: bool = False) -> str:
    """A deal's first line: who starts and, where the line says it, the open card."""
    if not open_card:
        return gettext("Cards dealt: %(name)s starts") % {"name": starter}
    if you:
        return gettext("Cards dealt; you start; the open card is %(card)s") % {"card": open_card}
    return gettext("Cards dealt; %(name)s starts; the open card is %(card)s") % {
        "name": starter,
        "card": open_card,
    }


def picked_words(who: str, source: str, card: str = "") -> str:
    """A pick: from the open deck (its card everyone saw) or the closed deck (named only where
    the line may name it: the picker's own review, support's record)."""
    if source == "open":
        return gettext("%(who)s took %(card)s from the open deck") % {"who": who, "card": card}
    if card:
        return gettext("%(who)s took %(card)s from the closed deck") % {"who": who, "card": card}
    return gettext("%(who)s picked from the closed deck") % {"who": who}


def discarded_words(who: str, card: str) -> str:
    return gettext("%(who)s discarded %(card)s") % {"who": who, "card": card}


def declared_words(who: str, valid: bool, verdict: str = "") -> str:
    """A show: valid, or wrong (with the verdict in words where the line gives it)."""
    if valid:
        return gettext("%(who)s declared a valid show") % {"who": who}
    if verdict:
        return gettext("%(who)s made a wrong show: %(reason)s") % {"who": who, "reason": verdict}
    return gettext("%(who)s made a wrong show") % {"who": who}


def dropped_words(who: str, score: Any = None, reason: Any = "drop") -> str:
    """A player out of the deal (``reason``: the engine's drop codes) with the points it cost,
    where the line knows them."""
    if score is None:
        return gettext("%(name)s dropped") % {"name": who}
    drop = _DROP_WORDS.get(str(reason), _DROP_WORDS["drop"])
    return str(drop) % {"who": who, "score": score}


def submitted_words(who: str) -> str:
    return gettext("%(who)s submitted their groups") % {"who": who}


def missed_words(who: str, missed: Any = None) -> str:
    """A turn the clock took (with how many in a row, where the line says it)."""
    if missed is None:
        return gettext("%(who)s missed a turn") % {"who": who}
    return gettext("%(who)s missed a turn (%(missed)s in a row)") % {"who": who, "missed": missed}


def reshuffled_words() -> str:
    return gettext("The open deck was shuffled into the closed deck")


def left_words(who: str) -> str:
    return gettext("%(who)s left the table") % {"who": who}


def deal_ended_words(winner: str | None, number: Any = None, reason: Any = None) -> str:
    """A deal's end: who won (``None``: nobody) and, where the line says them, the deal's
    number and how it ended (the engine's end codes, ``end_words``)."""
    if number is None:
        if winner is None:
            return gettext("The deal ended")
        return gettext("The deal ended: %(name)s won") % {"name": winner}
    values = {"number": number, "reason": end_words(reason)}
    if winner is None:
        return gettext("Deal %(number)s ended (%(reason)s) with no winner") % values
    return gettext("Deal %(number)s ended (%(reason)s): %(winner)s won") % {
        **values,
        "winner": winner,
    }


def said_to_you(text: str) -> str:
    """A line about the viewer ("You ..."), said to them: "You are on extra time", "You
    submitted your groups". English only: the Hindi lines use the respectful plural, which
    reads right with "आप" as with a name."""
    if text.endswith(": You starts"):
        return text.removesuffix("You starts") + "you start"
    if not text.startswith("You "):
        return text
    return " ".join(
        {"is": "are", "was": "were", "their": "your"}.get(word, word) for word in text.split(" ")
    )


@dataclass(frozen=True)
class MoveLine(Shown):
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


def _named(event: dict[str, Any], cut: str | None) -> tuple[CardFace | None, str]:
    """The card an event names, as a face and in words."""
    card = card_face(event.get("card"), cut)
    return card, card.label if card is not None else gettext("a card")


def _line(
    event: dict[str, Any],
    version: int,
    name: Callable[[int], str],
    cut: str | None,
    *,
    record: bool = False,
) -> MoveLine | None:
    kind = event.get("type")
    seat = event.get("seat")
    who = name(seat) if isinstance(seat, int) else ""

    def late(text: str) -> str:
        if not event.get("auto"):
            return text
        if record:
            return gettext("%(line)s (played by the server)") % {"line": text}
        return gettext("%(line)s (time ran out)") % {"line": text}

    if kind == "card_picked":
        opened = event.get("source") == "open"
        if opened or record:  # the closed deck's card is the picker's secret (not support's)
            card, label = _named(event, cut)
            text = picked_words(who, "open" if opened else "closed", label)
            return MoveLine(
                version, seat, "pick_open" if opened else "pick_closed", late(text), card
            )
        return MoveLine(version, seat, "pick_closed", late(picked_words(who, "closed")))
    if kind == "card_discarded":
        card, label = _named(event, cut)
        return MoveLine(version, seat, "discard", late(discarded_words(who, label)), card)
    if kind == "dropped":
        text = dropped_words(who, event.get("score"), event.get("reason"))
        return MoveLine(version, seat, "drop", text)
    if kind == "declared":
        valid = bool(event.get("valid"))
        verdict = verdict_words(event) if record and not valid else ""
        return MoveLine(version, seat, "declare", declared_words(who, valid, verdict))
    if kind == "meld_submitted":
        return MoveLine(version, seat, "meld", submitted_words(who))
    if kind == "turn_missed":
        text = missed_words(who, event.get("missed") if record else None)
        return MoveLine(version, seat, "missed", text)
    if kind == "extra_time_started":
        text = gettext("%(who)s is on extra time") % {"who": who}
        return MoveLine(version, seat, "extra_time", text)
    if kind == "deck_reshuffled":
        return MoveLine(version, None, "reshuffle", reshuffled_words())
    if kind == "deal_started":
        return MoveLine(version, None, "deal", dealt_words(name(event["starter"])))
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
        return MoveLine(version, seat, "left", left_words(who))
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
    if record:
        return _record_only_line(event, version, name, who)
    return None


def _record_only_line(
    event: dict[str, Any], version: int, name: Callable[[int], str], who: str
) -> MoveLine:
    """The events the felt leaves to its result sheets and offers, for the record."""
    kind = str(event.get("type", ""))
    seat = event.get("seat") if isinstance(event.get("seat"), int) else None
    if kind == "deal_ended":
        winner = event.get("winner")
        text = deal_ended_words(
            name(winner) if isinstance(winner, int) else None,
            event.get("number"),
            event.get("reason"),
        )
        return MoveLine(version, None, kind, text)
    if kind == "game_ended":
        text = gettext("Game over (%(reason)s)") % {"reason": end_words(event.get("reason"))}
        return MoveLine(version, None, kind, text)
    if kind == "auto_drop_set":
        if event.get("on"):
            text = gettext("%(who)s set auto drop") % {"who": who}
        else:
            text = gettext("%(who)s cleared auto drop") % {"who": who}
        return MoveLine(version, seat, kind, text)
    if kind == "split_accepted":
        return MoveLine(version, seat, kind, gettext("%(who)s accepted the split") % {"who": who})
    if kind == "split_declined":
        return MoveLine(version, seat, kind, gettext("%(who)s declined the split") % {"who": who})
    others = {
        "rejoin_offered": gettext_lazy("Rejoining is offered"),
        "split_offered": gettext_lazy("A split of the prize is offered"),
        "tie_breaker": gettext_lazy("A tie-breaker deal is due"),
        "break_started": gettext_lazy("The break before the next deal began"),
        "deal_due": gettext_lazy("The next deal is due"),
        "points_settled": gettext_lazy("The points were settled"),
        "hands_shown": gettext_lazy("The hands were shown"),
        "connection_changed": gettext_lazy("A connection changed"),
    }
    words = others.get(kind)
    if words is not None:
        return MoveLine(version, seat, kind, str(words))
    # an event this list does not know yet: by its code, and the player it is about
    text = kind.replace("_", " ")
    return MoveLine(version, seat, kind, f"{text}: {who}" if who else text)


def record_line(
    event: dict[str, Any], version: int, name: Callable[[int], str], cut: str | None
) -> MoveLine:
    """One logged event as the record says it (support's step-through): the felt's line with
    every card named (a pick from the closed deck too), a turn the server played marked, and
    a line for every other event."""
    line = _line(event, version, name, cut, record=True)
    if line is None:  # every kind has a record line; this keeps the type honest
        kind = str(event.get("type", ""))
        return MoveLine(version, None, kind, kind.replace("_", " "))
    return line


def _said_to_you(line: MoveLine | None) -> MoveLine | None:
    """A line about the viewer, said to them (``said_to_you``)."""
    if line is None:
        return None
    if line.kind == "deal" and line.text.endswith(": You starts"):
        return replace(line, text=said_to_you(line.text))
    if not line.text.startswith("You "):
        return line
    return MoveLine(line.version, line.seat, line.kind, said_to_you(line.text), line.card, "you")


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
