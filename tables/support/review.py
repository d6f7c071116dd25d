"""Support's hand review of a finished deal (data only, card codes; words are
``tables.support.presenters``): the outcome with every hand, kind of group and the engine's
best arrangement (``deal_outcome``), and the money it moved (``deal_money``)."""

from __future__ import annotations

from typing import Any

from tables.engines import engine_of
from tables.models import Deal
from tables.rules.evaluate import evaluate_hand
from tables.rules.melds import classify_group
from tables.selectors import ReplayStep
from tables.support.replay import amounts_by_seat, deal_history, deal_players

__all__ = ["deal_money", "deal_outcome"]


def deal_money(*, deal: Deal, steps: list[ReplayStep] | None = None) -> dict[str, Any]:
    """What each seat paid in and got out in this deal's part of the game, from the engine's
    money events (the ledger moved exactly these amounts): the entry fees (first deal),
    rejoin fees, points settlements and, when the game ended here, the prizes.

    ``{"by_seat": {seat: {"paid_in", "paid_out", "net"}}, "prizes": {"reason", "payouts",
    "fee"} | None}``."""
    game = deal.game
    steps = deal_history(deal=deal) if steps is None else steps
    seats = [p["seat"] for p in deal_players(deal=deal)]
    paid_in = dict.fromkeys(seats, 0)
    paid_out = dict.fromkeys(seats, 0)
    if deal.number == 1:
        for seat in seats:
            paid_in[seat] += int(game.stake)
    prizes: dict[str, Any] | None = None
    nets: dict[int, int] | None = None
    points_fee = 0
    for step in steps:
        for event in step.events:
            kind = event.get("type")
            if kind == "rejoined":
                paid_in[int(event["seat"])] = paid_in.get(int(event["seat"]), 0) + int(
                    event["amount"]
                )
            elif kind == "points_settled":
                nets = amounts_by_seat(event.get("nets"))
                points_fee = int(event.get("fee") or 0)
            elif kind == "game_ended":
                payouts = amounts_by_seat(event.get("payouts"))
                fee = int(event.get("fee") or 0)
                if nets is not None:  # points: every seat gets its buy-in back plus its net
                    payouts = {seat: int(game.stake) + nets.get(seat, 0) for seat in seats}
                    fee = points_fee
                for seat, amount in payouts.items():
                    paid_out[seat] = paid_out.get(seat, 0) + amount
                prizes = {
                    "reason": str(event.get("reason", "")),
                    "winners": list(event.get("winners") or ()),
                    "payouts": payouts,
                    "fee": fee,
                }
    by_seat = {
        seat: {
            "paid_in": paid_in.get(seat, 0),
            "paid_out": paid_out.get(seat, 0),
            "net": paid_out.get(seat, 0) - paid_in.get(seat, 0),
        }
        for seat in seats
    }
    return {"by_seat": by_seat, "prizes": prizes}


def _events_of(steps: list[ReplayStep], kind: str) -> list[dict[str, Any]]:
    return [e for step in steps for e in step.events if e.get("type") == kind]


def deal_outcome(*, deal: Deal, steps: list[ReplayStep]) -> dict[str, Any]:
    """The deal's outcome as support needs it to settle a dispute (data only, card codes):
    ``winner``, ``reason``, ``cut`` (wild card), ``finish_card``, ``declarer`` with ``valid``
    and ``reason`` of the show, and one row per seat: ``outcome``, ``points``, ``groups`` (the
    player's final groups, each ``{"cards", "kind"}``), ``best`` (the engine's lowest count of
    the same cards and its groups, ``can_declare``) and ``total``/``chips`` after the deal.
    Classic hands: ``groups`` is the hand the player still held, ``best`` is ``None``."""
    ended = _events_of(steps, "deal_ended")
    end = ended[0] if ended else (deal.result if isinstance(deal.result, dict) else {})
    declared = _events_of(steps, "declared")
    dropped = {int(e["seat"]): e for e in _events_of(steps, "dropped")}
    outcome: dict[str, Any] = {
        "ended": bool(ended),
        "winner": end.get("winner"),
        "reason": end.get("reason", end.get("type", "")),
        "cut": deal.cut_joker or None,
        "finish_card": None,
        "declarer": None,
        "valid": None,
        "show_reason": "",
        "rows": [],
        "table_melds": [],
    }
    if declared:
        first = declared[0]
        outcome.update(
            declarer=int(first["seat"]),
            valid=bool(first["valid"]),
            show_reason=str(first.get("reason", "")),
            finish_card=first.get("finish_card"),
        )
    totals = amounts_by_seat(end.get("totals"))
    chips = amounts_by_seat(end.get("chips"))
    scores = amounts_by_seat(end.get("scores"))
    after = steps[-1].state if steps else {}
    if "deal" not in after and "players" in after:  # classic
        shown = _events_of(steps, "hands_shown")
        hands = {int(k): list(v) for k, v in (shown[0]["hands"] if shown else {}).items()}
        went_out = _events_of(steps, "went_out")
        if went_out:
            outcome["declarer"] = int(went_out[0]["seat"])
            outcome["valid"] = True
            outcome["show_reason"] = "rummy" if went_out[0].get("rummy") else "out"
        for step in reversed(steps):
            melds = step.state.get("melds")
            if melds:
                outcome["table_melds"] = [list(m["cards"]) for m in melds]
                break
        for seat in sorted(scores):
            outcome["rows"].append(
                {
                    "seat": seat,
                    "outcome": "won" if seat == outcome["winner"] else "counted",
                    "points": scores[seat],
                    "groups": [{"cards": hands.get(seat, []), "kind": "hand"}],
                    "best": None,
                    "total": totals.get(seat),
                    "chips": None,
                    "dropped": None,
                }
            )
        return outcome
    history = [h for h in after.get("history") or [] if h.get("number") == deal.number]
    if not history:
        return outcome
    result = history[0]
    outcome["cut"] = result.get("cut_card") or outcome["cut"]
    outcome["finish_card"] = result.get("finish_card") or outcome["finish_card"]
    settings = engine_of(deal.game.variant).settings_from_json(deal.game.settings)
    meld = getattr(settings, "meld", None)
    cut = outcome["cut"]
    for r in result.get("results", []):
        seat = int(r["seat"])
        groups = [list(g) for g in r.get("groups") or []]
        cards = [c for g in groups for c in g]
        finish = outcome["finish_card"]
        if seat == outcome["declarer"] and finish in cards and len(cards) > 13:
            cards.remove(finish)  # the best arrangement of the 13 cards kept
        best = None
        if cards and cut:
            evaluation = evaluate_hand(cards, cut, settings=meld)
            best = {
                "points": evaluation.points,
                "groups": [[c.code for c in g] for g in evaluation.groups],
                "ungrouped": [c.code for c in evaluation.ungrouped],
                "can_declare": evaluation.can_declare,
            }
        outcome["rows"].append(
            {
                "seat": seat,
                "outcome": str(r.get("outcome", "")),
                "points": int(r.get("points", 0)),
                "counted": str(r.get("outcome", "")) in ("counted", "deal_show", "exhausted"),
                "groups": [
                    {
                        "cards": g,
                        # The declarer's finish card, alone in the finish slot, is no meld.
                        "kind": "finish"
                        if seat == outcome["declarer"] and g == [finish]
                        else classify_group(g, cut, settings=meld).value
                        if cut
                        else "",
                    }
                    for g in groups
                ],
                "best": best,
                "total": totals.get(seat),
                "chips": chips.get(seat),
                "dropped": dropped.get(seat),
            }
        )
    return outcome
