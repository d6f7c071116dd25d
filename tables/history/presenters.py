"""My games in the player's words: the review's lines and advice, the deal's summary, the
statistics and the points of the running-total chart (drawn by a template as SVG)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tables.presenters import moves
from tables.presenters.cards import card_face, card_words, signed_money, variant_label
from tables.presenters.chart import line_plot

__all__ = [
    "advice_words",
    "chart",
    "present_review",
    "summary_words",
]


def _name(seat: int | None, names: Mapping[int, str], me: int) -> str:
    if seat == me:
        return _("You")
    return names.get(seat or 0, _("A player"))


def _card(code: str | None) -> str:
    return card_words(code) if code else ""


def line_words(line: Mapping[str, Any], names: Mapping[int, str], me: int) -> str:
    """One review line ("Bilal took 6♠ from the open deck"), in the felt's words
    (``tables.presenters.moves``: each move kind is worded there once); a closed pick by
    someone else never names its card (the review has none to name)."""
    kind = line["kind"]
    seat = line.get("seat")
    who = _name(seat, names, me)
    card = _card(line.get("card"))
    if kind == "dealt":
        return moves.dealt_words(who, card, you=seat == me)
    if kind == "picked_closed":
        text = moves.picked_words(who, "closed", card)
    elif kind == "picked_open":
        text = moves.picked_words(who, "open", card)
    elif kind == "threw":
        text = moves.discarded_words(who, card)
    elif kind == "showed":
        text = moves.declared_words(who, bool(line.get("valid")))
    elif kind == "dropped":
        text = moves.dropped_words(who)
    elif kind == "submitted":
        text = moves.submitted_words(who)
    elif kind == "missed":
        text = moves.missed_words(who)
    elif kind == "reshuffled":
        return moves.reshuffled_words()
    elif kind == "left":
        text = moves.left_words(who)
    elif kind == "ended":
        return moves.deal_ended_words(None if seat is None else who)
    else:
        return ""
    return moves.said_to_you(text) if seat == me else text


def advice_words(advice: Mapping[str, Any]) -> list[str]:
    """The engine's advice on one of the player's turns, one sentence each."""
    words = [
        _("Count after the pick: %(count)s") % {"count": advice["count_after_pick"]},
    ]
    best = _card(advice["best_discard"])
    if advice.get("discard") is not None:
        thrown = _card(advice["discard"])
        if advice["lost"] > 0:
            words.append(
                _(
                    "Best discard: %(best)s, leaving %(best_count)s; you threw %(card)s, "
                    "leaving %(count)s (%(lost)s more)"
                )
                % {
                    "best": best,
                    "best_count": advice["best_count"],
                    "card": thrown,
                    "count": advice["discard_count"],
                    "lost": advice["lost"],
                }
            )
        else:
            words.append(
                _("You threw %(card)s, leaving %(count)s: as good as the best discard")
                % {"card": thrown, "count": advice["discard_count"]}
            )
    if advice["show_possible"] and not advice["showed"]:
        words.append(_("A valid show was possible here"))
    return words


def meld_words(meld: Mapping[str, Any]) -> list[str]:
    words = [
        _("Best grouping counts %(best)s; your groups counted %(count)s")
        % {"best": meld["best_count"], "count": meld["submitted_count"]}
    ]
    return words


def summary_words(review: Mapping[str, Any]) -> str:
    """The deal's summary: "3 turns lost 24 points; a show was possible at turn 9"."""
    parts = []
    turns, points = review["turns_lost"], review["points_lost"]
    if turns:
        parts.append(
            ngettext(
                "%(turns)s turn lost %(points)s points",
                "%(turns)s turns lost %(points)s points",
                turns,
            )
            % {"turns": turns, "points": points}
        )
    else:
        parts.append(_("Every discard was as good as the engine's best"))
    shows = review["show_turns"]
    if shows:
        parts.append(
            ngettext(
                "a show was possible at turn %(turns)s",
                "a show was possible at turns %(turns)s",
                len(shows),
            )
            % {"turns": ", ".join(str(t) for t in shows)}
        )
    return "; ".join(parts)


