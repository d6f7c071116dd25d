"""Staff's tournaments: settings validated next to their fields (the model's ``clean``), frozen
once the tournament starts; cancel with full refunds; every registration, round, table and game
listed (the support page, ``tournaments:support``, links each game to its deal pages)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from accounts.http import AuthenticatedHttpRequest
from tables.models import TableTemplate, Variant
from tables.presenters import money
from tables.staff.money_form import TypedMoneyForm
from tables.tournaments import services
from tables.tournaments.models import OPEN_STATUSES, Registration, Round, Tournament

# Everything staff set: what a repeated sit & go copies, and when it opens and starts.
SETTING_FIELDS = (*services.REPEATED_FIELDS, "registration_opens_at", "starts_at")
STATE_FIELDS = (
    "status",
    "next_step_at",
    "frozen",
    "started_at",
    "ended_at",
    "cancelled_by",
    "cancel_reason",
    "support_link",
)


class RegistrationInline(admin.TabularInline[Registration, Tournament]):
    model = Registration
    extra = 0
    can_delete = False
    fields = (
        "user",
        "is_bot",
        "status",
        "entry_paid",
        "registered_at",
        "knocked_out_round",
        "rank_first",
        "rank_last",
        "prize",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RoundInline(admin.TabularInline[Round, Tournament]):
    model = Round
    extra = 0
    can_delete = False
    fields = ("number", "is_final", "status", "draw", "started_at", "ended_at", "next_round_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TournamentForm(TypedMoneyForm):
    """The entry fee and the guarantee typed in rupees (chips for practice), the fee in
    percent, as table templates take them; a blank prize table is the rule book's."""

    money_fields = ("entry_fee", "guarantee")
    fee_field = "fee_bps"
    entry_fee = forms.CharField(
        label="Entry fee",
        required=False,
        help_text="Rupees for cash (50.00), chips for practice (100); blank or 0: a freeroll.",
    )
    guarantee = forms.CharField(
        label="Guarantee",
        required=False,
        help_text="The prize pool the house guarantees, in the same money; blank or 0: none.",
    )
    fee_bps = forms.CharField(
        label="Platform fee (%)", help_text="Percent of the entries, 0 to 100 (12.5 = 12.5 %)."
    )

    class Meta:
        model = Tournament
        fields = "__all__"

    def clean_prize_table(self) -> object:
        value = self.cleaned_data.get("prize_table")
        return [] if value in (None, "", []) else value


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    form = TournamentForm
    list_display = ("name", "kind", "status", "currency", "entry", "players_max", "starts_at")
    list_filter = ("status", "kind", "currency")
    search_fields = ("name",)
    fieldsets = (
        (None, {"fields": ("name", "name_hi", "kind", "template", "currency")}),
        ("Money", {"fields": ("entry_fee", "fee_bps", "guarantee", "prize_table")}),
        (
            "Field and tables",
            {
                "fields": (
                    ("players_min", "players_max"),
                    ("seats_per_table", "qualifiers_per_table"),
                    "deals_per_round",
                )
            },
        ),
        (
            "Times",
            {
                "fields": (
                    "registration_opens_at",
                    "starts_at",
                    "break_s",
                    "bots_fill",
                    "human_wait_s",
                )
            },
        ),
        ("Where it stands", {"fields": STATE_FIELDS}),
    )
    inlines = (RegistrationInline, RoundInline)
    actions = ("cancel_with_refunds",)

    @admin.display(description="Entry fee")
    def entry(self, obj: Tournament) -> str:
        return money(obj.entry_fee, obj.currency)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # a tournament is cancelled, never deleted
        return actions

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if obj is not None and obj.status not in OPEN_STATUSES:
            return SETTING_FIELDS + STATE_FIELDS  # frozen once it starts
        return STATE_FIELDS

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "template":
            kwargs["queryset"] = TableTemplate.objects.filter(variant=Variant.DEALS)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if obj.status in OPEN_STATUSES:
            obj.next_step_at = timezone.now()  # the director looks at the new settings at once
        super().save_model(request, obj, form, change)

    @admin.display(description="Support page")
    def support_link(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "-"
        url = reverse("tournaments:support", args=[obj.pk])
        return format_html('<a href="{}">Rounds, tables, deals and payments</a>', url)

    @admin.action(description="Cancel (every entry refunded in full)")
    def cancel_with_refunds(
        self, request: AuthenticatedHttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        for tournament in queryset:
            try:
                services.tournament_cancel(
                    tournament=tournament,
                    staff_user=request.user,
                    reason=f"Cancelled by staff ({request.user}) in the admin",
                )
            except ValueError as exc:
                self.message_user(request, f"{tournament}: {exc}", messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: cancelled, entries refunded.")
