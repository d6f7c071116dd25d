"""Tournament pages: the lobby's Tournaments tab, a tournament's page (and its live part,
re-fetched every few seconds), register / unregister, and support's page and results export."""

from __future__ import annotations

import json
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from tables.tournaments import selectors, services
from tables.tournaments.models import Tournament, TournamentStatus
from tables.web.acting import REFUSALS
from tables.web.messages import refusal_text, refusal_words

SUPPORT_PERMISSION = "accounts.review_deals"  # as the deal pages


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    rows = selectors.tournaments_for_lobby(user=request.user)
    return render(request, "tournaments/list.html", {"rows": rows})


@require_GET
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = selectors.tournament_page(tournament=tournament, user=request.user)
    if request.GET.get("partial") == "live":
        return render(request, "tournaments/tournament.html#live", context)
    return render(request, "tournaments/tournament.html", context)


@require_GET
def tournament_table_result(request: HttpRequest, table_id: int) -> HttpResponse:
    """A tournament table's finished game as the tournament sees it (the table page loads it
    into its result, and re-fetches it until the tournament is over)."""
    context = selectors.tournament_table_result(
        table_id=table_id, user=request.user, now=timezone.now()
    )
    if context is None:
        raise Http404
    return render(request, "tournaments/_table_result.html", context)


@login_required
@require_POST
def tournament_register(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    return _registration(
        request,
        tournament_id,
        services.tournament_register,
        _("You are registered. Your entry is held until the end."),
    )


@login_required
@require_POST
def tournament_unregister(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    return _registration(
        request,
        tournament_id,
        services.tournament_unregister,
        _("You are no longer registered: your entry was refunded."),
    )


def _registration(
    request: AuthenticatedHttpRequest,
    tournament_id: int,
    change: Callable[..., object],
    done: str,
) -> HttpResponse:
    """Register or unregister the player (``change``), saying ``done`` or the refusal."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        change(tournament=tournament, user=request.user)
    except REFUSALS as exc:
        messages.error(request, refusal_words(refusal_text(exc)))
    else:
        messages.success(request, done)
    return redirect("tournaments:detail", tournament_id=tournament.pk)


@require_GET
@login_required
@permission_required(SUPPORT_PERMISSION, raise_exception=True)
def tournament_search(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Support's list of every tournament, searched by name or number, player and status."""
    query = request.GET.get("q", "").strip()[:100]
    player_name = request.GET.get("player", "").strip()[:150]
    status = request.GET.get("status", "").strip()
    errors: list[str] = []
    player = None
    if player_name:
        player = get_user_model().objects.filter(username__iexact=player_name).first()
        if player is None:
            errors.append(_("No player is called '%(name)s'.") % {"name": player_name})
    if status and status not in TournamentStatus.values:
        errors.append(_("Choose a status from the list."))
        status = ""
    found = (
        selectors.tournaments_find(query=query, player=player, status=status)
        if not errors
        else Tournament.objects.none()
    )
    page = Paginator(found, 25).get_page(request.GET.get("page"))
    return render(
        request,
        "tables/support/tournaments.html",
        {
            "page": page,
            "q": query,
            "player": player_name,
            "status": status,
            "statuses": TournamentStatus.choices,
            "errors": errors,
            "searched": bool(query or player_name or status),
        },
    )


@require_GET
@login_required
@permission_required(SUPPORT_PERMISSION, raise_exception=True)
def tournament_support(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = selectors.tournament_support(tournament=tournament)
    return render(request, "tables/support/tournament.html", context)


@require_GET
@login_required
@permission_required(SUPPORT_PERMISSION, raise_exception=True)
def tournament_export(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    data = selectors.tournament_results_export(tournament=tournament)
    response = HttpResponse(
        json.dumps(data, indent=2, sort_keys=True, default=str), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
    return response
