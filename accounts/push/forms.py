"""The page's JSON about a push subscription, read declaratively: the view hands the decoded
object's fields to these forms, which accept text only (a nested object or a number where text
belongs is refused) and check each value's shape."""

from __future__ import annotations

import base64
import binascii
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .models import PushKind

# The longest request body the subscribe and unsubscribe endpoints read (a subscription's JSON
# is about 400 characters; an endpoint may be up to 2,048).
MAX_BODY_BYTES = 4096


def b64url_decode(text: str) -> bytes | None:
    """Base64url without padding (the Push API's encoding of keys), or ``None``."""
    if not text or any(c not in _B64URL for c in text):
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class TextField(forms.CharField):
    """Text from JSON: a value that is not a string (an object, a list, a number) is refused."""

    default_error_messages = {"not_text": _("Expected text.")}

    def to_python(self, value: Any) -> str:
        if value is not None and not isinstance(value, str):
            raise ValidationError(self.error_messages["not_text"], code="not_text")
        return str(super().to_python(value))


def _endpoint_allowed(url: str) -> bool:
    """Only push services' URLs (``PUSH_ENDPOINT_HOSTS``, a host or a parent domain), over
    https unless ``PUSH_ENDPOINT_HTTP`` allows plain http (tests): the server posts to it, so
    it may not name a host of the site's own network."""
    parts = urlsplit(url)
    if parts.scheme != "https" and not (parts.scheme == "http" and settings.PUSH_ENDPOINT_HTTP):
        return False
    host = (parts.hostname or "").lower()
    return any(host == h or host.endswith("." + h) for h in settings.PUSH_ENDPOINT_HOSTS)


class EndpointForm(forms.Form):
    endpoint = TextField(max_length=2048)

    def clean_endpoint(self) -> str:
        url = str(self.cleaned_data["endpoint"])
        try:
            forms.URLField(assume_scheme="https").clean(url)
        except ValidationError:
            raise ValidationError(_("The endpoint is not a web address."), code="url") from None
        if not _endpoint_allowed(url):
            raise ValidationError(_("The endpoint is not a known push service."), code="host")
        return url


class SubscriptionForm(EndpointForm):
    """``PushSubscription.toJSON()``: the endpoint and the keys ``p256dh`` (the browser's P-256
    public key, 65 bytes) and ``auth`` (its 16-byte secret), both base64url."""

    p256dh = TextField(max_length=128)
    auth = TextField(max_length=64)

    def clean_p256dh(self) -> str:
        text = str(self.cleaned_data["p256dh"])
        raw = b64url_decode(text)
        try:
            valid = raw is not None and len(raw) == 65
            if valid:
                ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw or b"")
        except ValueError:
            valid = False
        if not valid:
            raise ValidationError(_("The browser's key is not a valid key."), code="key")
        return text

    def clean_auth(self) -> str:
        text = str(self.cleaned_data["auth"])
        raw = b64url_decode(text)
        if raw is None or len(raw) != 16:
            raise ValidationError(_("The browser's secret is not valid."), code="auth")
        return text


class PreferencesForm(forms.Form):
    """The kinds of notice, on the profile page: a box ticked is a kind wanted."""

    tournament_starting = forms.BooleanField(
        required=False, label=PushKind.TOURNAMENT_STARTING.label
    )
    your_turn = forms.BooleanField(required=False, label=PushKind.YOUR_TURN.label)
    friend_invite = forms.BooleanField(required=False, label=PushKind.FRIEND_INVITE.label)
    friend_request = forms.BooleanField(required=False, label=PushKind.FRIEND_REQUEST.label)
