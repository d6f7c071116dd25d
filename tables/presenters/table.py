"""The table page for one viewer: ``present_table`` turns ``selectors.table_for_viewer`` into
what ``templates/tables/table.html`` shows. Presentation only: no rule is decided here."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy, ngettext

from .cards import (
    card_face,
    faces,
    format_seconds_left,
    groups_faces,
    money,
    sort_codes,
    variant_label,
)
from .moves import move_lines, recent_discards
from .results import (
    KIND_LABELS,
    ResultSheet,
    classic_meld_label,
    drop_info,
    meld_settings_of,
    names_and,
    present_result,
    rule,
    running_totals,
    seat_money,
    split_finish,
    wrong_show_reason,
)

__all__ = ["present_table", "seat_slots"]

# Where each seat sits around the oval felt, the viewer (or the first seat) at the bottom and
# the others clockwise from the viewer's left.
_SLOTS = {
    1: ["bottom"],
    2: ["bottom", "top"],
    3: ["bottom", "top-left", "top-right"],
    4: ["bottom", "left", "top", "right"],
    5: ["bottom", "left", "top-left", "top-right", "right"],
    6: ["bottom", "left", "top-left", "top", "top-right", "right"],
}


_DEAL_STATUS_WORDS = {
    "declared": gettext_lazy("declared"),
    "dropped": gettext_lazy("dropped"),
    "wrong_show": gettext_lazy("wrong show"),
    "timed_out": gettext_lazy("timed out"),
    "left": gettext_lazy("left"),
    "out": gettext_lazy("out"),
}
# A player's place in the game, when not simply in it.
_STATUS_WORDS = {
    "out": gettext_lazy("out"),
    "left": gettext_lazy("left"),
    "eliminated": gettext_lazy("eliminated"),
    "waiting": gettext_lazy("waiting"),
}


def seat_slots(seats: list[int], my_seat: int | None) -> dict[int, str]:
    """The place of every seat around the felt: ``my_seat`` at the bottom, the others in
    clockwise order (``seats`` is in clockwise order)."""
    if not seats:
        return {}
    start = seats.index(my_seat) if my_seat in seats else 0
    ordered = seats[start:] + seats[:start]
    slots = _SLOTS.get(len(ordered)) or [f"ring-{i}" for i in range(len(ordered))]
    return dict(zip(ordered, slots, strict=False))


_DEADLINE_LABELS = {
    "start": gettext_lazy("starts in"),
    "fill": gettext_lazy("computer players in"),
    "turn": gettext_lazy("turn"),
    "meld": gettext_lazy("meld window"),
    "break": gettext_lazy("next deal in"),
    "rejoin": gettext_lazy("rejoin window"),
    "split": gettext_lazy("split offer"),
}


def present_table(*, data: dict[str, Any], user: Any, now: float) -> dict[str, Any]:
    """Everything the table template shows to ``user``, from ``selectors.table_for_viewer``."""
    from tables.rules.melds import classify_group

    table = data["table"]
    template = data["template"]
    game = data["game"]
    view = data["view"]
    currency = data["currency"]
    my_seat = data["my_seat"]
    rules = data.get("rules")
    variant = game.variant if game is not None else template.variant
    classic = variant == "classic"
    stake = data["stake"] or (template.point_value if variant == "points" else template.entry_fee)
    seats = data["seats"]
    names = {s["seat_no"]: s for s in seats}
    t: dict[str, Any] = {
        "table": table,
        "game": game,
        "variant": variant,
        "variant_label": variant_label(variant),
        "stake_display": (
            gettext("%(amount)s buy-in") % {"amount": money(stake, currency)}
            if variant == "points"
            else money(stake, currency)
        ),
        "version": data["version"],
        "commitment": data.get("commitment"),
        "my_seat": my_seat,
        "is_pool": variant in ("pool101", "pool201"),
        "is_deals": variant == "deals",
        "is_classic": classic,
        # Classic rummy plays "hands"; the 13-card games play "deals".
        "deal_word": "hand" if classic else "deal",
        "view": view or {},
        "seats_max": data["seats_max"],
        "seats_min": template.seats_min,
        "allowed": set(data["allowed"]),
        "joinable": data["can_join"],
        "leave_confirm": (
            gettext(
                "Leaving takes you out of this hand and the rest of the ring game: the cards "
                "you hold count against you and nothing is refunded. Leave?"
            )
            if classic
            else gettext("Leaving counts as a drop in this deal and refunds nothing. Leave?")
        ),
    }
    t["seats"] = [
        {"seat": s["seat_no"], "name": s["name"], "is_bot": s["is_bot"], "is_me": s["me"]}
        for s in seats
        if not s["left"]
    ]
    t["seated_count"] = len(t["seats"])
    t["waiting"] = data["game_status"] in (None, "waiting")
    if data["deadline"] is not None:
        t["deadline"] = data["deadline"].timestamp()
        t["deadline_kind"] = data["deadline_kind"]
        t["seconds_left"] = format_seconds_left(t["deadline"], now)
    if data["can_leave"]:
        t["allowed"].add("leave")
    if view is not None and view.get("deadline") is not None:
        # The engine's own deadline (the turn, the meld window, the break), not a computer
        # player's think time.
        t["deadline"] = view["deadline"]
        t["deadline_kind"] = view.get("deadline_kind") or ""
        t["seconds_left"] = format_seconds_left(t["deadline"], now)
    t["deadline_label"] = str(_DEADLINE_LABELS.get(t.get("deadline_kind") or "", ""))
    if classic and t.get("deadline_kind") == "break":
        t["deadline_label"] = gettext("next hand in")
    t["grace_s"] = f"{float(settings.DEADLINE_GRACE_S):g}"
    if view is not None and (view.get("deal") or {}).get("in_extra_time"):
        t["deadline_label"] = gettext("extra time")
    if view is None:
        return t
    t["deals_count"] = view.get("hands_count") if classic else view.get("deals_count")

    def name_of(seat: int) -> str:
        s = names.get(seat)
        return str(s["name"]) if s is not None else gettext("Seat %(seat)s") % {"seat": seat}

    prize = view.get("prize") or {}
    if prize.get("net"):
        t["prize_display"] = money(prize["net"], currency)
    deal = view.get("deal")
    cut = deal.get("cut_joker") if deal else None
    meld = meld_settings_of(rules)
    t["deal"] = deal
    t["cut"] = card_face(cut) if cut else None
    t["open_top"] = card_face(deal.get("open_top"), cut) if deal else None
    turn = deal.get("turn") if deal else None
    # What just happened: the public lines of the newest moves (a push: its own change's).
    lines = move_lines(
        data.get("moves") or [],
        lambda seat: gettext("You") if seat == my_seat else name_of(seat),
        cut,
    )
    last = lines[-1] if lines else None
    t["moves_partial"] = bool(data.get("moves_partial"))
    t["last_move"] = last
    # Marked on the page (a brief highlight, a sound) only when it made the version shown.
    t["last_move_fresh"] = last is not None and last.version == data["version"]
    t["discards"] = recent_discards(lines)
    t["recent_lines"] = list(reversed(lines))[:6]
    slots = seat_slots([p["seat"] for p in view.get("players", [])], my_seat)
    in_extra = bool((deal or {}).get("in_extra_time"))
    turn_total = getattr(rules, "extra_time_s" if in_extra else "turn_s", None) or 30
    t["players"] = [
        {
            **p,
            "name": name_of(p["seat"]),
            "is_bot": bool(names.get(p["seat"]) and names[p["seat"]]["is_bot"]),
            "is_me": p["seat"] == my_seat,
            "is_turn": p["seat"] == turn and view.get("phase") == "turn",
            "slot": slots.get(p["seat"], "bottom"),
            "just_moved": bool(t["last_move_fresh"] and last and last.seat == p["seat"]),
            "extra_s": round(float(p.get("extra_time") or 0)),
            "deal_status_label": str(_DEAL_STATUS_WORDS.get(str(p.get("deal_status") or ""), "")),
            "status_label": str(_STATUS_WORDS.get(str(p.get("status")), p.get("status") or "")),
        }
        for p in view.get("players", [])
    ]
    t["turn_total"] = f"{float(turn_total):g}"
    t["in_extra_time"] = in_extra
    t["my_turn"] = any(p["is_turn"] and p["is_me"] for p in t["players"])
    t["turn_name"] = next((p["name"] for p in t["players"] if p["is_turn"]), "")
    hand = view.get("hand")
    # While the deal is played a wrong show is told in a notice; after it, the sheet says why.
    in_play = view.get("phase") in ("turn", "meld")
    if hand and classic:
        t["hand"] = {
            **hand,
            "count": hand.get("points"),
            "groups": [
                {
                    "cards": faces(sort_codes(hand.get("cards") or [])),
                    "kind": "hand",
                    "kind_label": "",
                    "valid": False,
                }
            ],
        }
        t["melds"] = [
            {
                **m,
                "cards": faces(m["cards"]),
                "owner_name": name_of(m["owner"]),
                "kind_label": classic_meld_label(m.get("kind")),
            }
            for m in (deal or {}).get("melds", [])
        ]
    elif hand and cut:
        groups = []
        picked = hand.get("picked")
        for group in hand.get("groups") or []:
            kind = classify_group(group, cut, settings=meld).value if len(group) >= 3 else "invalid"
            cards = faces(group, cut)
            for i, face in enumerate(cards):
                if picked and face.code == picked:
                    cards[i] = replace(face, picked=True)  # the card just picked, marked once
                    picked = None
            groups.append(
                {
                    "cards": cards,
                    "kind": kind,
                    "kind_label": str(KIND_LABELS.get(kind, kind.replace("_", " "))),
                    "valid": kind != "invalid",
                }
            )
        t["hand"] = {**hand, "groups": groups}
        if hand.get("status") == "wrong_show" and in_play:
            declared, _finish = split_finish(hand.get("groups") or [], 14)
            t["notice"] = gettext(
                "Your show was wrong: %(reason)s You score %(points)s points for this deal and "
                "sit it out."
            ) % {
                "reason": wrong_show_reason(declared, cut, meld),
                "points": rule(rules, "wrong_show", 80),
            }
    if deal and not classic:
        t["drop"] = drop_info(view, rules, my_seat, variant, currency)
        wrong = [p["name"] for p in t["players"] if p.get("deal_status") == "wrong_show"]
        if wrong and in_play and "notice" not in t:
            t["notice"] = ngettext(
                "%(names)s made a wrong show and scores %(points)s points.",
                "%(names)s made a wrong show and score %(points)s points.",
                len(wrong),
            ) % {"names": names_and(wrong), "points": rule(rules, "wrong_show", 80)}
    show = deal.get("show") if deal else None
    if show:
        t["show"] = {"name": name_of(show["seat"]), "groups": groups_faces(show["groups"], cut)}
    history = view.get("history") or []
    if history:
        order = [p["seat"] for p in view.get("players", [])]
        running = running_totals(view, variant)
        t["scoreboard"] = {
            "number_label": gettext("Hand") if classic else gettext("Deal"),
            "names": [name_of(seat) for seat in order],
            "rows": [
                {
                    "number": h["number"],
                    "winner": name_of(h["winner"]) if h.get("winner") is not None else "",
                    "points": [
                        next((x["points"] for x in h["scores"] if x["seat"] == seat), "")
                        for seat in order
                    ],
                }
                for h in history
            ],
            "totals": [running.get(seat) for seat in order],
            "totals_label": gettext("Chips") if variant == "deals" else gettext("Total"),
        }
    money_by_seat = seat_money(data)
    last = view.get("last_deal")
    if last:
        sheet = ResultSheet(
            view=view,
            rules=rules,
            variant=variant,
            currency=currency,
            name_of=name_of,
            my_seat=my_seat,
            money_by_seat=money_by_seat,
        )
        t["last_deal"] = sheet.present(last, cut)
    rejoin = view.get("rejoin")
    if rejoin:
        t["rejoin"] = {**rejoin, "amount_display": money(rejoin.get("amount"), currency)}
    split = view.get("split")
    if split:
        accepted = set(split.get("accepted") or [])
        t["split"] = {
            **split,
            "amounts": [
                {
                    "name": name_of(a["seat"]),
                    "display": money(a["amount"], currency),
                    "accepted": a["seat"] in accepted,
                }
                for a in split.get("amounts", [])
            ],
        }
    result = view.get("result")
    if result:
        t["result"] = present_result(
            result,
            data=data,
            view=view,
            rules=rules,
            variant=variant,
            currency=currency,
            name_of=name_of,
            money_by_seat=money_by_seat,
        )
    return t
