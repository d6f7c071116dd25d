from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from . import live, services
from .forms import AdminLoginForm
from .models import DepositLimit, SelfExclusion, User
from .selectors import self_exclusion_active

# The admin's log-in checks the length of what is typed before authenticating (see the form).
admin.site.login_form = AdminLoginForm


class _History(admin.TabularInline[Any, User]):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class DepositLimitInline(_History):
    model = DepositLimit
    fields = readonly_fields = ("period", "amount_rupees", "set_at", "effective_at")

    @admin.display(description="limit")
    def amount_rupees(self, obj: DepositLimit) -> str:
        return "no limit" if obj.amount is None else f"₹{obj.amount / 100:,.2f}"


class SelfExclusionInline(_History):
    model = SelfExclusion
    fields = readonly_fields = ("period", "started_at", "ends_at")


@admin.register(User)
class UserAdmin(BaseUserAdmin[User]):
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Table", {"fields": ("display_name",)}),
        (
            "Responsible play",
            {
                "fields": (
                    "age_confirmed_at",
                    "identity_verified",
                    "identity_verified_at",
                    "self_excluded_until",
                    "money_tools",
                )
            },
        ),
    )
    readonly_fields = (
        "age_confirmed_at",
        "identity_verified_at",
        "self_excluded_until",
        "money_tools",
    )
    inlines = (DepositLimitInline, SelfExclusionInline)
    list_display = (
        "username",
        "display_name",
        "email",
        "identity_verified",
        "self_excluded_until",
        "is_staff",
        "is_active",
        "date_joined",
    )
    list_filter = (*BaseUserAdmin.list_filter, "identity_verified")
    search_fields = ("username", "display_name", "email")
    actions = ("mark_identity_verified", "credit_or_debit")

    @admin.display(description="self-excluded until")
    def self_excluded_until(self, obj: User) -> str:
        exclusion = self_exclusion_active(user=obj)
        return f"{timezone.localtime(exclusion.ends_at):%d %b %Y %H:%M}" if exclusion else "-"

    @admin.display(description="money")
    def money_tools(self, obj: User) -> str:
        if obj.pk is None:
            return "-"
        url = reverse("admin:ledger_account_adjust_player")
        return format_html(
            '<a href="{}?user={}&currency=cash">credit or debit cash</a> · '
            '<a href="{}?user={}&currency=practice">practice chips</a> · '
            '<a href="{}?user__id__exact={}">withdrawals</a>',
            url,
            obj.pk,
            url,
            obj.pk,
            reverse("admin:ledger_withdrawal_changelist"),
            obj.pk,
        )

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        if "identity_verified" in form.changed_data:
            obj.identity_verified_at = timezone.now() if obj.identity_verified else None
        super().save_model(request, obj, form, change)
        if change and "is_active" in form.changed_data and not obj.is_active:
            live.user_sockets_end(user_id=obj.pk)  # a closed account plays on no open socket

    @admin.action(description="Mark the identity of the selected players as verified")
    def mark_identity_verified(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset.filter(identity_verified=False):
            services.user_identity_set(user=user, verified=True)
        self.message_user(request, "Identity marked verified.", messages.SUCCESS)

    @admin.action(description="Credit or debit the selected player (with a reason)")
    def credit_or_debit(self, request: HttpRequest, queryset: QuerySet[User]) -> Any:
        if queryset.count() != 1:
            self.message_user(request, "Select exactly one player.", messages.ERROR)
            return None
        url = reverse("admin:ledger_account_adjust_player")
        return HttpResponseRedirect(f"{url}?user={queryset.get().pk}&currency=cash")