class _Faces:
    """Card faces for the review's template, each card's words worked out once per page."""

    def __init__(self, cut: str) -> None:
        self.cut = cut
        self.seen: dict[str, dict[str, str]] = {}

    def one(self, code: str | None) -> dict[str, str] | None:
        if not code:
            return None
        face = self.seen.get(code)
        if face is None:
            card = card_face(code, self.cut)
            if card is None:
                return None
            css = (" red" if card.red else "") + (" wild" if card.wild or card.joker else "")
            face = {"code": code, "label": card.label, "words": card.words, "css": css}
            self.seen[code] = face
        return face

    def groups(self, groups: Sequence[Sequence[str]]) -> list[list[dict[str, str]]]:
        return [[f for f in (self.one(c) for c in g) if f is not None] for g in groups]


def present_review(
    review: Mapping[str, Any], *, names: Mapping[int, str], currency: str, variant: str
) -> dict[str, Any]:
    """The review for the template: each step's words, hand faces (where the hand changed:
    the page shows the latest) and advice sentences, the
    summary, the result everyone saw after the deal and the dealt hands (revealed shoe)."""
    me = int(review["seat"])
    cut = review["cut"]
    faces = _Faces(cut)
    steps = []
    shown_hand: Any = None
    for step in review["steps"]:
        changed = step["hand"] != shown_hand
        shown_hand = step["hand"]
        advice = step.get("advice")
        meld = step.get("meld")
        steps.append(
            {
                "index": step["index"],
                "number": step["index"] + 1,
                "lines": [line_words(line, names, me) for line in step["lines"]],
                "mine": any(line.get("seat") == me for line in step["lines"]),
                "hand": faces.groups(step["hand"]) if changed else None,
                "open_top": faces.one(step["open_top"]),
                "closed_count": step["closed_count"],
                "advice": advice_words(advice) if advice else [],
                "advice_turn": advice["turn"] if advice else None,
                "lost": advice["lost"] if advice else 0,
                "meld": meld_words(meld) if meld else [],
                "best_groups": faces.groups(meld["best_groups"]) if meld else [],
            }
        )
    result = review.get("result") or {}
    last = result.get("last_deal") or {}
    hands = []
    dealt = review.get("dealt") or {}
    for r in last.get("results") or []:
        seat = int(r["seat"])
        hands.append(
            {
                "name": _name(seat, names, me),
                "outcome": r.get("outcome"),
                "points": r.get("points"),
                "groups": faces.groups(r.get("groups") or []),
                "dealt": faces.groups([dealt.get(str(seat), [])]),
            }
        )
    return {
        "number": review["number"],
        "cut": faces.one(cut),
        "steps": steps,
        "summary": summary_words(review),
        "hands": hands,
        "variant": variant_label(variant),
        "currency": currency,
    }


def chart(points: Sequence[Mapping[str, Any]], currency: str) -> dict[str, Any] | None:
    """The running total as an SVG polyline (the template draws it): a 600 x 200 view box with
    a zero line, from 0 before the first game to each game's total. ``None`` without a game."""
    if not points:
        return None
    totals = [0, *(int(p["total"]) for p in points)]
    plot = line_plot(totals)
    dots = [
        {
            "x": plot.xs[i],
            "y": plot.y(t),
            "label": _("Game %(n)s: %(total)s") % {"n": i, "total": signed_money(t, currency)},
        }
        for i, t in enumerate(totals)
        if i
    ]
    return {
        "width": plot.width,
        "height": plot.height,
        "polyline": plot.polyline,
        "dots": dots,
        "zero": plot.y(0),
        "high": signed_money(plot.high, currency),
        "low": signed_money(plot.low, currency),
        "last": signed_money(totals[-1], currency),
        "games": len(points),
    }
