"""Support's hand review in words (``tables.support.views``): the step-through rows (the moves
in words from ``tables.presenters.moves``, said for the record: every card named), the table
after each move, the players' connections, the outcome rows with the engine's best
arrangement, the money of the deal, the ledger transactions and the pair signals' flags and
sort keys. Every word is translated (``gettext``); the data comes from the support selectors
(``replay``, ``review``, ``pair_signals``). Presentation only."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, pgettext

from tables import presenters
from tables.models import Deal
from tables.presenters.moves import action_words, end_words, record_line, verdict_words
from tables.presenters.results import KIND_LABELS
from tables.selectors import ReplayStep

__all__ = [
    "KIND_WORDS",
    "OUTCOME_WORDS",
    "SIGNAL_SORT_WORDS",
    "connections",
    "hands_after",
    "live_players",
    "money_rows",
    "outcome_rows",
    "seat_name",
    "show_reason",
    "signal_flags",
    "step_rows",
    "took",
    "transaction_rows",
]

# A group's kind in the review (the felt's kinds, and those only a review shows).
KIND_WORDS = {
    **KIND_LABELS,
    "impure_sequence": gettext_lazy("sequence with joker"),
    "invalid": gettext_lazy("not a meld"),
    "hand": gettext_lazy("cards held"),
    "finish": gettext_lazy("finish card"),
}

# How a player's deal ended.
OUTCOME_WORDS = {
    "won": gettext_lazy("won"),
    "won_show": gettext_lazy("won (valid show)"),
    "counted": gettext_lazy("counted"),
    "deal_show": gettext_lazy("counted (deal show)"),
    "dropped": gettext_lazy("dropped"),
    "wrong_show": gettext_lazy("wrong show"),
    "timed_out": gettext_lazy("out: missed turns"),
    "left": gettext_lazy("left the game"),
    "exhausted": gettext_lazy("closed deck ran out"),
}

# A hand's status in the table after a move (the outcomes, and a hand still in play).
_HAND_STATUS_WORDS = {
    **OUTCOME_WORDS,
    "playing": gettext_lazy("playing"),
    "declared": gettext_lazy("declared"),
    "out": gettext_lazy("out"),
}

# The sort keys in words (the pair signals page's "Sort by" links).
SIGNAL_SORT_WORDS = {
    "games": gettext_lazy("games"),
    "deals": gettext_lazy("deals"),
    "drops": gettext_lazy("drops"),
    "big_losses": gettext_lazy("big losses"),
    "flow": gettext_lazy("money flow"),
    "flags": gettext_lazy("flags"),
}

# Events the step-through leaves out: the turn's clock, arranging cards, a meld submitted.
_QUIET = frozenset({"turn_started", "extra_time_started", "meld_submitted", "arranged"})
DASH = "\u2013"


def _words(table: dict[str, Any], code: Any) -> str:
    words = table.get(str(code or ""))
    return str(words) if words is not None else str(code or "").replace("_", " ")


def seat_name(names: dict[int, str], seat: int) -> str:
    """The player's name at ``seat``, or the seat's number when nobody is known there."""
    return names.get(seat) or gettext("Seat %(seat)s") % {"seat": seat}


def took(seconds: float) -> str:
    """A think time: "7.0 s", "2 min 5 s"."""
    if seconds < 60:
        return gettext("%(seconds)s s") % {"seconds": f"{seconds:.1f}"}
    return gettext("%(minutes)s min %(seconds)s s") % {
        "minutes": int(seconds // 60),
        "seconds": f"{seconds % 60:.0f}",
    }


def show_reason(outcome: dict[str, Any]) -> str:
    """The verdict on the show in words (classic: going out, or going rummy)."""
    reason = outcome.get("show_reason") or ""
    if reason in ("rummy", "out"):
        return end_words(reason)
    return verdict_words(reason)


def _at(clock: float) -> datetime:
    return timezone.localtime(datetime.fromtimestamp(clock, UTC))


def hands_after(state: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """Every hand and the table, as the state after a move holds them (support sees all)."""
    if "deal" in state:  # 13-card games
        deal = state.get("deal") or {}
        cut = deal.get("cut_card")
        hands = [
            {
                "name": seat_name(names, h["seat"]),
                "status": _words(_HAND_STATUS_WORDS, h.get("status", "")),
                "groups": presenters.groups_faces(h.get("groups") or [h["cards"]], cut),
                "turn": deal.get("turn") == h["seat"],
            }
            for h in deal.get("hands", [])
        ]
        opened = deal.get("open") or []
        return {
            "hands": hands,
            "open_top": presenters.card_face(opened[-1], cut) if opened else None,
            "closed_count": len(deal.get("closed") or []),
            "cut": presenters.card_face(cut) if cut else None,
            "melds": [],
        }
    hands = [  # classic
        {
            "name": seat_name(names, p["seat"]),
            "status": _words(_HAND_STATUS_WORDS, "playing" if p.get("in_hand") else "out"),
            "groups": [presenters.faces(presenters.sort_codes(p.get("hand") or []))],
            "turn": state.get("turn") == p["seat"],
        }
        for p in state.get("players", [])
    ]
    discard = state.get("discard") or []
    return {
        "hands": hands,
        "open_top": presenters.card_face(discard[-1]) if discard else None,
        "closed_count": len(state.get("stock") or []),
        "cut": None,
        "melds": [presenters.faces(m["cards"]) for m in state.get("melds", [])],
    }


def connections(steps: list[ReplayStep], deal: Deal, names: dict[int, str]) -> list[str]:
    """One line per player who was offline during the deal: "Asha: offline 12:03:10-12:03:41"
    (an en dash between the times)."""
    before = {
        int(p["seat"]): bool(p.get("connected", True))
        for p in (deal.state_before or {}).get("players", [])
    }
    spans: dict[int, list[str]] = {}
    since: dict[int, str] = {s: gettext("before the deal") for s, up in before.items() if not up}
    for step in steps:
        if step.action != "set_connected" or step.seat_no is None:
            continue
        seat, at = step.seat_no, _at(step.clock).strftime("%H:%M:%S")
        if not step.payload.get("connected"):
            since.setdefault(seat, at)
        elif seat in since:
            spans.setdefault(seat, []).append(f"{since.pop(seat)}{DASH}{at}")
    for seat, start in since.items():
        spans.setdefault(seat, []).append(f"{start}{DASH}" + pgettext("offline until", "end"))
    return [
        gettext("%(name)s: offline %(spans)s")
        % {"name": seat_name(names, seat), "spans": ", ".join(found)}
        for seat, found in sorted(spans.items())
    ]


def _in_deal(state: dict[str, Any]) -> bool:
    if "deal" in state:
        return state.get("deal") is not None
    return state.get("phase") in ("turn", "playing", "meld")


def step_rows(
    steps: list[ReplayStep], names: dict[int, str], cut: str | None
) -> list[dict[str, Any]]:
    """The step-through: one row per move (connections apart), with its time, the think time,
    who, what (``presenters.moves.action_words``), the cards it showed and its events said for
    the record (``presenters.moves.record_line``); a card the move itself shows (the discard,
    the finish card) is not shown again under its events."""

    def name(seat: int) -> str:
        return seat_name(names, seat)

    rows: list[dict[str, Any]] = []
    previous: float | None = None
    for step in steps:
        spent = step.clock - previous if previous is not None else None
        previous = step.clock
        if step.action == "set_connected":
            continue
        notes: list[dict[str, Any]] = []
        server_played = False
        payload = step.payload
        played = [c for c in (payload.get("card"), payload.get("finish_card")) if c]
        played += list(payload.get("cards") or [])
        shown = Counter(str(c).upper() for c in played)
        for event in step.events:
            if event.get("type") in _QUIET:
                continue
            line = record_line(event, step.version, name, cut)
            fresh = []
            if line.card is not None:
                code = line.card.code.upper()
                if shown[code] > 0:
                    shown[code] -= 1
                else:
                    fresh.append(line.card)
            notes.append({"words": line.text, "cards": fresh})
            server_played = server_played or bool(event.get("auto"))
        groups = payload.get("groups") or payload.get("melds") or []
        rows.append(
            {
                "version": step.version,
                "at": _at(step.clock),
                "took": took(spent) if spent is not None and step.seat_no is not None else "",
                "who": names.get(step.seat_no, "")
                if step.seat_no is not None
                else gettext("server"),
                "what": action_words(step.action),
                "timeout": step.action == "timeout",
                "server_played": server_played,
                "cards": presenters.faces(played, cut),
                "groups": [presenters.faces(list(g), cut) for g in groups],
                "notes": notes,
                "matches_log": step.matches_log,
                "table": hands_after(step.state, names) if _in_deal(step.state) else None,
            }
        )
    return rows


def money_rows(
    money: dict[str, Any], names: dict[int, str], currency: str
) -> tuple[dict[int, dict[str, Any]], dict[str, Any] | None]:
    """The money of the deal per seat (paid in, paid out, the signed net) and, on the deal that
    ended the game, its prizes (the reason in words, each payout, the platform fee)."""
    rows = {
        seat: {
            "paid_in": presenters.signed_money(m["paid_in"], currency, plus=False),
            "paid_out": presenters.signed_money(m["paid_out"], currency, plus=False),
            "net": presenters.signed_money(m["net"], currency),
            "net_value": m["net"],
        }
        for seat, m in money["by_seat"].items()
    }
    prizes = money["prizes"]
    if prizes is None:
        return rows, None
    return rows, {
        "reason": end_words(prizes["reason"]),
        "payouts": [
            {
                "name": seat_name(names, seat),
                "amount": presenters.signed_money(amount, currency, plus=False),
            }
            for seat, amount in sorted(prizes["payouts"].items())
        ],
        "fee": presenters.signed_money(prizes["fee"], currency, plus=False),
    }


def outcome_rows(
    outcome: dict[str, Any],
    names: dict[int, str],
    money: dict[int, dict[str, Any]],
    *,
    points: bool = False,
) -> list[dict[str, Any]]:
    """One row per player of the outcome: the final groups with their kinds in words, the
    engine's best arrangement of the same cards, the points, the totals and the money."""
    cut = outcome["cut"]
    rows = []
    for r in outcome["rows"]:
        best = r["best"]
        rows.append(
            {
                "seat": r["seat"],
                "name": seat_name(names, r["seat"]),
                "winner": r["seat"] == outcome["winner"],
                "declarer": r["seat"] == outcome["declarer"],
                # "won (valid show)" for the declarer only: the last player in after a wrong
                # show, or after the others dropped, won without a show.
                "outcome": _words(
                    OUTCOME_WORDS,
                    "won_show"
                    if r["outcome"] == "won" and r["seat"] == outcome["declarer"]
                    else r["outcome"],
                ),
                "points": r["points"],
                "counted": r.get("counted", True),
                "groups": [
                    {
                        "cards": presenters.faces(g["cards"], cut),
                        "kind": _words(KIND_WORDS, g["kind"]),
                        "code": g["kind"],
                    }
                    for g in r["groups"]
                    if g["cards"]
                ],
                "best": None
                if best is None
                else {
                    "points": best["points"],
                    "groups": [presenters.faces(g, cut) for g in best["groups"]],
                    "ungrouped": presenters.faces(best["ungrouped"], cut),
                    "can_declare": best["can_declare"],
                    "same": best["points"] == r["points"],
                },
                "total": r["total"],
                "chips": r["chips"],
                # a Points deal ends its game: what the deal settled is what comes after it
                "settled": (money.get(r["seat"]) or {}).get("net") if points else None,
                "money": money.get(r["seat"]),
            }
        )
    return rows


