"""Read-only admin of the ledger, with the two staff tools that write through the services:
a wallet adjustment (``ledger.adjust_wallet``) and a transaction reversal
(``ledger.reverse_transaction``, given to the support role). Each needs a reason."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from . import services
from .admin_pages import form_page, one_selected_page
from .currencies import format_amount
from .errors import LedgerError
from .forms import AdjustmentForm, ReversalForm
from .http import AuthenticatedHttpRequest
from .models import Account, AccountKind, Entry, Transaction
from .payments.admin import adjust_player_view  # registers the cashier's admin too
from .read_only_admin import ReadOnlyAdmin, ReadOnlyInline
from .selectors import transaction_is_reversible


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin[Account]):
    list_display = ("id", "kind", "currency", "owner", "balance_shown", "closed_at", "tools")
    list_filter = ("kind", "currency")
    search_fields = ("user__username", "user__display_name", "ref")
    list_select_related = ("user",)
    readonly_fields = (
        "kind",
        "currency",
        "user",
        "ref",
        "balance_shown",
        "closed_at",
        "created_at",
    )
    fields = readonly_fields
    actions = ("adjust_selected",)

    @admin.display(description="owner")
    def owner(self, obj: Account) -> str:
        return str(obj.user) if obj.user_id else (obj.ref or "house")

    @admin.display(description="balance", ordering="balance")
    def balance_shown(self, obj: Account) -> str:
        return format_amount(obj.balance, obj.currency)

    @admin.display(description="")
    def tools(self, obj: Account) -> str:
        links = [
            format_html(
                '<a href="{}?q={}">transactions</a>',
                reverse("admin:ledger_transaction_changelist"),
                obj.user.username if obj.user is not None else obj.ref,
            )
        ]
        if obj.kind == AccountKind.WALLET:
            links.append(
                format_html(
                    '<a href="{}">adjust</a>', reverse("admin:ledger_account_adjust", args=[obj.pk])
                )
            )
        return format_html(" · ".join(["{}"] * len(links)), *links)

    def get_urls(self) -> list[URLPattern]:
        custom = [
            path(
                "<int:pk>/adjust/",
                self.admin_site.admin_view(self.adjust_view),
                name="ledger_account_adjust",
            ),
            path(
                "adjust-player/",
                self.admin_site.admin_view(
                    lambda request: adjust_player_view(self.admin_site, request)
                ),
                name="ledger_account_adjust_player",
            ),
        ]
        return custom + super().get_urls()

    @admin.action(description="Adjust the selected wallet (credit or debit, with a reason)")
    def adjust_selected(self, request: HttpRequest, queryset: QuerySet[Account]) -> Any:
        if queryset.exclude(kind=AccountKind.WALLET).exists():
            queryset = queryset.none()
        return one_selected_page(
            self, request, queryset, what="player wallet", url_name="admin:ledger_account_adjust"
        )

    def adjust_view(self, request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
        if not request.user.has_perm("ledger.adjust_wallet"):
            raise PermissionDenied
        account = get_object_or_404(Account.objects.select_related("user"), pk=pk)
        if account.kind != AccountKind.WALLET or account.user is None:
            raise PermissionDenied
        form = AdjustmentForm(request.POST or None, currency=account.currency)
        if request.method == "POST" and form.is_valid():
            try:
                tx = services.wallet_adjust(
                    user=account.user,
                    currency=account.currency,
                    amount=form.cleaned_data["amount"],
                    reason=form.cleaned_data["reason"],
                    staff_user=request.user,
                    idempotency_key=f"adjust:account:{account.pk}:{form.cleaned_data['key']}",
                )
            except LedgerError as error:
                form.add_error(None, error.message)
            else:
                shown = format_amount(form.cleaned_data["amount"], account.currency)
                self.message_user(
                    request,
                    f"Adjusted {account}: {shown} (transaction #{tx.pk}).",
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:ledger_account_changelist"))
        context = {
            "opts": self.model._meta,
            "title": f"Adjust {account}",
            "account": account,
            "balance": format_amount(account.balance, account.currency),
            "form": form,
        }
        return form_page(self.admin_site, request, "ledger/admin/adjust.html", context)


class EntryInline(ReadOnlyInline[Entry, Transaction]):
    model = Entry
    fields = ("account", "amount_shown", "balance_after_shown")
    readonly_fields = fields

    @admin.display(description="amount")
    def amount_shown(self, obj: Entry) -> str:
        return format_amount(obj.amount, obj.currency)

    @admin.display(description="balance after")
    def balance_after_shown(self, obj: Entry) -> str:
        return format_amount(obj.balance_after, obj.currency)


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin[Transaction]):
    list_display = (
        "id",
        "created_at",
        "kind",
        "currency",
        "ref",
        "idempotency_key",
        "staff_user",
        "tools",
    )
    list_filter = ("kind", "currency")
    search_fields = (
        "=id",
        "idempotency_key",
        "ref",
        "memo",
        "entries__account__user__username",
        "entries__account__ref",
    )
    list_select_related = ("staff_user",)
    readonly_fields = (
        "kind",
        "currency",
        "idempotency_key",
        "ref",
        "memo",
        "staff_user",
        "reverses",
        "created_at",
    )
    fields = readonly_fields
    inlines = (EntryInline,)
    actions = ("reverse_selected",)

    @admin.display(description="")
    def tools(self, obj: Transaction) -> str:
        return format_html(
            '<a href="{}">reverse</a>', reverse("admin:ledger_transaction_reverse", args=[obj.pk])
        )

    def get_urls(self) -> list[URLPattern]:
        custom = [
            path(
                "<int:pk>/reverse/",
                self.admin_site.admin_view(self.reverse_view),
                name="ledger_transaction_reverse",
            )
        ]
        return custom + super().get_urls()

    @admin.action(description="Reverse the selected transaction (with a reason)")
    def reverse_selected(self, request: HttpRequest, queryset: QuerySet[Transaction]) -> Any:
        return one_selected_page(
            self, request, queryset, what="transaction", url_name="admin:ledger_transaction_reverse"
        )

    def reverse_view(self, request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
        if not request.user.has_perm("ledger.reverse_transaction"):
            raise PermissionDenied
        tx = get_object_or_404(Transaction, pk=pk)
        entries = list(tx.entries.select_related("account__user").order_by("id"))
        form = ReversalForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                reversal = services.transaction_reverse(
                    transaction=tx,
                    reason=form.cleaned_data["reason"],
                    staff_user=request.user,
                    idempotency_key=f"reverse:tx:{tx.pk}",
                )
            except LedgerError as error:
                form.add_error(None, error.message)
            else:
                self.message_user(
                    request, f"Transaction #{tx.pk} reversed by #{reversal.pk}.", messages.SUCCESS
                )
                return HttpResponseRedirect(
                    reverse("admin:ledger_transaction_change", args=[reversal.pk])
                )
        context = {
            "opts": self.model._meta,
            "title": f"Reverse transaction #{tx.pk}",
            "transaction": tx,
            "entries": entries,
            "reversible": transaction_is_reversible(transaction=tx),
            "form": form,
        }
        return form_page(self.admin_site, request, "ledger/admin/reverse.html", context)
