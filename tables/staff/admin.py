"""Admin of the tables.

* Table templates (``tables.staff.admin_templates``): fully editable by staff (variant, seats, money
  in rupees or chips, scores, pool rules, timers, rule options, Play now's tables, practice
  bots), each impossible value refused next to its field; new templates from presets.
* Tables: created from a template (through ``services.table_create``); actions cancel the live
  game with a reason (every entry refunded) or close the table.
* Games, deals, moves: read only, for support (staff with ``accounts.review_deals`` or the view
  permissions), searchable by player username and table. A deal's page replays it move by move
  from the stored shoe, with the full state after each move, and lists the game's ledger
  transactions. Moves can never be changed or deleted.
* Deal notes and the deal access log (who opened which hand review or export): read only; the
  access log is listed for staff with its view permission (superusers).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString

from accounts.http import AuthenticatedHttpRequest
from ledger.currencies import format_amount, money_games_on
from ledger.read_only_admin import ReadOnlyAdmin, ReadOnlyInline
from tables import selectors, services
from tables.models import (
    LIVE_GAME_STATUSES,
    BotProfile,
    Deal,
    DealAccess,
    DealNote,
    Game,
    Move,
    Seat,
    Table,
    TableStatus,
)
from tables.staff import admin_templates  # noqa: F401  (registers the templates' admin)
from tables.staff.reasons import ask_reason

REVIEW_PERMISSION = "accounts.review_deals"


FIELDS = "admin/tables/fields/"
"""The templates of the read-only fields' HTML (``templates/admin/tables/fields/``)."""


class StaffMedia:
    """The stylesheet of the JSON documents and the replay (``static/css/staff-admin.css``)."""

    css = {"all": ("css/staff-admin.css",)}


def _field(name: str, context: dict[str, Any]) -> SafeString:
    """A read-only field's HTML, rendered by its template."""
    return render_to_string(FIELDS + name, context)


def _pretty(data: Any) -> SafeString:
    return _field("json.html", {"text": json.dumps(data, indent=1, sort_keys=True, default=str)})


# ----------------------------------------------------------------------------- templates
# ``TableTemplateAdmin`` (money in rupees and chips, defaults shown, presets) is registered by
# ``tables.staff.admin_templates``, imported above.


# ----------------------------------------------------------------------------- tables


def _cancel_asking_reason(
    modeladmin: admin.ModelAdmin[Any],
    request: AuthenticatedHttpRequest,
    games: list[Game],
    *,
    listed: list[Any],
    action: str,
    title: str,
) -> HttpResponse | None:
    """Cancel the live ``games`` with the reason staff give on the page asking for it (which
    lists ``listed``), or that page."""
    reason = ask_reason(
        modeladmin,
        request,
        listed,
        action=action,
        title=title,
        intro="Every paid entry, rejoins included, goes back to the players; no fee is kept.",
        label="Reason (kept with the game):",
        button="Cancel the games",
    )
    if isinstance(reason, HttpResponse):
        return reason
    for game in games:
        try:
            services.game_cancel(game=game, staff_user=request.user, reason=reason)
        except ValueError as exc:
            modeladmin.message_user(request, f"{game}: {exc}", messages.ERROR)
        else:
            modeladmin.message_user(
                request, f"{game} cancelled; every entry refunded.", messages.SUCCESS
            )
    return None