def transaction_rows(transactions: Iterable[Any]) -> list[dict[str, Any]]:
    """The game's ledger transactions with their entries' amounts in rupees or chips."""
    return [
        {
            "pk": tx.pk,
            "kind": tx.get_kind_display(),
            "key": tx.idempotency_key,
            "reverses": tx.reverses_id,
            "created_at": tx.created_at,
            "entries": [
                (str(e.account), presenters.money(e.amount, e.currency))
                for e in tx.entries.select_related("account", "account__user")
            ],
        }
        for tx in transactions
    ]


def signal_flags(row: dict[str, Any]) -> list[str]:
    """A pair signals row's flags (``pair_signals``' codes) in words."""
    words = []
    for kind, side in row["flags"]:
        other = "b" if side == "a" else "a"
        if kind == "drops":
            words.append(
                gettext("%(name)s dropped in %(drops)s of %(deals)s deals")
                % {
                    "name": row[f"{side}_name"],
                    "drops": row[f"{side}_drops"],
                    "deals": row["deals"],
                }
            )
        elif kind == "big_losses":
            words.append(
                gettext("%(name)s lost big to %(other)s repeatedly")
                % {"name": row[f"{side}_name"], "other": row[f"{other}_name"]}
            )
        elif kind == "one_way":
            words.append(gettext("money flows one way"))
    return words


_PLAYER_STATUS_WORDS = {
    **_HAND_STATUS_WORDS,
    "in": gettext_lazy("playing"),
    "eliminated": gettext_lazy("eliminated"),
    "waiting": gettext_lazy("waiting"),
}


def live_players(view: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """A live deal's players as any spectator sees them: the name, the place in the game and
    in the deal in words, and the total."""
    return [
        {
            **p,
            "name": names.get(p["seat"], ""),
            "total": p.get("total"),
            "status": _words(_PLAYER_STATUS_WORDS, p.get("status")),
            "deal_status": _words(_PLAYER_STATUS_WORDS, p.get("deal_status"))
            if p.get("deal_status")
            else "",
        }
        for p in view.get("players", [])
    ]
