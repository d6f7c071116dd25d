"""Admin of the leaderboards for staff: seasons (family, start, length, reward tables, whether
the next opens on its own), tournament points tables (place -> points, one active), season
reward tables (rank -> practice chips), and read-only lists of the season payouts and the
tournament points given. A season saved is counted afresh from the ratings' changes (a start in
the past counts the games already played in it)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import transaction
from django.forms import ModelForm
from django.http import HttpRequest

from ledger.read_only_admin import ReadOnlyAdmin
from tables.leaderboards import services
from tables.leaderboards.models import (
    RewardRow,
    RewardTable,
    Season,
    SeasonPayout,
    TournamentPoints,
    TournamentPointsRow,
    TournamentPointsTable,
)


class TournamentPointsRowInline(admin.TabularInline[TournamentPointsRow, TournamentPointsTable]):
    model = TournamentPointsRow
    extra = 3


@admin.register(TournamentPointsTable)
class TournamentPointsTableAdmin(admin.ModelAdmin[TournamentPointsTable]):
    list_display = ("name", "active", "created_at")
    inlines = [TournamentPointsRowInline]


class RewardRowInline(admin.TabularInline[RewardRow, RewardTable]):
    model = RewardRow
    extra = 3


@admin.register(RewardTable)
class RewardTableAdmin(admin.ModelAdmin[RewardTable]):
    list_display = ("name",)
    inlines = [RewardRowInline]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin[Season]):
    list_display = ("name", "family", "starts_at", "length_days", "ends", "repeats", "closed_at")
    list_filter = ("family", "repeats")
    readonly_fields = ("closed_at", "created_at")
    fields = (
        "name",
        "family",
        "starts_at",
        "length_days",
        "rating_rewards",
        "points_rewards",
        "repeats",
        "closed_at",
        "created_at",
    )

    @admin.display(description="Ends")
    def ends(self, season: Season) -> Any:
        return season.ends_at

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> Any:
        if obj is not None and obj.closed_at is not None:  # paid: its window is history
            return (*self.fields, "ends")
        return self.readonly_fields

    def save_model(
        self, request: HttpRequest, obj: Season, form: ModelForm[Season], change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        season_id = obj.pk
        transaction.on_commit(
            lambda: services.season_standings_rebuild(season=Season.objects.get(pk=season_id))
        )

    def has_delete_permission(self, request: HttpRequest, obj: Season | None = None) -> bool:
        return obj is None or (obj.closed_at is None and not obj.payouts.exists())


@admin.register(SeasonPayout)
class SeasonPayoutAdmin(ReadOnlyAdmin[SeasonPayout]):
    list_display = ("season", "user", "chips", "transaction_id", "at")
    list_filter = ("season",)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("season", "user")
    readonly_fields = ("season", "user", "chips", "detail", "transaction_id", "at")


@admin.register(TournamentPoints)
class TournamentPointsAdmin(ReadOnlyAdmin[TournamentPoints]):
    list_display = ("tournament", "user", "family", "place", "points", "at")
    list_filter = ("family",)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("tournament", "user")