class TableForm(forms.ModelForm[Table]):
    class Meta:
        model = Table
        fields = ("template", "name")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not money_games_on() and "template" in self.fields:
            # Chips-only mode (MONEY_GAMES off): no table from a cash template.
            field = self.fields["template"]
            field.queryset = field.queryset.exclude(currency="cash")  # type: ignore[attr-defined]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    form = TableForm
    list_display = ("name", "template", "status", "live_game", "created_at")
    list_filter = ("status", "template__variant", "template__practice")
    search_fields = ("name", "template__name")
    list_select_related = ("template",)
    actions = ("cancel_live_game", "close_tables")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return ("template", "status", "live_game", "created_at") if obj is not None else ()

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if obj is None:
            return ("template", "name")
        return ("name", "template", "status", "live_game", "created_at")

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        if change:
            obj.save(update_fields=["name"])
            return
        table = services.table_create(template=obj.template, name=obj.name)
        obj.pk = table.pk
        obj.refresh_from_db()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="live game")
    def live_game(self, obj: Table) -> SafeString | str:
        game = obj.games.filter(status__in=LIVE_GAME_STATUSES).first()
        if game is None:
            return "-"
        url = reverse("admin:tables_game_change", args=[game.pk])
        return _field("link.html", {"url": url, "text": game})

    @admin.action(description="Cancel the live game (refund every entry)")
    def cancel_live_game(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Table]) -> Any:
        games = list(
            Game.objects.filter(table__in=queryset, status__in=LIVE_GAME_STATUSES).order_by("pk")
        )
        if not games:
            self.message_user(request, "No live game at the selected tables.", messages.WARNING)
            return None
        return _cancel_asking_reason(
            self,
            request,
            games,
            listed=list(queryset),
            action="cancel_live_game",
            title="Cancel the live games",
        )

    @admin.action(description="Close the selected tables")
    def close_tables(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset.exclude(status=TableStatus.CLOSED):
            services.table_close(table=table, staff_user=request.user, reason="Table closed")
        self.message_user(request, "Closed. Running games play on to their end.")


# ----------------------------------------------------------------------------- support


class SupportReadOnly(ReadOnlyAdmin[Any]):
    """Read only; visible to staff with the view permission or ``accounts.review_deals``."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(
            super().has_view_permission(request, obj)
            or (request.user.is_staff and request.user.has_perm(REVIEW_PERMISSION))
        )

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(
            super().has_module_permission(request)
            or (request.user.is_staff and request.user.has_perm(REVIEW_PERMISSION))
        )

    def get_search_results(self, request: HttpRequest, queryset: Any, search_term: str) -> Any:
        """A search across the players' names matches a row once (no repeats by the join)."""
        queryset, _ = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), False


class SeatInline(ReadOnlyInline[Seat, Game]):
    model = Seat
    fields = (
        "seat_no",
        "user",
        "is_bot",
        "played",
        "entry_paid_shown",
        "refunded",
        "joined_at",
        "left_at",
    )
    readonly_fields = fields

    @admin.display(description="entry paid")
    def entry_paid_shown(self, obj: Seat) -> str:
        return format_amount(obj.entry_paid, obj.game.currency)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True


def _ledger_table(game: Game) -> SafeString:
    rows = [
        {
            "pk": tx.pk,
            "kind": tx.get_kind_display(),
            "key": tx.idempotency_key,
            "legs": "; ".join(
                f"{entry.account}: {format_amount(entry.amount, tx.currency)}"
                for entry in tx.entries.all()
            ),
            "created_at": tx.created_at,
        }
        for tx in selectors.game_ledger(game=game)
    ]
    return _field("ledger.html", {"rows": rows})


@admin.register(Game)
class GameAdmin(SupportReadOnly):
    list_display = ("id", "table", "variant", "status", "version", "started_at", "ended_at")
    list_filter = ("status", "variant")
    search_fields = ("=id", "table__name", "seats__user__username")
    list_select_related = ("table",)
    inlines = (SeatInline,)
    actions = ("cancel_games",)
    Media = StaffMedia
    fields = (
        "table",
        "variant",
        "status",
        "currency",
        "stake_shown",
        "version",
        "deadline",
        "deadline_kind",
        "created_at",
        "started_at",
        "ended_at",
        "cancelled_by",
        "cancel_reason",
        "deals_list",
        "result_shown",
        "ledger",
        "settings_shown",
        "state_shown",
    )
    readonly_fields = fields

    @admin.display(description="stake (entry fee or points buy-in)")
    def stake_shown(self, obj: Game) -> str:
        return format_amount(obj.stake, obj.currency)

    @admin.display(description="deals")
    def deals_list(self, obj: Game) -> SafeString:
        links = [
            {"url": reverse("admin:tables_deal_change", args=[d.pk]), "text": f"deal {d.number}"}
            for d in obj.deals.order_by("number")
        ]
        return _field("links.html", {"links": links})

    @admin.display(description="result")
    def result_shown(self, obj: Game) -> SafeString:
        return _pretty(obj.result)

    @admin.display(description="ledger transactions")
    def ledger(self, obj: Game) -> SafeString:
        return _ledger_table(obj)

    @admin.display(description="settings (frozen)")
    def settings_shown(self, obj: Game) -> SafeString:
        return _pretty(obj.settings)

    @admin.display(description="state (everything, hidden cards included)")
    def state_shown(self, obj: Game) -> SafeString:
        return _pretty(obj.state)

    @admin.action(description="Cancel the selected games (refund every entry)")
    def cancel_games(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Game]) -> Any:
        if not request.user.is_staff:
            return None
        games = list(queryset.filter(status__in=LIVE_GAME_STATUSES).order_by("pk"))
        if not games:
            self.message_user(request, "None of the selected games is live.", messages.WARNING)
            return None
        return _cancel_asking_reason(
            self, request, games, listed=games, action="cancel_games", title="Cancel games"
        )

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        if not request.user.has_perm("tables.change_game") and not request.user.is_superuser:
            actions.pop("cancel_games", None)
        return actions


