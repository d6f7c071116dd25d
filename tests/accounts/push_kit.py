"""A push service for the tests: an HTTP server on 127.0.0.1 that checks each request as a
real push service does (the VAPID JWT's ES256 signature against the site's public key, its
audience and expiry) and decrypts the aes128gcm payload with the subscription's own private
key, as the browser would; and a browser's subscription keys (an ECDH P-256 pair and a 16-byte
auth secret)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class BrowserKeys:
    """What a browser holds for one subscription: its ECDH private key and auth secret."""

    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)


@dataclass
class Received:
    path: str
    vapid_ok: bool
    claims: dict[str, Any]
    payload: dict[str, Any] | None
    headers: dict[str, str]


def vapid_check(authorization: str, public_key: str, audience: str) -> tuple[bool, dict[str, Any]]:
    """RFC 8292: ``vapid t=<JWT>, k=<public key>``; the JWT signed ES256 by the site's key."""
    if not authorization.startswith("vapid "):
        return False, {}
    parts = dict(item.strip().split("=", 1) for item in authorization[len("vapid ") :].split(","))
    token, key = parts.get("t", ""), parts.get("k", "")
    if key != public_key:
        return False, {}
    header_b64, claims_b64, signature_b64 = token.split(".")
    header = json.loads(unb64url(header_b64))
    claims = json.loads(unb64url(claims_b64))
    signature = unb64url(signature_b64)
    verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    try:
        verifier.verify(
            encode_dss_signature(
                int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
            ),
            f"{header_b64}.{claims_b64}".encode(),
            ec.ECDSA(hashes.SHA256()),
        )
    except InvalidSignature:
        return False, claims
    ok = (
        header.get("alg") == "ES256"
        and claims.get("aud") == audience
        and int(claims.get("exp", 0)) > time.time()
        and str(claims.get("sub", "")).startswith(("mailto:", "https:"))
    )
    return ok, claims


class PushService:
    """``with PushService(public_key) as service:`` ``service.endpoint(name)`` is a
    subscription's URL; ``service.keys[name]`` the browser's keys for it (register them before
    a push arrives); ``service.received`` what came; ``service.status`` the answer (201)."""

    def __init__(self, public_key: str) -> None:
        self.public_key = public_key
        self.keys: dict[str, BrowserKeys] = {}
        self.received: list[Received] = []
        self.status = 201
        self.arrived = threading.Event()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                audience = f"http://127.0.0.1:{service.port}"
                ok, claims = vapid_check(
                    self.headers.get("Authorization", ""), service.public_key, audience
                )
                name = self.path.rsplit("/", 1)[-1]
                keys = service.keys.get(name)
                payload = None
                if keys is not None and self.headers.get("Content-Encoding") == "aes128gcm":
                    plain = http_ece.decrypt(
                        body,
                        private_key=keys.private,
                        auth_secret=keys.auth_secret,
                        version="aes128gcm",
                    )
                    payload = json.loads(plain.decode("utf-8"))
                service.received.append(
                    Received(
                        self.path,
                        ok,
                        claims,
                        payload,
                        {k.lower(): v for k, v in self.headers.items()},
                    )
                )
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                service.arrived.set()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def endpoint(self, name: str) -> str:
        self.keys.setdefault(name, BrowserKeys())
        return f"http://127.0.0.1:{self.port}/push/{name}"

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def deliveries_finish(timeout: float = 15.0) -> None:
    """Wait for the notices queued on the embedded default (no Celery worker: a thread each,
    ``accounts.push.services.DELIVERY_THREAD``) to be delivered."""
    from accounts.push.services import DELIVERY_THREAD

    deadline = time.monotonic() + timeout
    for thread in threading.enumerate():
        if thread.name.startswith(DELIVERY_THREAD):
            thread.join(max(0.0, deadline - time.monotonic()))
            assert not thread.is_alive(), "a push delivery did not finish"


def push_service_running(settings: Any) -> Iterator[PushService]:
    """For a fixture (``yield from``): the site configured with a fresh VAPID key pair,
    taking plain-http endpoints on 127.0.0.1 (the test's push service), delivering from
    threads (no Celery worker)."""
    from accounts.push.management.commands.make_vapid_keys import vapid_keys_new

    public, private = vapid_keys_new()
    settings.VAPID_PUBLIC_KEY = public
    settings.VAPID_PRIVATE_KEY = private
    settings.VAPID_SUBJECT = "mailto:support@example.com"
    settings.PUSH_ENDPOINT_HTTP = True
    settings.PUSH_ENDPOINT_HOSTS = ["127.0.0.1"]
    settings.TIMERS_BACKEND = "loop"
    with PushService(public) as service:
        yield service
    deliveries_finish()


def subscribe(service: PushService, user: Any, name: str) -> Any:
    """``user``'s browser ``name`` subscribed at the test's push service."""
    from accounts.push.services import push_subscription_save

    endpoint = service.endpoint(name)
    keys = service.keys[name]
    return push_subscription_save(user=user, endpoint=endpoint, p256dh=keys.p256dh, auth=keys.auth)
