"""Support pages: find any deal by player or table and open its hand review: the outcome with
every player's final groups, the engine's best arrangement, points, totals and the money of the
deal; the step-through with times and think times; notes; the export (one JSON document,
docs/deal-export.md); and the pair signals report. Only finished deals are reviewed (a live
deal shows its public state) and every opening of a review or export is recorded. Read-only
but for notes; money is corrected only by the ledger's reversal action in the admin. Needs
``accounts.review_deals``."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from tables import presenters, selectors
from tables.models import Deal, DealAccessKind, Table
from tables.services.errors import TableError
from tables.services.support import deal_access_record, deal_note_add
from tables.support import selectors as support_selectors

PERMISSION = "accounts.review_deals"


@require_GET
@login_required
@permission_required(PERMISSION, raise_exception=True)
def deal_search(request: AuthenticatedHttpRequest) -> HttpResponse:
    player_name = request.GET.get("player", "").strip()
    table_query = request.GET.get("table", "").strip()
    errors: list[str] = []
    user = None
    table = None
    if player_name:
        user = get_user_model().objects.filter(username__iexact=player_name).first()
        if user is None:
            errors.append(f"No player is called {player_name!r}.")
    if table_query:
        tables = Table.objects.filter(name__icontains=table_query)
        if table_query.isdigit():
            tables = Table.objects.filter(pk=int(table_query)) | tables
        table = tables.order_by("pk").first()
        if table is None:
            errors.append(f"No table matches {table_query!r}.")
    deals = selectors.deals_find(user=user, table=table) if not errors else Deal.objects.none()
    page = Paginator(deals, 25).get_page(request.GET.get("page"))
    return render(
        request,
        "tables/support/deals.html",
        {
            "page": page,
            "player": player_name,
            "table_query": table_query,
            "errors": errors,
            "searched": bool(player_name or table_query),
        },
    )


def _hands_after(state: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """Every hand and the table, as the state after a move holds them (support sees all)."""
    if "deal" in state:  # 13-card games
        deal = state.get("deal") or {}
        cut = deal.get("cut_card")
        hands = [
            {
                "name": names.get(h["seat"], f"Seat {h['seat']}"),
                "status": h.get("status", ""),
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
            "name": names.get(p["seat"], f"Seat {p['seat']}"),
            "status": "playing" if p.get("in_hand") else "out",
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


def _names(deal: Deal) -> dict[int, str]:
    return {p["seat"]: p["name"] for p in support_selectors.deal_players(deal=deal)}


def _at(clock: float) -> datetime:
    return timezone.localtime(datetime.fromtimestamp(clock, UTC))


def _took(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    return f"{int(seconds // 60)} min {seconds % 60:.0f} s"


KIND_WORDS = {
    "pure_sequence": "pure sequence",
    "impure_sequence": "sequence with joker",
    "set": "set",
    "invalid": "not a meld",
    "hand": "cards held",
}
ACTION_WORDS = {
    "start_deal": "dealt the cards",
    "pick_closed": "picked from the closed deck",
    "pick_open": "picked from the open deck",
    "discard": "discarded",
    "declare": "declared",
    "drop": "dropped",
    "set_auto_drop": "set auto drop",
    "arrange": "arranged the hand",
    "submit_meld": "submitted groups",
    "rejoin": "rejoined",
    "split_accept": "accepted the split",
    "split_decline": "declined the split",
    "leave": "left the game",
    "timeout": "timer ran out",
    "lay_down": "laid down",
    "lay_off": "laid off",
}


def _event_words(event: dict[str, Any], names: dict[int, str]) -> tuple[str, list[str]]:
    """A logged event as words for support, and the card codes it names."""
    kind = str(event.get("type", ""))
    who = names.get(int(event["seat"]), "") if isinstance(event.get("seat"), int) else ""
    server = " (played by the server)" if event.get("auto") else ""
    if kind == "card_picked":
        return f"{who} picked from the {event.get('source')} deck{server}", [event["card"]]
    if kind == "card_discarded":
        return f"{who} discarded{server}", [event["card"]]
    if kind == "turn_missed":
        return f"{who} missed a turn ({event.get('missed')} in a row)", []
    if kind == "dropped":
        reason = str(event.get("reason", "")).replace("_", " ")
        return f"{who} out of the deal ({reason}), {event.get('score')} points", []
    if kind == "declared":
        verdict = "valid show" if event.get("valid") else f"wrong show: {event.get('reason')}"
        return f"{who} declared: {verdict}", [event["finish_card"]]
    if kind == "deal_ended":
        winner = names.get(int(event["winner"]), "") if event.get("winner") is not None else ""
        return (
            f"deal {event.get('number')} ended ({event.get('reason')}), winner {winner or '-'}",
            [],
        )
    if kind == "rejoined":
        return f"{who} rejoined (pays {event.get('amount')} minor units)", []
    if kind == "game_ended":
        return f"game over ({event.get('reason')})", []
    if kind == "went_out":
        return f"{who} went out{' rummy' if event.get('rummy') else ''}", []
    return kind.replace("_", " ") + (f": {who}" if who else ""), []


DASH = "\u2013"
NOISE = frozenset({"turn_started", "extra_time_started", "meld_submitted", "arranged"})


def _connections(steps: list[Any], deal: Deal, names: dict[int, str]) -> list[str]:
    """One line per player who was offline during the deal: "offline 12:03:10 to 12:03:41"."""
    before = {
        int(p["seat"]): bool(p.get("connected", True))
        for p in (deal.state_before or {}).get("players", [])
    }
    spans: dict[int, list[str]] = {}
    since: dict[int, str] = {s: "before the deal" for s, up in before.items() if not up}
    for step in steps:
        if step.action != "set_connected" or step.seat_no is None:
            continue
        seat, at = step.seat_no, _at(step.clock).strftime("%H:%M:%S")
        if not step.payload.get("connected"):
            since.setdefault(seat, at)
        elif seat in since:
            spans.setdefault(seat, []).append(f"{since.pop(seat)}{DASH}{at}")
    for seat, start in since.items():
        spans.setdefault(seat, []).append(f"{start}{DASH}end")
    return [
        f"{names.get(seat, f'Seat {seat}')}: offline " + ", ".join(found)
        for seat, found in sorted(spans.items())
    ]


def _step_rows(steps: list[Any], names: dict[int, str], cut: str | None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    previous: float | None = None
    for step in steps:
        took = step.clock - previous if previous is not None else None
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
            if event.get("type") in NOISE:
                continue
            words, codes = _event_words(event, names)
            # a card the move itself shows (the discard, the finish card) is not shown again
            fresh = []
            for code in codes:
                if shown[str(code).upper()] > 0:
                    shown[str(code).upper()] -= 1
                else:
                    fresh.append(code)
            notes.append({"words": words, "cards": presenters.faces(fresh, cut)})
            server_played = server_played or bool(event.get("auto"))
        groups = payload.get("groups") or payload.get("melds") or []
        rows.append(
            {
                "version": step.version,
                "at": _at(step.clock),
                "took": _took(took) if took is not None and step.seat_no is not None else "",
                "who": names.get(step.seat_no, "") if step.seat_no is not None else "server",
                "what": ACTION_WORDS.get(step.action, step.action.replace("_", " ")),
                "timeout": step.action == "timeout",
                "server_played": server_played,
                "cards": presenters.faces(played, cut),
                "groups": [presenters.faces(list(g), cut) for g in groups],
                "notes": notes,
                "matches_log": step.matches_log,
                "table": _hands_after(step.state, names) if _in_deal(step.state) else None,
            }
        )
    return rows


def _in_deal(state: dict[str, Any]) -> bool:
    if "deal" in state:
        return state.get("deal") is not None
    return state.get("phase") in ("turn", "playing", "meld")


def _money_rows(
    money: dict[str, Any], names: dict[int, str], currency: str
) -> tuple[dict[int, dict[str, str]], dict[str, Any] | None]:
    def fmt(amount: int, signed: bool = False) -> str:
        text = presenters.money(abs(amount), currency)
        if signed and amount > 0:
            return "+" + text
        return (presenters.MINUS + text) if amount < 0 else text

    rows = {
        seat: {
            "paid_in": fmt(m["paid_in"]),
            "paid_out": fmt(m["paid_out"]),
            "net": fmt(m["net"], signed=True),
            "net_value": m["net"],
        }
        for seat, m in money["by_seat"].items()
    }
    prizes = money["prizes"]
    if prizes is None:
        return rows, None
    return rows, {
        "reason": prizes["reason"].replace("_", " "),
        "payouts": [
            {"name": names.get(seat, f"Seat {seat}"), "amount": fmt(amount)}
            for seat, amount in sorted(prizes["payouts"].items())
        ],
        "fee": fmt(prizes["fee"]),
    }


def _outcome_rows(
    outcome: dict[str, Any],
    names: dict[int, str],
    money: dict[int, dict[str, str]],
    *,
    points: bool = False,
) -> list[dict[str, Any]]:
    cut = outcome["cut"]
    rows = []
    for r in outcome["rows"]:
        best = r["best"]
        rows.append(
            {
                "seat": r["seat"],
                "name": names.get(r["seat"], f"Seat {r['seat']}"),
                "winner": r["seat"] == outcome["winner"],
                "declarer": r["seat"] == outcome["declarer"],
                "outcome": support_selectors.OUTCOME_WORDS.get(r["outcome"], r["outcome"]),
                "points": r["points"],
                "counted": r.get("counted", True),
                "groups": [
                    {
                        "cards": presenters.faces(g["cards"], cut),
                        "kind": KIND_WORDS.get(g["kind"], g["kind"]),
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


@require_GET
@login_required
@permission_required(PERMISSION, raise_exception=True)
def deal_replay(request: AuthenticatedHttpRequest, deal_id: int) -> HttpResponse:
    deal = get_object_or_404(Deal.objects.select_related("game", "game__table"), pk=deal_id)
    game = deal.game
    names = _names(deal)
    base = {"deal": deal, "game": game, "names": names}
    if not support_selectors.deal_is_reviewable(deal):
        view = support_selectors.deal_public_state(deal=deal)
        turn = (view.get("deal") or {}).get("turn")
        return render(
            request,
            "tables/support/live.html",
            base
            | {
                "turn": names.get(turn, "") if turn is not None else "",
                "players": [
                    {"name": names.get(p["seat"], ""), "total": p.get("total"), **p}
                    for p in view.get("players", [])
                ],
            },
        )
    deal_access_record(deal=deal, user=request.user, kind=DealAccessKind.REVIEW)
    error = ""
    try:
        steps = support_selectors.deal_history(deal=deal)
    except ValueError as exc:
        error, steps = str(exc), []
    outcome = support_selectors.deal_outcome(deal=deal, steps=steps)
    money, prizes = _money_rows(
        support_selectors.deal_money(deal=deal, steps=steps), names, game.currency
    )
    cut = outcome["cut"]
    shoe = deal.shoe.get("shoe", {}) if isinstance(deal.shoe, dict) else {}
    return render(
        request,
        "tables/support/replay.html",
        base
        | {
            "outcome": outcome,
            "winner": names.get(outcome["winner"], "") if outcome["winner"] is not None else "",
            "declarer": names.get(outcome["declarer"], "")
            if outcome["declarer"] is not None
            else "",
            "cut": presenters.card_face(cut) if cut else None,
            "finish": presenters.card_face(outcome["finish_card"], cut),
            "rows": _outcome_rows(outcome, names, money, points=game.variant == "points"),
            "table_melds": [presenters.faces(m) for m in outcome["table_melds"]],
            "prizes": prizes,
            "steps": _step_rows(steps, names, cut),
            "connections": _connections(steps, deal, names),
            "error": error,
            "all_match": all(s.matches_log for s in steps),
            "notes": support_selectors.deal_notes(deal=deal),
            "accesses": support_selectors.deal_accesses(deal=deal)[:20],
            "shoe_cards": " ".join(shoe.get("cards", [])),
            "transactions": _transactions(game),
        },
    )


def _transactions(game: Any) -> list[dict[str, Any]]:
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
        for tx in selectors.game_ledger(game=game)
    ]


@require_POST
@login_required
@permission_required(PERMISSION, raise_exception=True)
def deal_note(request: AuthenticatedHttpRequest, deal_id: int) -> HttpResponse:
    deal = get_object_or_404(Deal, pk=deal_id)
    try:
        deal_note_add(deal=deal, author=request.user, text=request.POST.get("text", ""))
    except TableError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Note added.")
    return redirect(reverse("support_deal", args=[deal.pk]) + "#notes")


@require_GET
@login_required
@permission_required(PERMISSION, raise_exception=True)
def deal_download(request: AuthenticatedHttpRequest, deal_id: int) -> HttpResponse:
    deal = get_object_or_404(Deal.objects.select_related("game", "game__table"), pk=deal_id)
    if not support_selectors.deal_is_reviewable(deal):
        return HttpResponse("The deal is still being played.", status=409)
    document = support_selectors.deal_export(deal=deal)
    deal_access_record(deal=deal, user=request.user, kind=DealAccessKind.EXPORT)
    response = HttpResponse(
        json.dumps(document, indent=1, sort_keys=True, default=str),
        content_type="application/json",
    )
    response["Content-Disposition"] = f'attachment; filename="deal-{deal.pk}.json"'
    return response


# The sort keys in words (the page's "Sort by" links).
SIGNAL_SORT_WORDS = {
    "games": "games",
    "deals": "deals",
    "drops": "drops",
    "big_losses": "big losses",
    "flow": "money flow",
    "flags": "flags",
}
SIGNAL_SORTS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "games": lambda r: r["games"],
    "deals": lambda r: r["deals"],
    "drops": lambda r: r["a_drops"] + r["b_drops"],
    "big_losses": lambda r: r["a_big_losses_to_b"] + r["b_big_losses_to_a"],
    "flow": lambda r: max(r["flow_a_to_b"], r["flow_b_to_a"]),
    "flags": lambda r: len(r["flags"]),
}


@require_GET
@login_required
@permission_required(PERMISSION, raise_exception=True)
def pair_signals(request: AuthenticatedHttpRequest) -> HttpResponse:
    sort = request.GET.get("sort", "flags")
    if sort not in SIGNAL_SORTS:
        sort = "flags"
    days_text = request.GET.get("days", "90")
    days = int(days_text) if days_text.isascii() and days_text.isdigit() else 90
    days = min(max(days, 1), 3650)
    rows = support_selectors.pair_signals(since=timezone.now() - timedelta(days=days))
    rows.sort(key=lambda r: (SIGNAL_SORTS[sort](r), r["games"]), reverse=True)
    for row in rows:
        row["flow_a_to_b_shown"] = presenters.money(row["flow_a_to_b"], "cash")
        row["flow_b_to_a_shown"] = presenters.money(row["flow_b_to_a"], "cash")
        row["deal_links"] = row["deal_ids"][:12]
    return render(
        request,
        "tables/support/signals.html",
        {"rows": rows[:200], "sort": sort, "days": days, "sorts": list(SIGNAL_SORT_WORDS.items())},
    )