@admin.register(Deal)
class DealAdmin(SupportReadOnly):
    list_display = ("id", "game", "number", "starter", "cut_joker", "started_at", "ended_at")
    Media = StaffMedia
    search_fields = ("=game__id", "game__table__name", "game__seats__user__username")
    list_select_related = ("game",)
    fields = (
        "game",
        "number",
        "starter",
        "cut_joker",
        "started_at",
        "ended_at",
        "players",
        "result_shown",
        "replay",
        "ledger",
        "shoe_shown",
    )
    readonly_fields = fields

    @admin.display(description="players")
    def players(self, obj: Deal) -> str:
        seats = obj.game.seats.filter(played=True).select_related("user").order_by("seat_no")
        return ", ".join(f"seat {s.seat_no}: {s.user.username}" for s in seats)

    @admin.display(description="result")
    def result_shown(self, obj: Deal) -> SafeString:
        return _pretty(obj.result)

    @admin.display(description="shoe (dealing order)")
    def shoe_shown(self, obj: Deal) -> SafeString:
        return _pretty(obj.shoe)

    @admin.display(description="ledger transactions of the game")
    def ledger(self, obj: Deal) -> SafeString:
        return _ledger_table(obj.game)

    @admin.display(description="replay (rebuilt from the stored shoe)")
    def replay(self, obj: Deal) -> SafeString:
        try:
            steps = selectors.deal_replay(deal=obj)
        except ValueError as exc:
            return _field("replay.html", {"error": exc})
        rows = [
            {
                "version": step.version,
                "actor": step.actor,
                "seat": step.seat_no if step.seat_no is not None else "",
                "action": step.action,
                "payload": json.dumps(step.payload, default=str),
                "events": ", ".join(str(e.get("type")) for e in step.events),
                "matches": "yes" if step.matches_log else "NO",
                "state": json.dumps(step.state, indent=1, sort_keys=True, default=str),
            }
            for step in steps
        ]
        return _field("replay.html", {"rows": rows})


@admin.register(Move)
class MoveAdmin(SupportReadOnly):
    list_display = ("game", "version", "deal", "actor", "seat_no", "action", "created_at")
    list_filter = ("action",)
    search_fields = ("=game__id", "game__table__name", "actor__username")
    list_select_related = ("game", "deal", "actor")
    fields = (
        "game",
        "deal",
        "version",
        "actor",
        "seat_no",
        "action",
        "payload",
        "events",
        "clock",
        "created_at",
    )
    readonly_fields = fields

    def get_actions(self, request: HttpRequest) -> Any:
        return {}


@admin.register(DealAccess)
class DealAccessAdmin(SupportReadOnly):
    """The access log of hand reviews and exports: read only, for staff only."""

    list_display = ("at", "user", "kind", "deal")
    list_filter = ("kind",)
    search_fields = ("user__username", "=deal__id", "=deal__game__id")
    list_select_related = ("user", "deal")
    fields = ("at", "user", "kind", "deal")
    readonly_fields = fields
    date_hierarchy = "at"

    def get_actions(self, request: HttpRequest) -> Any:
        return {}

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff and admin.ModelAdmin.has_view_permission(self, request))

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_staff and admin.ModelAdmin.has_module_permission(self, request))


@admin.register(DealNote)
class DealNoteAdmin(SupportReadOnly):
    list_display = ("created_at", "author", "deal", "text")
    search_fields = ("author__username", "=deal__id", "text")
    list_select_related = ("author", "deal")
    fields = ("created_at", "author", "deal", "text")
    readonly_fields = fields

    def get_actions(self, request: HttpRequest) -> Any:
        return {}


@admin.register(BotProfile)
class BotProfileAdmin(admin.ModelAdmin[BotProfile]):
    list_display = ("user", "created_at")
    readonly_fields = ("user", "created_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
