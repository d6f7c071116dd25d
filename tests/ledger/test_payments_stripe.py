"""Stripe Checkout behind the provider interface (issue 21, point 9), through the official
``stripe`` package and without the network: the Checkout Session is created against a local
server that answers with a recorded body (``STRIPE_API_BASE``), and the webhook bodies in
``tests/data/stripe/`` are signed here with the package's own helper
(``stripe.WebhookSignature.generate_signature_header``) and verified by the site with
``stripe.Webhook.construct_event``. Duplicates, events out of order and refunds."""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import stripe
from django.urls import reverse

from ledger import selectors
from ledger.payments import services as payments
from ledger.payments.models import Deposit, DepositStatus

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data" / "stripe"
SECRET = "whsec_test_" + "k" * 32
AMOUNT = 250_000


class _Recorded(BaseHTTPRequestHandler):
    seen: list[dict[str, Any]] = []
    reference = ""

    def do_POST(self) -> None:  # the Stripe API's POST /v1/checkout/sessions
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        _Recorded.seen.append(
            {"path": self.path, "form": form, "auth": self.headers.get("Authorization", "")}
        )
        body = (DATA / "checkout.session.create.response.json").read_text()
        reference = form.get("client_reference_id", [""])[0]
        payload = body.replace("REFERENCE", reference).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self) -> None:  # the Stripe API's GET /v1/checkout/sessions/<id>: paid since
        _Recorded.seen.append({"path": self.path, "form": {}, "auth": ""})
        data = json.loads((DATA / "checkout.session.completed.json").read_text())
        payload = json.dumps(data["data"]["object"]).replace("REFERENCE", _Recorded.reference)
        body = payload.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def stripe_api(settings: Any) -> Iterator[list[dict[str, Any]]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorded)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Recorded.seen = []
    settings.STRIPE_API_BASE = f"http://127.0.0.1:{server.server_address[1]}"
    yield _Recorded.seen
    server.shutdown()


