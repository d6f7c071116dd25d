"""Player-facing pages of the tables: the lobby, a table, and the action endpoint.

Thin: every write goes through ``tables.services``; every page is rendered per viewer from
the engine's per-seat view, so no hidden card ever reaches a browser."""

from __future__ import annotations

import json
import time
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from . import presenters, services
from .models import Game, Seat, Table
from .rules.errors import RulesError

ACTION_STATUS = {services.StaleAction: 409}


def _tables_rows(user: Any) -> list[dict[str, Any]]:
    rows = []
    tables = (
        Table.objects.filter(template__is_active=True)
        .exclude(status="closed")
        .select_related("template")
        .order_by("template__practice", "template__variant", "pk")
    )
    for table in tables:
        game = table.games.order_by("-pk").first()
        seated = []
        if game is not None and game.status in ("waiting", "running"):
            seated = [s for s in game.seats.all() if s.left_at is None]
        template = table.template
        stake = template.point_value if template.variant == "points" else template.entry_fee
        status = game.status if game is not None else "waiting"
        rows.append(
            {
                "id": table.pk,
                "name": table.name,
                "practice": template.practice,
                "variant_label": presenters.variant_label(template.variant),
                "stake_display": (
                    f"{presenters.money(stake, template.currency)} / point"
                    if template.variant == "points"
                    else presenters.money(stake, template.currency)
                ),
                "seated": len(seated),
                "seats_max": template.seats_max,
                "status_label": {"running": "playing", "waiting": "open"}.get(status, "open"),
                "joinable": status != "running" and len(seated) < template.seats_max,
                "you_are_seated": user.is_authenticated
                and any(s.user_id == user.pk for s in seated),
            }
        )
    return rows


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    context = {"tables": _tables_rows(request.user)}
    if request.GET.get("partial") == "lobby-tables":
        return render(request, "tables/lobby.html#lobby-tables", context)
    return render(request, "tables/lobby.html", context)


def _table_or_404(table_id: int) -> Table:
    return get_object_or_404(Table.objects.select_related("template"), pk=table_id)


def _viewer_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    game = Game.objects.filter(table=table).order_by("-pk").first()
    seats: list[Seat] = []
    view = None
    if game is not None:
        seats = list(game.seats.select_related("user").order_by("seat_no"))
        state = services.game_state(game)
        if state is not None:
            my_seat = next(
                (
                    s.seat_no
                    for s in seats
                    if request.user.is_authenticated and s.user_id == request.user.pk
                ),
                None,
            )
            view = services._engine(game.variant).view(state, my_seat)
    return {
        "t": presenters.present_table(
            table=table, game=game, seats=seats, view=view, user=request.user, now=time.time()
        )
    }


@require_GET
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(table_id)
    context = _viewer_context(request, table)
    if request.htmx:
        return render(request, "tables/table.html#table", context)
    return render(request, "tables/table.html", context)


@require_GET
def table_view(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table partial alone: what a client re-fetches after a push or a reconnect."""
    table = _table_or_404(table_id)
    return render(request, "tables/table.html#table", _viewer_context(request, table))


@login_required
@require_POST
def table_join(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(table_id)
    try:
        services.table_join(table=table, user=request.user)
    except (services.TableError, ValueError) as exc:
        messages.error(request, str(exc))
        return redirect("lobby")
    return redirect("table", table_id=table.pk)


@login_required
@require_POST
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(table_id)
    try:
        services.table_leave(table=table, user=request.user)
    except (services.TableError, ValueError) as exc:
        messages.error(request, str(exc))
        return redirect("table", table_id=table.pk)
    messages.success(request, "You left the table.")
    return redirect("lobby")


class BadForm(ValueError):
    """A forged or malformed action form."""


def _parse_groups(raw: str) -> list[list[str]]:
    try:
        groups = json.loads(raw)
    except (TypeError, ValueError) as exc:
        raise BadForm("The card groups could not be read.") from exc
    if not isinstance(groups, list) or not all(
        isinstance(g, list) and all(isinstance(c, str) for c in g) for g in groups
    ):
        raise BadForm("The card groups could not be read.")
    return [g for g in groups if g]


def _action_payload(action: str, post: Any) -> dict[str, Any]:
    keys = services.PLAYER_ACTIONS.get(action)
    if keys is None:
        raise BadForm(f"Unknown action {action!r}.")
    payload: dict[str, Any] = {}
    for key in keys:
        raw = post.get(key)
        if raw is None or raw == "":
            if key == "end":
                continue
            raise BadForm(f"Missing {key.replace('_', ' ')} for {action.replace('_', ' ')}.")
        if key in ("groups", "melds"):
            payload[key] = _parse_groups(raw)
        elif key == "on":
            if raw not in ("true", "false"):
                raise BadForm("Auto drop must be on or off.")
            payload[key] = raw == "true"
        elif key == "cards":
            payload[key] = raw.split()
        elif key == "meld_id":
            try:
                payload[key] = int(raw)
            except ValueError as exc:
                raise BadForm("Unknown meld.") from exc
        else:
            payload[key] = raw
    return payload


@login_required
@require_POST
def table_act(request: HttpRequest, table_id: int) -> HttpResponse:
    """One player action. Success and refusal both answer with the viewer's fresh table partial;
    a refusal carries the reason and changes nothing."""
    table = _table_or_404(table_id)
    game = Game.objects.filter(table=table).order_by("-pk").first()
    error = ""
    status = 200
    try:
        if game is None:
            raise Http404("No game at this table.")
        try:
            version = int(request.POST.get("version", ""))
        except ValueError as exc:
            raise BadForm("Missing or malformed game version.") from exc
        action = request.POST.get("action", "")
        if action == "sort":
            services.deal_sort(game_id=game.pk, user=request.user, expected_version=version)
        elif action == "leave":
            services.table_leave(table=table, user=request.user)
        else:
            services.game_act(
                game_id=game.pk,
                user=request.user,
                action=action,
                expected_version=version,
                payload=_action_payload(action, request.POST),
            )
    except services.StaleAction:
        error = "The table moved on before your action arrived: here is the current table."
        status = 409
    except (BadForm, services.TableError, RulesError, ValueError) as exc:
        error = str(exc)
        status = 400
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("table", table_id=table.pk)
    context = _viewer_context(request, table)
    context["error"] = error
    return render(request, "tables/table.html#table", context, status=status)
