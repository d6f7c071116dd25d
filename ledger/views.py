"""The player's wallet page: balances per currency, a paginated statement, the daily practice
chips and (while money games are on) the cashier: deposits and withdrawals with their status."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import selectors, services
from .currencies import CURRENCY_INFO, CURRENCY_ORDER, currencies_shown, money_games_on
from .errors import LedgerError
from .forms import RupeesForm
from .http import AuthenticatedHttpRequest
from .payments.selectors import deposits_context, withdrawals_for_player

STATEMENT_PAGE_SIZE = 25


@login_required
def wallet(request: AuthenticatedHttpRequest) -> HttpResponse:
    money = money_games_on()
    shown = currencies_shown()
    # Money games off: a player who still owns cash (or has a withdrawal under way) sees it and
    # may withdraw it; nothing can be deposited.
    owns_cash = not money and (
        selectors.wallet_balance(user=request.user, currency="cash") > 0
        or withdrawals_for_player(user=request.user).exists()
    )
    if owns_cash:
        shown = CURRENCY_ORDER
    currency = request.GET.get("currency", shown[0])
    if currency not in shown:
        currency = shown[0]
    balances = [
        b for b in selectors.wallet_balances_for_header(user=request.user) if b["currency"] in shown
    ]
    statement = selectors.wallet_statement(user=request.user, currency=currency)
    page = Paginator(statement, STATEMENT_PAGE_SIZE).get_page(request.GET.get("page"))
    practice = next(b for b in balances if b["currency"] == "practice")
    policy = services.practice_policy()
    cashier = (money or owns_cash) and currency == "cash"
    context = {
        "balances": balances,
        "currency": currency,
        "currency_label": CURRENCY_INFO[currency].label,  # lazy: in the viewer's language
        "page_obj": page,
        "can_top_up": practice["amount"] < policy.balance_cap,
        "practice": selectors.practice_chips_summary(user=request.user),
        "topup_amount": selectors.format_amount(policy.daily_amount, "practice"),
        "cashier": cashier,
        "deposit_form": RupeesForm(auto_id="deposit_%s") if cashier and money else None,
        "withdraw_form": RupeesForm(auto_id="withdraw_%s") if cashier else None,
        **(deposits_context(user=request.user) if cashier else {}),
        "withdrawals": withdrawals_for_player(user=request.user) if cashier else [],
    }
    return render(request, "ledger/wallet.html", context)


@login_required
@require_POST
def practice_topup(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The daily free practice chips (once a day, below the staff's cap; race-safe)."""
    try:
        tx = services.practice_chips_top_up_daily(user=request.user)
    except LedgerError as error:
        messages.error(request, error.message)
    else:
        amount = sum(e.amount for e in tx.entries.all() if e.account.user_id == request.user.pk)
        messages.success(
            request,
            _("%(amount)s added.") % {"amount": selectors.format_amount(amount, "practice")},
        )
    return redirect(f"{reverse('wallet')}?currency=practice")
