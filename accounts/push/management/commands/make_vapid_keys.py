"""``manage.py make_vapid_keys``: prints a new VAPID key pair for Web Push, as the settings
take them (docs/push.md). Nothing is stored: put the two lines in the environment."""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def vapid_keys_new() -> tuple[str, str]:
    """A new P-256 key pair: (public key, private key), base64url without padding: the public
    key as the uncompressed point the browser's ``applicationServerKey`` takes, the private
    key as its 32-byte secret number (``py_vapid.Vapid.from_string`` reads it)."""
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    secret = private.private_numbers().private_value.to_bytes(32, "big")
    return _b64url(public), _b64url(secret)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY)."

    def handle(self, *args: Any, **options: Any) -> None:
        public, private = vapid_keys_new()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
