"""Support pages: find any deal by player or table and open its hand review: the outcome with
every player's final groups, the engine's best arrangement, points, totals and the money of the
deal; the step-through with times and think times; notes; the export (one JSON document,
docs/deal-export.md); and the pair signals report. Only finished deals are reviewed (a live
deal shows its public state) and every opening of a review or export is recorded. Read-only
but for notes; money is corrected only by the ledger's reversal action in the admin. Needs
``accounts.review_deals``."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from tables import presenters, selectors
from tables.models import Deal, DealAccessKind, Table
from tables.presenters.moves import end_words
from tables.services.errors import TableError
from tables.services.support import deal_access_record, deal_note_add
from tables.support import access, export, notes, replay, review
from tables.support import pair_signals as signals
from tables.support import presenters as words

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
            errors.append(_("No player is called '%(name)s'.") % {"name": player_name})
    if table_query:
        tables = Table.objects.filter(name__icontains=table_query)
        if table_query.isdigit():
            tables = Table.objects.filter(pk=int(table_query)) | tables
        table = tables.order_by("pk").first()
        if table is None:
            errors.append(_("No table matches '%(query)s'.") % {"query": table_query})
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


def _names(deal: Deal) -> dict[int, str]:
    return {p["seat"]: p["name"] for p in replay.deal_players(deal=deal)}


@require_GET
@login_required
@permission_required(PERMISSION, raise_exception=True)
def deal_replay(request: AuthenticatedHttpRequest, deal_id: int) -> HttpResponse:
    deal = get_object_or_404(Deal.objects.select_related("game", "game__table"), pk=deal_id)
    game = deal.game
    names = _names(deal)
    base = {"deal": deal, "game": game, "names": names}
    if not replay.deal_is_reviewable(deal):
        view = replay.deal_public_state(deal=deal)
        turn = (view.get("deal") or {}).get("turn")
        return render(
            request,
            "tables/support/live.html",
            base
            | {
                "turn": names.get(turn, "") if turn is not None else "",
                "players": words.live_players(view, names),
            },
        )
    deal_access_record(deal=deal, user=request.user, kind=DealAccessKind.REVIEW)
    error = ""
    try:
        steps = replay.deal_history(deal=deal)
    except ValueError as exc:
        error, steps = str(exc), []
    outcome = review.deal_outcome(deal=deal, steps=steps)
    money, prizes = words.money_rows(
        review.deal_money(deal=deal, steps=steps), names, game.currency
    )
    cut = outcome["cut"]
    shoe = deal.shoe.get("shoe", {}) if isinstance(deal.shoe, dict) else {}
    return render(
        request,
        "tables/support/replay.html",
        base
        | {
            "outcome": outcome,
            "end_reason": end_words(outcome["reason"]),
            "show_reason": words.show_reason(outcome),
            "winner": names.get(outcome["winner"], "") if outcome["winner"] is not None else "",
            "declarer": names.get(outcome["declarer"], "")
            if outcome["declarer"] is not None
            else "",
            "cut": presenters.card_face(cut) if cut else None,
            "finish": presenters.card_face(outcome["finish_card"], cut),
            "rows": words.outcome_rows(outcome, names, money, points=game.variant == "points"),
            "table_melds": [presenters.faces(m) for m in outcome["table_melds"]],
            "prizes": prizes,
            "steps": words.step_rows(steps, names, cut),
            "connections": words.connections(steps, deal, names),
            "error": error,
            "all_match": all(s.matches_log for s in steps),
            "notes": notes.deal_notes(deal=deal),
            "accesses": access.deal_accesses(deal=deal)[:20],
            "shoe_cards": " ".join(shoe.get("cards", [])),
            "transactions": words.transaction_rows(selectors.game_ledger(game=game)),
        },
    )


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
        messages.success(request, _("Note added."))
    return redirect(reverse("support_deal", args=[deal.pk]) + "#notes")


@require_GET
@login_required
@permission_required(PERMISSION, raise_exception=True)
def deal_download(request: AuthenticatedHttpRequest, deal_id: int) -> HttpResponse:
    deal = get_object_or_404(Deal.objects.select_related("game", "game__table"), pk=deal_id)
    if not replay.deal_is_reviewable(deal):
        return HttpResponse(_("The deal is still being played."), status=409)
    document = export.deal_export(deal=deal)
    deal_access_record(deal=deal, user=request.user, kind=DealAccessKind.EXPORT)
    response = HttpResponse(
        json.dumps(document, indent=1, sort_keys=True, default=str),
        content_type="application/json",
    )
    response["Content-Disposition"] = f'attachment; filename="deal-{deal.pk}.json"'
    return response


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
    rows = signals.pair_signals(since=timezone.now() - timedelta(days=days))
    rows.sort(key=lambda r: (SIGNAL_SORTS[sort](r), r["games"]), reverse=True)
    for row in rows:
        row["flow_a_to_b_shown"] = presenters.money(row["flow_a_to_b"], "cash")
        row["flow_b_to_a_shown"] = presenters.money(row["flow_b_to_a"], "cash")
        row["flag_words"] = words.signal_flags(row)
        row["deal_links"] = row["deal_ids"][:12]
    return render(
        request,
        "tables/support/signals.html",
        {
            "rows": rows[:200],
            "sort": sort,
            "days": days,
            "sorts": [(key, str(text)) for key, text in words.SIGNAL_SORT_WORDS.items()],
        },
    )
