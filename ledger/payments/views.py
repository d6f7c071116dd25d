"""The cashier's pages: deposit and withdrawal forms (posted from the wallet page), the sandbox
provider's checkout page, and the providers' webhooks. Thin: every write is a service."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ..currencies import money_games_on
from ..errors import LedgerError
from ..forms import RupeesForm
from ..http import AuthenticatedHttpRequest
from . import services
from .models import Deposit, SandboxPayment
from .providers import CallbackRefused
from .sandbox import OUTCOMES, sandbox_checkout_complete
from .selectors import deposits_context

logger = logging.getLogger("ledger.payments")
# A provider's event (Stripe's are a few kilobytes) is never larger than this.
WEBHOOK_MAX_BODY = 65536


def _cash_wallet() -> str:
    return f"{reverse('wallet')}?currency=cash"


def _money_off(request: HttpRequest) -> HttpResponse:
    return HttpResponseForbidden(str(services.MoneyGamesOff()))


def _form_refused(request: HttpRequest, form: RupeesForm) -> HttpResponse:
    for error in form.errors.get("amount", [_("Enter an amount in rupees.")]):
        messages.error(request, str(error))
    response = redirect(_cash_wallet())
    return response


@login_required
@require_POST
def deposit_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    if not money_games_on():
        return _money_off(request)
    form = RupeesForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, form)
    try:
        deposit = services.deposit_start(user=request.user, amount=form.cleaned_data["amount"])
    except LedgerError as error:
        messages.error(request, error.message)
        return redirect(_cash_wallet())
    return redirect(deposit.checkout_url)


@login_required
@require_GET
def deposits_live(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The wallet's deposits list alone (polled while a deposit is pending), with the header
    balance out of band so a credited deposit shows at once."""
    if not money_games_on():
        return _money_off(request)
    context = deposits_context(user=request.user) | {"oob": True}
    return render(request, "ledger/_deposits.html", context)


@login_required
@require_POST
def deposit_cancel(request: AuthenticatedHttpRequest, reference: str) -> HttpResponse:
    if not money_games_on():
        return _money_off(request)
    try:
        deposit = services.deposit_cancel(user=request.user, reference=reference)
    except LedgerError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Deposit of %(amount)s cancelled: nothing was charged or credited.")
            % {"amount": deposit.amount_display},
        )
    return redirect(_cash_wallet())


@login_required
@require_POST
def withdrawal_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    # Open while money games are off too: players take out the cash they own.
    form = RupeesForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, form)
    try:
        withdrawal = services.withdrawal_request(
            user=request.user, amount=form.cleaned_data["amount"]
        )
    except LedgerError as error:
        # "contact support" comes with the link to the contact page (base.html)
        tags = "contact-support" if error.details.get("contact_support") else ""
        messages.error(request, error.message, extra_tags=tags)
    else:
        messages.success(
            request,
            _("Withdrawal of %(amount)s requested: it is held until our staff approve it.")
            % {"amount": withdrawal.amount_display},
        )
    return redirect(_cash_wallet())


@login_required
@require_http_methods(["GET", "POST"])
def sandbox_checkout(request: AuthenticatedHttpRequest, reference: str) -> HttpResponse:
    """The sandbox provider's hosted page (a real gateway serves this on its own site)."""
    deposit = Deposit.objects.filter(reference=reference, provider="sandbox").first()
    payment = SandboxPayment.objects.filter(reference=reference).first()
    if deposit is None or payment is None or deposit.user_id != request.user.pk:
        raise Http404(_("No such checkout."))
    if not money_games_on():
        services.deposit_cancel_money_off(deposit=deposit)
        messages.error(
            request,
            _("Money games are off on this site: this deposit was cancelled and nothing was paid."),
        )
        return redirect(_cash_wallet())
    if request.method == "POST":
        outcome = request.POST.get("outcome", "")
        if outcome not in OUTCOMES:
            return render(
                request,
                "ledger/sandbox_checkout.html",
                {"deposit": deposit, "payment": payment, "error": _("Choose Pay, Fail or Cancel.")},
                status=400,
            )
        sandbox_checkout_complete(reference=reference, outcome=outcome)
        words = {
            "pay": _("Payment sent: your wallet is credited as soon as the provider confirms it."),
            "fail": _("The payment failed: nothing was charged or credited."),
            "cancel": _("The payment was cancelled: nothing was charged or credited."),
        }
        (messages.success if outcome == "pay" else messages.warning)(request, words[outcome])
        return redirect(_cash_wallet())
    return render(request, "ledger/sandbox_checkout.html", {"deposit": deposit, "payment": payment})


@csrf_exempt
@require_POST
def webhook(request: HttpRequest, provider: str) -> HttpResponse:
    """A provider's signed callback (CSRF-exempt: the signature is the proof). 200 when applied
    (or a repeat), 400 when refused; refusals are logged."""
    if len(request.body) > WEBHOOK_MAX_BODY:
        logger.warning("payments: %s callback refused: body too large", provider)
        return HttpResponse("refused: body too large", status=400, content_type="text/plain")
    try:
        deposit = services.deposit_callback_apply(
            provider=provider, body=request.body, headers=request.headers
        )
    except CallbackRefused as error:
        return HttpResponse(f"refused: {error.message}", status=400, content_type="text/plain")
    except LedgerError as error:
        logger.warning("payments: %s callback not applied: %s", provider, error.message)
        return HttpResponse(f"refused: {error.message}", status=400, content_type="text/plain")
    return HttpResponse(
        f"ok {deposit.status}" if deposit is not None else "ok ignored", content_type="text/plain"
    )
