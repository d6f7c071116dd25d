"""Staff tools of the cashier: deposits (read-only, with their history), withdrawals (approve
= paid out, or reject = returned to the wallet, each with a reason), the practice chips policy,
and crediting or debiting any player (the wallet is created when needed). Registered from
``ledger.admin``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse

from .. import services as ledger_services
from ..admin_pages import form_page, one_selected_page
from ..currencies import CURRENCY_INFO, format_amount
from ..errors import LedgerError
from ..forms import AdjustmentForm
from ..http import AuthenticatedHttpRequest
from ..models import PracticeChipsPolicy
from ..read_only_admin import ReadOnlyAdmin, ReadOnlyInline
from ..selectors import wallet_balance
from . import services
from .models import Deposit, DepositEvent, Withdrawal, WithdrawalEvent, WithdrawalStatus


class DepositEventInline(ReadOnlyInline[DepositEvent, Deposit]):
    model = DepositEvent
    fields = readonly_fields = ("at", "status", "detail")


@admin.register(Deposit)
class DepositAdmin(ReadOnlyAdmin[Deposit]):
    list_display = ("reference", "user", "amount_display", "status", "provider", "created_at")
    list_filter = ("status", "provider")
    search_fields = ("reference", "user__username", "provider_payment_id", "provider_intent_id")
    list_select_related = ("user",)
    readonly_fields = (
        "user",
        "provider",
        "reference",
        "amount_display",
        "status",
        "transaction",
        "checkout_url",
        "provider_payment_id",
        "provider_intent_id",
        "refunded_amount",
        "created_at",
        "updated_at",
    )
    fields = readonly_fields
    inlines = (DepositEventInline,)


class WithdrawalEventInline(ReadOnlyInline[WithdrawalEvent, Withdrawal]):
    model = WithdrawalEvent
    fields = readonly_fields = ("at", "status", "detail", "staff_user")


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[("approve", "Approve: paid out"), ("reject", "Reject: return to the wallet")]
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)

    def clean_reason(self) -> str:
        reason: str = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("A reason is required.")
        return reason


@admin.register(Withdrawal)
class WithdrawalAdmin(ReadOnlyAdmin[Withdrawal]):
    list_display = ("id", "user", "amount_display", "status", "created_at", "decided_by")
    list_filter = ("status",)
    search_fields = ("=id", "user__username")
    list_select_related = ("user", "decided_by")
    readonly_fields = (
        "user",
        "amount_display",
        "status",
        "reason",
        "decided_by",
        "decided_at",
        "created_at",
        "verified",
    )
    fields = readonly_fields
    inlines = (WithdrawalEventInline,)

    @admin.display(description="identity verified")
    def verified(self, obj: Withdrawal) -> bool:
        return bool(getattr(obj.user, "identity_verified", False))

    def get_urls(self) -> list[Any]:
        from django.urls import path

        custom = [
            path(
                "<int:pk>/decide/",
                self.admin_site.admin_view(self.decide_view),
                name="ledger_withdrawal_decide",
            )
        ]
        return custom + super().get_urls()

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        extra = extra_context or {}
        extra["decide_url"] = reverse("admin:ledger_withdrawal_decide", args=[object_id])
        return super().change_view(request, object_id, form_url, extra_context=extra)

    def decide_view(self, request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
        if not request.user.has_perm("ledger.decide_withdrawal"):
            raise PermissionDenied
        withdrawal = get_object_or_404(Withdrawal.objects.select_related("user"), pk=pk)
        form = DecisionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            act = (
                services.withdrawal_approve
                if form.cleaned_data["decision"] == "approve"
                else services.withdrawal_reject
            )
            try:
                decided = act(
                    withdrawal=withdrawal,
                    staff_user=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except LedgerError as error:
                form.add_error(None, error.message)
            else:
                self.message_user(
                    request, f"{decided}: {decided.get_status_display()}.", messages.SUCCESS
                )
                return HttpResponseRedirect(reverse("admin:ledger_withdrawal_changelist"))
        context = {
            "opts": self.model._meta,
            "title": f"Decide {withdrawal}",
            "withdrawal": withdrawal,
            "pending": withdrawal.status == WithdrawalStatus.PENDING,
            "verified": bool(getattr(withdrawal.user, "identity_verified", False)),
            "form": form,
        }
        return form_page(self.admin_site, request, "ledger/admin/decide_withdrawal.html", context)

    actions = ("decide_selected",)

    @admin.action(description="Approve or reject the selected withdrawal (with a reason)")
    def decide_selected(self, request: HttpRequest, queryset: QuerySet[Withdrawal]) -> Any:
        return one_selected_page(
            self, request, queryset, what="withdrawal", url_name="admin:ledger_withdrawal_decide"
        )


@admin.register(PracticeChipsPolicy)
class PracticeChipsPolicyAdmin(admin.ModelAdmin[PracticeChipsPolicy]):
    list_display = ("__str__", "welcome_amount", "daily_amount", "balance_cap", "updated_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not PracticeChipsPolicy.objects.exists() and super().has_add_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PlayerAdjustmentForm(AdjustmentForm):
    """Credit or debit a player by username, in either currency (the wallet is created when
    the player has none yet)."""


def adjust_player_view(
    admin_site: admin.AdminSite, request: AuthenticatedHttpRequest
) -> HttpResponse:
    """``/admin/ledger/account/adjust-player/?user=<id>&currency=cash``: a staff credit or
    debit of any player, with a reason; the ledger creates the wallet when needed."""
    if not request.user.has_perm("ledger.adjust_wallet"):
        raise PermissionDenied
    user_model = get_user_model()
    player = get_object_or_404(user_model, pk=_int(request.GET.get("user")))
    currency = request.GET.get("currency", "cash")
    if currency not in CURRENCY_INFO:
        currency = "cash"
    form = PlayerAdjustmentForm(request.POST or None, currency=currency)
    if request.method == "POST" and form.is_valid():
        try:
            tx = ledger_services.wallet_adjust(
                user=player,
                currency=currency,
                amount=form.cleaned_data["amount"],
                reason=form.cleaned_data["reason"],
                staff_user=request.user,
                idempotency_key=f"adjust:user:{player.pk}:{currency}:{form.cleaned_data['key']}",
            )
        except LedgerError as error:
            form.add_error(None, error.message)
        else:
            shown = format_amount(form.cleaned_data["amount"], currency)
            messages.success(request, f"Adjusted {player} ({currency}): {shown} (#{tx.pk}).")
            return HttpResponseRedirect(reverse("admin:ledger_account_changelist"))
    context = {
        "title": f"Credit or debit {player} ({CURRENCY_INFO[currency].label.lower()})",
        "account": f"The {CURRENCY_INFO[currency].label.lower()} wallet of {player}",
        "balance": format_amount(wallet_balance(user=player, currency=currency), currency),
        "form": form,
        "player": player,
        "currencies": list(CURRENCY_INFO),
    }
    return form_page(admin_site, request, "ledger/admin/adjust.html", context)


def _int(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 0
