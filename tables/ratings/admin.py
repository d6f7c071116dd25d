"""Admin of the ratings: each player's rating per family with its history (the append-only
changes, read only), and a "reset rating" action that asks for a reason. The reason is kept in
the reset's change row (with the staff member) and in the admin's log of staff actions (the
rating's History page, ``django.contrib.admin.models.LogEntry``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from accounts.http import AuthenticatedHttpRequest
from ledger.read_only_admin import ReadOnlyAdmin, ReadOnlyInline
from tables.ratings import services, skill
from tables.ratings.models import GameRating, Rating, RatingChange
from tables.staff.reasons import ask_reason


class RatingChangeInline(ReadOnlyInline[RatingChange, Rating]):
    model = RatingChange
    fk_name = "rating"
    fields = (
        "at",
        "game",
        "place",
        "shown",
        "mu_before",
        "mu_after",
        "sigma_after",
        "reason",
        "staff",
    )
    readonly_fields = fields
    ordering = ("-at", "-id")
    max_num = 0

    def get_queryset(self, request: HttpRequest) -> QuerySet[RatingChange]:
        return super().get_queryset(request).select_related("game", "staff")

    @admin.display(description="rating shown")
    def shown(self, obj: RatingChange) -> str:
        return f"{skill.display(obj.mu_before)} -> {skill.display(obj.mu_after)}"


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin[Rating]):
    list_display = ("user", "family", "shown", "mu", "sigma", "games", "updated_at")
    list_select_related = ("user",)
    list_filter = ("family",)
    search_fields = ("user__username", "user__display_name")
    fields = ("user", "family", "shown", "mu", "sigma", "games", "updated_at")
    readonly_fields = fields
    inlines = [RatingChangeInline]
    actions = ["reset_rating"]

    @admin.display(description="rating shown")
    def shown(self, obj: Rating) -> int:
        return skill.display(obj.mu)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Reset the rating (asks for a reason)")
    def reset_rating(
        self, request: AuthenticatedHttpRequest, queryset: QuerySet[Rating]
    ) -> HttpResponse | None:
        ratings = list(queryset.select_related("user").order_by("pk"))
        reason = ask_reason(
            self,
            request,
            ratings,
            action="reset_rating",
            title="Reset ratings",
            intro="Each rating goes back to a new player's (provisional again). Its history is "
            "kept; the reason is written to the rating's history and to the admin's log of staff "
            "actions.",
            label="Reason (kept in the history and the staff log):",
            button="Reset the ratings",
            max_length=services.REASON_MAX,
        )
        if isinstance(reason, HttpResponse):
            return reason
        for rating in ratings:
            try:
                services.rating_reset(rating=rating, staff_user=request.user, reason=reason)
            except services.RatingError as exc:
                self.message_user(request, f"{rating}: {exc}", messages.ERROR)
                continue
            self.log_change(request, rating, f"Rating reset. Reason: {reason}")
        self.message_user(request, f"{len(ratings)} rating(s) reset.", messages.SUCCESS)
        return None


@admin.register(GameRating)
class GameRatingAdmin(ReadOnlyAdmin[GameRating]):
    list_display = ("game", "family", "outcome", "why", "at")
    list_filter = ("family", "outcome", "why")
    fields = ("game", "family", "outcome", "why", "at")
    readonly_fields = fields