@pytest.fixture(autouse=True)
def _stripe(settings: Any) -> None:
    settings.MONEY_GAMES = True
    settings.PAYMENTS_PROVIDER = "stripe"
    settings.STRIPE_SECRET_KEY = "sk_test_" + "x" * 24
    settings.STRIPE_WEBHOOK_SECRET = SECRET
    settings.CSRF_TRUSTED_ORIGINS = ["https://rummy.example"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _body(name: str, reference: str) -> bytes:
    return (DATA / name).read_text().replace("REFERENCE", reference).encode()


def _send(client: Any, body: bytes, *, secret: str = SECRET, at: int | None = None) -> Any:
    header = stripe.WebhookSignature.generate_signature_header(
        body.decode(), secret, timestamp=at or int(time.time())
    )
    return client.post(
        "/payments/webhook/stripe/",
        body,
        content_type="application/json",
        headers={"Stripe-Signature": header},
    )


@pytest.fixture
def deposit(player: Any, stripe_api: list[dict[str, Any]]) -> Deposit:
    return payments.deposit_start(user=player, amount=AMOUNT)


def test_a_deposit_opens_a_checkout_session_named_by_our_reference(client, player, stripe_api):
    client.force_login(player)
    response = client.post(reverse("wallet_deposit"), {"amount": "2500"})
    deposit = Deposit.objects.get(user=player)
    assert response.status_code == 302
    assert response["Location"].startswith("https://checkout.stripe.com/c/pay/cs_test_")
    assert deposit.provider == "stripe" and deposit.provider_payment_id.startswith("cs_test_")
    (call,) = stripe_api
    assert call["path"] == "/v1/checkout/sessions"
    assert call["auth"] == "Bearer sk_test_" + "x" * 24
    form = call["form"]
    assert form["client_reference_id"] == [deposit.reference]
    assert form["metadata[reference]"] == [deposit.reference]
    assert form["payment_intent_data[metadata][reference]"] == [deposit.reference]
    assert form["line_items[0][price_data][unit_amount]"] == [str(AMOUNT)]
    assert form["line_items[0][price_data][currency]"] == ["inr"]
    assert form["mode"] == ["payment"]
    assert form["success_url"] == ["https://rummy.example/wallet/"]
    # Nothing credited on the way out to the checkout.
    assert selectors.wallet_balance(user=player, currency="cash") == 0


def test_a_signed_completed_event_credits_once_however_often_it_comes(client, player, deposit):
    body = _body("checkout.session.completed.json", deposit.reference)
    first = _send(client, body)
    again = _send(client, body)
    assert first.status_code == 200 and first.content == b"ok paid"
    assert again.status_code == 200
    assert selectors.wallet_balance(user=player, currency="cash") == AMOUNT
    deposit.refresh_from_db()
    assert deposit.status == DepositStatus.PAID
    assert deposit.provider_intent_id == "pi_3TestIntent0001"


def test_out_of_order_an_expiry_before_the_payment_does_not_lose_it(client, player, deposit):
    assert _send(client, _body("checkout.session.expired.json", deposit.reference)).content == (
        b"ok cancelled"
    )
    late = _send(client, _body("checkout.session.async_payment_succeeded.json", deposit.reference))
    assert late.content == b"ok paid"
    after = _send(client, _body("checkout.session.async_payment_failed.json", deposit.reference))
    assert after.content == b"ok paid"  # paid wins
    assert selectors.wallet_balance(user=player, currency="cash") == AMOUNT


def test_an_unpaid_completion_and_other_events_move_nothing(client, player, deposit):
    unpaid = _send(client, _body("checkout.session.completed.unpaid.json", deposit.reference))
    other = _send(client, _body("payment_intent.created.json", deposit.reference))
    assert unpaid.content == b"ok ignored" and other.content == b"ok ignored"
    deposit.refresh_from_db()
    assert deposit.status == DepositStatus.PENDING


@pytest.mark.parametrize(
    "forgery", ["other secret", "stale", "ten minutes ahead", "changed body", "no header"]
)
def test_a_forged_or_stale_event_is_refused_and_credits_nothing(client, player, deposit, forgery):
    body = _body("checkout.session.completed.json", deposit.reference)
    if forgery == "other secret":
        response = _send(client, body, secret="whsec_guess")
    elif forgery == "stale":
        response = _send(client, body, at=int(time.time()) - 3600)
    elif forgery == "ten minutes ahead":  # correctly signed, dated past the tolerance ahead
        response = _send(client, body, at=int(time.time()) + 600)
    elif forgery == "changed body":
        header = stripe.WebhookSignature.generate_signature_header(body.decode(), SECRET)
        forged = body.replace(b"250000", b"990000")
        response = client.post(
            "/payments/webhook/stripe/",
            forged,
            content_type="application/json",
            headers={"Stripe-Signature": header},
        )
    else:
        response = client.post("/payments/webhook/stripe/", body, content_type="application/json")
    assert response.status_code == 400
    assert selectors.wallet_balance(user=player, currency="cash") == 0


def test_a_signed_event_for_another_amount_or_unknown_reference_is_refused(client, deposit):
    body = json.loads(_body("checkout.session.completed.json", deposit.reference))
    body["data"]["object"]["amount_total"] = 1
    assert _send(client, json.dumps(body).encode()).status_code == 400
    unknown = _body("checkout.session.completed.json", "dep_nobody")
    assert _send(client, unknown).status_code == 400


def test_a_refund_is_flagged_for_staff_once_and_debits_nothing(client, player, deposit, caplog):
    refund = _body("charge.refunded.json", deposit.reference)
    early = _send(client, refund)  # before the payment's own event: refused, Stripe resends
    assert early.status_code == 400
    _send(client, _body("checkout.session.completed.json", deposit.reference))
    with caplog.at_level("WARNING", logger="ledger.payments"):
        flagged = _send(client, refund)
        repeated = _send(client, refund)
    assert flagged.status_code == 200 and repeated.status_code == 200
    deposit.refresh_from_db()
    assert deposit.refunded_amount == 100_000 and deposit.status == DepositStatus.PAID
    assert [e.detail for e in deposit.events.all()].count(
        next(e.detail for e in deposit.events.all() if "FLAGGED" in e.detail)
    ) == 1
    assert "refund of" in caplog.text
    assert selectors.wallet_balance(user=player, currency="cash") == AMOUNT


def test_payment_lookup_asks_stripe_for_the_session(deposit, stripe_api):
    """A lost webhook: the provider's ``payment_lookup`` retrieves the Checkout Session."""
    from ledger.payments.providers import provider_get

    _Recorded.reference = deposit.reference
    event = provider_get("stripe").payment_lookup(reference=deposit.reference)
    assert stripe_api[-1]["path"] == f"/v1/checkout/sessions/{deposit.provider_payment_id}"
    assert event is not None and event.status == "paid" and event.amount == AMOUNT
    assert event.reference == deposit.reference and event.intent_id == "pi_3TestIntent0001"
    assert provider_get("stripe").payment_lookup(reference="dep_unknown") is None


def test_a_callback_self_signed_with_the_old_public_sandbox_secret_is_refused(
    client, player, settings
):
    """The sandbox's secret is no longer the public "sandbox-development-secret": a player's
    own signed "paid" callback credits nothing."""
    import hashlib
    import hmac

    from ledger.payments.sandbox import SIGNATURE_HEADER, sandbox_body

    settings.PAYMENTS_PROVIDER = "sandbox"
    deposit = payments.deposit_start(user=player, amount=10_000)
    body = sandbox_body(reference=deposit.reference, status="paid", amount=10_000)
    forged = "sha256=" + hmac.new(b"sandbox-development-secret", body, hashlib.sha256).hexdigest()
    response = client.post(
        "/payments/webhook/sandbox/",
        body,
        content_type="application/json",
        headers={SIGNATURE_HEADER: forged},
    )
    assert response.status_code == 400
    assert selectors.wallet_balance(user=player, currency="cash") == 0
