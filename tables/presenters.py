"""Template helpers: turn a per-viewer table view (a dict from the selectors) into what the
templates show. Presentation only: no rule is decided here."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings

from tables.rules.cards import parse_card

_SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RED = {"H", "D"}


@dataclass(frozen=True)
class CardFace:
    code: str
    rank: str
    suit: str
    symbol: str
    red: bool
    joker: bool
    wild: bool
    picked: bool = False

    @property
    def label(self) -> str:
        return "Joker" if self.joker else f"{self.rank}{self.symbol}"


def card_face(code: str | None, cut_joker: str | None = None) -> CardFace | None:
    if not code:
        return None
    card = parse_card(code)
    wild = False
    if cut_joker:
        cut = parse_card(cut_joker)
        wild_rank = 1 if cut.is_printed_joker else cut.rank
        wild = card.is_printed_joker or card.rank == wild_rank
    if card.is_printed_joker:
        return CardFace(card.code, "JK", "", "★", False, True, True)
    rank = card.code[:-1]
    return CardFace(
        card.code, rank, card.suit, _SUIT_SYMBOL[card.suit], card.suit in _RED, False, wild
    )


def faces(codes: list[str] | None, cut_joker: str | None = None) -> list[CardFace]:
    return [face for face in (card_face(code, cut_joker) for code in codes or []) if face]


def format_seconds_left(deadline: float | None, now: float) -> int | None:
    if deadline is None:
        return None
    return max(0, round(deadline - now))


def money(amount: int | None, currency: str) -> str:
    if amount is None:
        return ""
    from ledger.currencies import format_amount

    return str(format_amount(amount, currency))


def sort_codes(codes: list[str]) -> list[str]:
    """Cards in suit then rank order, for showing a hand that has no arrangement."""
    order = {"S": 0, "H": 1, "C": 2, "D": 3, "": 4}
    cards = [parse_card(code) for code in codes]
    cards.sort(key=lambda c: (order[c.suit], c.rank))
    return [c.code for c in cards]


def groups_faces(groups: Any, cut_joker: str | None) -> list[list[CardFace]]:
    return [faces(list(group), cut_joker) for group in groups or []]


_VARIANT_LABELS = {
    "pool101": "Pool 101",
    "pool201": "Pool 201",
    "deals": "Deals",
    "points": "Points",
    "classic": "Classic 10-card",
}
_DEADLINE_LABELS = {
    "start": "starts in",
    "turn": "turn",
    "meld": "meld window",
    "break": "next deal in",
    "rejoin": "rejoin window",
    "split": "split offer",
}
_KIND_LABELS = {
    "pure_sequence": "pure sequence",
    "impure_sequence": "sequence",
    "set": "set",
    "invalid": "",
}


def variant_label(variant: str) -> str:
    return _VARIANT_LABELS.get(variant, variant)


def present_table(*, data: dict[str, Any], user: Any, now: float) -> dict[str, Any]:
    """Everything the table template shows to ``user``, from ``selectors.table_for_viewer``."""
    from tables.rules.melds import classify_group

    table = data["table"]
    template = data["template"]
    game = data["game"]
    view = data["view"]
    currency = data["currency"]
    my_seat = data["my_seat"]
    variant = game.variant if game is not None else template.variant
    stake = data["stake"] or (template.point_value if variant == "points" else template.entry_fee)
    seats = data["seats"]
    names = {s["seat_no"]: s for s in seats}
    t: dict[str, Any] = {
        "table": table,
        "game": game,
        "variant": variant,
        "variant_label": variant_label(variant),
        "stake_display": (
            f"{money(stake, currency)} buy-in" if variant == "points" else money(stake, currency)
        ),
        "version": data["version"],
        "my_seat": my_seat,
        "is_pool": variant in ("pool101", "pool201"),
        "is_deals": variant == "deals",
        "view": view or {},
        "seats_max": data["seats_max"],
        "seats_min": template.seats_min,
        "allowed": set(data["allowed"]),
        "joinable": data["can_join"],
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
    t["deadline_label"] = _DEADLINE_LABELS.get(t.get("deadline_kind") or "", "")
    t["grace_s"] = f"{float(settings.DEADLINE_GRACE_S):g}"
    if view is not None and (view.get("deal") or {}).get("in_extra_time"):
        t["deadline_label"] = "extra time"
    if view is None:
        return t

    def name_of(seat: int) -> str:
        s = names.get(seat)
        return str(s["name"]) if s is not None else f"Seat {seat}"

    prize = view.get("prize") or {}
    if prize.get("net"):
        t["prize_display"] = money(prize["net"], currency)
    deal = view.get("deal")
    cut = deal.get("cut_joker") if deal else None
    t["deal"] = deal
    t["cut"] = card_face(cut) if cut else None
    t["open_top"] = card_face(deal.get("open_top"), cut) if deal else None
    turn = deal.get("turn") if deal else None
    t["players"] = [
        {
            **p,
            "name": name_of(p["seat"]),
            "is_bot": bool(names.get(p["seat"]) and names[p["seat"]]["is_bot"]),
            "is_me": p["seat"] == my_seat,
            "is_turn": p["seat"] == turn and view.get("phase") == "turn",
        }
        for p in view.get("players", [])
    ]
    hand = view.get("hand")
    if hand and variant == "classic":
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
            {**m, "cards": faces(m["cards"]), "owner_name": name_of(m["owner"])}
            for m in (deal or {}).get("melds", [])
        ]
    elif hand and cut:
        groups = []
        picked = hand.get("picked")
        for group in hand.get("groups") or []:
            kind = classify_group(group, cut).value if len(group) >= 3 else "invalid"
            cards = faces(group, cut)
            for i, face in enumerate(cards):
                if picked and face.code == picked:
                    cards[i] = replace(face, picked=True)  # the card just picked, marked once
                    picked = None
            groups.append(
                {
                    "cards": cards,
                    "kind": kind,
                    "kind_label": _KIND_LABELS.get(kind, kind.replace("_", " ")),
                    "valid": kind != "invalid",
                }
            )
        t["hand"] = {**hand, "groups": groups}
    show = deal.get("show") if deal else None
    if show:
        t["show"] = {"name": name_of(show["seat"]), "groups": groups_faces(show["groups"], cut)}
    history = view.get("history") or []
    if history:
        order = [p["seat"] for p in view.get("players", [])]
        t["scoreboard"] = {
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
            "totals": [
                p.get("chips") if variant == "deals" else p.get("total")
                for p in view.get("players", [])
            ],
            "totals_label": "Chips" if variant == "deals" else "Total",
        }
    last = view.get("last_deal")
    if last:
        t["last_deal"] = _present_last_deal(last, name_of, view, cut)
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
        t["result"] = {
            **result,
            "payouts": [
                {"name": name_of(p["seat"]), "display": money(p["amount"], currency)}
                for p in result.get("payouts", [])
                if p["amount"] > 0
            ],
            "fee_display": money(result.get("fee"), currency),
        }
    return t


def _present_last_deal(
    last: dict[str, Any], name_of: Any, view: dict[str, Any], cut: str | None
) -> dict[str, Any]:
    players = {p["seat"]: p for p in view.get("players", [])}
    cut_code = last.get("cut_joker") or cut
    rows = []
    for r in last.get("results", []):
        seat = r["seat"]
        rows.append(
            {
                "name": name_of(seat),
                "winner": seat == last.get("winner"),
                "outcome": str(r.get("outcome", "")).replace("_", " "),
                "points": r.get("points"),
                "groups": groups_faces(r.get("groups") or [r.get("cards") or []], cut_code),
                "total": players.get(seat, {}).get("total"),
                "chips": players.get(seat, {}).get("chips"),
            }
        )
    return {"number": last.get("number"), "rows": rows}
