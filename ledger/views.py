"""The player's wallet page: balances per currency and a paginated statement."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from . import selectors, services
from .currencies import CURRENCY_INFO, CURRENCY_ORDER
from .errors import LedgerError
from .models import AccountKind, Transaction, TransactionKind

STATEMENT_PAGE_SIZE = 25


def practice_topup_amount() -> int:
    return int(getattr(settings, "LEDGER_PRACTICE_TOPUP_AMOUNT", 10_000))


def practice_topup_below() -> int:
    return int(getattr(settings, "LEDGER_PRACTICE_TOPUP_BELOW", 1_000))


@login_required
def wallet(request: HttpRequest) -> HttpResponse:
    currency = request.GET.get("currency", CURRENCY_ORDER[0])
    if currency not in CURRENCY_INFO:
        currency = CURRENCY_ORDER[0]
    balances = selectors.wallet_balances_for_header(user=request.user)
    statement = selectors.wallet_statement(user=request.user, currency=currency)
    page = Paginator(statement, STATEMENT_PAGE_SIZE).get_page(request.GET.get("page"))
    practice = next(b for b in balances if b["currency"] == "practice")
    context = {
        "balances": balances,
        "currency": currency,
        "currency_label": CURRENCY_INFO[currency].label,
        "page_obj": page,
        "can_top_up": practice["amount"] < practice_topup_below(),
        "topup_amount": selectors.format_amount(practice_topup_amount(), "practice"),
    }
    return render(request, "ledger/wallet.html", context)


@login_required
@require_POST
def practice_topup(request: HttpRequest) -> HttpResponse:
    """Free practice chips when the practice wallet runs low. The key counts earlier top-ups,
    so a double submit posts once."""
    user = request.user
    balance = selectors.wallet_balance(user=user, currency="practice")
    if balance >= practice_topup_below():
        messages.error(request, "Practice chips are topped up only when you are running low.")
        return redirect(f"{reverse('wallet')}?currency=practice")
    done = Transaction.objects.filter(
        kind=TransactionKind.DEPOSIT,
        currency="practice",
        entries__account__kind=AccountKind.WALLET,
        entries__account__user=user,
    ).count()
    try:
        services.wallet_deposit(
            user=user,
            currency="practice",
            amount=practice_topup_amount(),
            idempotency_key=f"topup:practice:user:{user.pk}:{done + 1}",
            memo="Practice chips top-up",
        )
    except LedgerError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            f"{selectors.format_amount(practice_topup_amount(), 'practice')} added.",
        )
    return redirect(f"{reverse('wallet')}?currency=practice")
