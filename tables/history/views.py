"""My games pages (thin: selectors read, presenters put into words, templates draw)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from ledger.currencies import money_games_on
from tables.history import presenters, selectors, services
from tables.models import Deal, Seat, Variant
from tables.presenters.cards import money, signed_money, variant_label

GAMES_PER_PAGE = 20
CURRENCIES = ("cash", "practice")


def _filters(request: HttpRequest) -> tuple[str | None, str | None]:
    variant = request.GET.get("variant") or None
    currency = request.GET.get("kind") or None
    if variant not in Variant.values:
        variant = None
    if currency not in CURRENCIES:
        currency = None
    return variant, currency


@login_required
def my_games(request: AuthenticatedHttpRequest) -> HttpResponse:
    variant, currency = _filters(request)
    games = selectors.games_of_player(user=request.user, variant=variant, currency=currency)
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    rows = selectors.game_rows(user=request.user, games=page.object_list)
    for row in rows:
        game = row["game"]
        row["variant_label"] = variant_label(game.variant)
        row["paid_in_display"] = money(row["paid_in"], game.currency)
        row["paid_out_display"] = money(row["paid_out"], game.currency)
        row["net_display"] = signed_money(row["net"], game.currency)
    query = {k: v for k, v in (("variant", variant), ("kind", currency)) if v}
    return render(
        request,
        "history/my_games.html",
        {
            "rows": rows,
            "page": page,
            "variant": variant or "",
            "kind": currency or "",
            "variants": [(v, variant_label(v)) for v in Variant.values],
            "kinds": [c for c in CURRENCIES if c == "practice" or money_games_on()],
            "query": "&".join(f"{k}={v}" for k, v in query.items()),
        },
    )


def _names(deal: Deal) -> dict[int, str]:
    seats = Seat.objects.filter(game_id=deal.game_id, played=True).select_related("user")
    return {s.seat_no: s.user.public_name for s in seats}


def _review_context(deal: Deal, seat: int) -> dict[str, Any]:
    data = selectors.deal_review_data(deal=deal, seat=seat)
    game = deal.game
    return {
        "deal": deal,
        "game": game,
        "review": (
            presenters.present_review(
                data, names=_names(deal), currency=game.currency, variant=game.variant
            )
            if data is not None
            else None
        ),
    }


def _reviewable(
    request: AuthenticatedHttpRequest, deal_id: int, not_yours: str
) -> tuple[Deal, int]:
    """The deal and the player's seat in it: 404 for no such deal, 403 (``not_yours``) for
    one the player may not review."""
    try:
        return selectors.reviewable_deal(user=request.user, deal_id=deal_id)
    except Deal.DoesNotExist as exc:
        raise Http404(_("There is no such deal.")) from exc
    except selectors.DealNotReviewable as exc:
        raise PermissionDenied(not_yours) from exc


@login_required
def deal_review(request: AuthenticatedHttpRequest, deal_id: int) -> HttpResponse:
    deal, seat = _reviewable(
        request, deal_id, _("You can review only the deals you played, once they end.")
    )
    context = _review_context(deal, seat)
    share = selectors.share_of(user=request.user, deal=deal)
    context["share"] = share
    if share is not None and share.active:
        context["share_url"] = request.build_absolute_uri(
            reverse("history_shared", args=[share.token])
        )
    return render(request, "history/review.html", context)


@login_required
@require_POST
def deal_share(request: AuthenticatedHttpRequest, deal_id: int) -> HttpResponse:
    deal, _seat = _reviewable(
        request, deal_id, _("You can share only the deals you played, once they end.")
    )
    services.deal_share_set(user=request.user, deal=deal, on=request.POST.get("on") == "1")
    return redirect("history_deal", deal_id=deal.pk)


def shared_review(request: HttpRequest, token: str) -> HttpResponse:
    found = selectors.shared_deal(token=token) if len(token) <= 64 else None
    if found is None:
        raise Http404(_("This link is not shared."))
    deal, seat = found
    context = _review_context(deal, seat)
    context["shared"] = True
    return render(request, "history/review.html", context)


@login_required
def my_stats(request: AuthenticatedHttpRequest) -> HttpResponse:
    rows: list[dict[str, Any]] = []
    for s in selectors.player_stats(user=request.user):
        rows.append(
            {
                "stats": s,
                "variant_label": variant_label(s.variant),
                "average_lost": round(s.average_lost, 1) if s.average_lost is not None else None,
                "won_display": money(s.money_won, s.currency),
                "lost_display": money(s.money_lost, s.currency),
            }
        )
    currency = request.GET.get("kind")
    if currency not in CURRENCIES:
        currency = (
            "practice"
            if not money_games_on()
            else (rows[0]["stats"].currency if rows else "practice")
        )
    points = selectors.running_totals(user=request.user, currency=currency)
    return render(
        request,
        "history/stats.html",
        {
            "rows": rows,
            "kind": currency,
            "kinds": [c for c in CURRENCIES if c == "practice" or money_games_on()],
            "chart": presenters.chart(points, currency),
        },
    )
