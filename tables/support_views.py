"""Support pages: find any deal by player or table and replay it move by move, with every hand
shown after each move and the ledger transactions the game caused. Read-only; money is
corrected only by the ledger's reversal action in the admin. Needs ``accounts.review_deals``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from . import presenters, selectors
from .models import Deal, Table

PERMISSION = "accounts.review_deals"


@require_GET
@login_required
@permission_required(PERMISSION, raise_exception=True)
def deal_search(request: HttpRequest) -> HttpResponse:
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


def _seat_names(deal: Deal) -> dict[int, str]:
    return {s.seat_no: s.user.public_name for s in deal.game.seats.select_related("user")}


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


@require_GET
@login_required
@permission_required(PERMISSION, raise_exception=True)
def deal_replay(request: HttpRequest, deal_id: int) -> HttpResponse:
    deal = get_object_or_404(Deal.objects.select_related("game", "game__table"), pk=deal_id)
    names = _seat_names(deal)
    error = ""
    steps: list[dict[str, Any]] = []
    try:
        replay = selectors.deal_replay(deal=deal)
    except ValueError as exc:
        error = str(exc)
        replay = []
    for step in replay:
        steps.append(
            {
                "version": step.version,
                "actor": step.actor,
                "seat": names.get(step.seat_no, "") if step.seat_no is not None else "server",
                "action": step.action.replace("_", " "),
                "payload": {k: v for k, v in step.payload.items() if k not in ("type", "seat")},
                "events": ", ".join(str(e.get("type", "")).replace("_", " ") for e in step.events),
                "matches_log": step.matches_log,
                "table": _hands_after(step.state, names),
                "created_at": step.created_at,
            }
        )
    game = deal.game
    return render(
        request,
        "tables/support/replay.html",
        {
            "deal": deal,
            "game": game,
            "names": names,
            "steps": steps,
            "error": error,
            "all_match": all(s["matches_log"] for s in steps),
            "transactions": [
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
            ],
        },
    )
