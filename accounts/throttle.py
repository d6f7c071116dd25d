"""Throttling: which address a request comes from, log-in lockouts (django-axes) and the rate
limits on what is cheap to abuse (django-ratelimit).

**Addresses.** ``client_ip`` is the peer address, unless the peer is one of the configured
``TRUSTED_PROXIES`` (addresses or networks): only then is ``X-Forwarded-For`` read, counted
``TRUSTED_PROXY_COUNT`` hops from the right. A client that talks to the site directly cannot
choose its address by sending the header. With ``TRUSTED_PROXY_SECRET`` set (``deploy/up`` sets
one), the header is read only from a request that also carries the proxy's secret
(``X-Proxy-Secret``, which nginx sets and a client cannot): another process of the proxy's host
that talks to a daphne directly is not trusted either.

**Rate limits.** ``settings.RATE_LIMITS`` names, per URL name (and ``"socket"`` for the table
WebSocket), the methods counted and the limits ``(key, rate)`` with key ``ip`` (the client's
address) or ``user`` (the logged-in player; the address when logged out), e.g.
``("user", "10/m")``. ``RateLimitMiddleware`` checks them before the view with
``django_ratelimit.core.is_ratelimited`` (counters in the cache, ``RATELIMIT_USE_CACHE``) and
answers an exceeded limit with the 429 page; ``socket_connect_limited`` is the same check for
the consumer."""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import is_ratelimited

from .forms import LoginForm


def _networks(values: Iterable[str]) -> list[Any]:
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(str(value).strip(), strict=False))
        except ValueError:
            continue
    return networks


def peer_trusted(peer: str) -> bool:
    """Whether the peer address is one of the configured proxies (``TRUSTED_PROXIES``)."""
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in net for net in _networks(getattr(settings, "TRUSTED_PROXIES", [])))


def proxy_vouched(meta: Mapping[str, str]) -> bool:
    """Whether the request carries the proxy's secret, when one is configured."""
    secret = str(getattr(settings, "TRUSTED_PROXY_SECRET", "") or "")
    if not secret:
        return True
    given = str(meta.get("HTTP_X_PROXY_SECRET", ""))
    return hmac.compare_digest(given.encode(), secret.encode())


def client_ip(request: HttpRequest) -> str:
    """The peer address, or, when the peer is a trusted proxy (and the request carries its
    secret, ``proxy_vouched``) and ``TRUSTED_PROXY_COUNT`` proxies are in front, the address
    the outermost trusted proxy saw (X-Forwarded-For, counted from the right). A forwarded
    header from anyone else is ignored."""
    peer = str(request.META.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0))
    if proxies <= 0 or not peer_trusted(peer) or not proxy_vouched(request.META):
        return peer
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [h for h in hops if h]
    if len(hops) < proxies:
        return peer
    chosen = hops[-proxies][:64]
    try:
        return str(ipaddress.ip_address(chosen))
    except ValueError:
        return peer


def lockout_message() -> str:
    """Why the log-in is refused, in the player's language, with how long the pause lasts
    (``AXES_COOLOFF_TIME``, in whole minutes, at least one)."""
    cooloff = settings.AXES_COOLOFF_TIME
    if not cooloff:
        return _(
            "Too many wrong passwords for this account from your address, so logging in is "
            "paused for a while. Try again later, or ask support to unlock your account."
        )
    minutes = max(1, round(cooloff.total_seconds() / 60))
    return ngettext(
        "Too many wrong passwords for this account from your address, so logging in is "
        "paused for %(count)d minute. Try again later, or ask support to unlock your account.",
        "Too many wrong passwords for this account from your address, so logging in is "
        "paused for %(count)d minutes. Try again later, or ask support to unlock your account.",
        minutes,
    ) % {"count": minutes}


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The log-in page again, without checking the password, with the lockout in words."""
    context = {
        "form": LoginForm(request),
        "locked_message": lockout_message(),
        "next": request.POST.get("next", request.GET.get("next", ""))[:200],
    }
    return render(request, "accounts/login.html", context, status=429)


# --------------------------------------------------------------------------- rate limits


def _key_of(kind: str) -> Callable[[str, Any], str]:
    def key(group: str, request: Any) -> str:
        user = getattr(request, "user", None)
        if kind == "user" and user is not None and user.is_authenticated:
            return f"user:{user.pk}"
        return f"ip:{client_ip(request)}"

    return key


def limited(request: Any, *, group: str) -> bool:
    """Count this request against the limits of ``group`` (``settings.RATE_LIMITS``); True
    when one of them is exceeded."""
    rule = getattr(settings, "RATE_LIMITS", {}).get(group)
    if not rule:
        return False
    methods = rule.get("methods")
    if methods and getattr(request, "method", "GET") not in methods:
        return False
    over = False
    for kind, rate in rule.get("limits", []):
        # Every limit is counted, even after one is exceeded, so none can be skipped past.
        over = (
            is_ratelimited(
                request, group=f"{group}:{kind}", key=_key_of(kind), rate=rate, increment=True
            )
            or over
        )
    return over


def limited_words() -> str:
    return _("Too many tries in a short time: please wait a minute and try again.")


def limited_response(request: HttpRequest) -> HttpResponse:
    """The 429 page: the reason in words, in the player's language."""
    response = render(request, "429.html", {"message": limited_words()}, status=429)
    response["Retry-After"] = "60"
    return response


class RateLimitMiddleware:
    """Checks ``settings.RATE_LIMITS`` for the URL being called, before its view runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        match = getattr(request, "resolver_match", None)
        name = getattr(match, "url_name", None)
        if name and limited(request, group=name):
            return limited_response(request)
        return None


class _ScopeRequest:
    """What the limits read of a WebSocket connection: its user, peer address and headers."""

    method = "GET"

    def __init__(self, scope: Mapping[str, Any]) -> None:
        self.user = scope.get("user")
        client = scope.get("client") or ("", 0)
        self.META: dict[str, str] = {"REMOTE_ADDR": str(client[0] or "")}
        for name, value in scope.get("headers", []):
            if name.lower() == b"x-forwarded-for":
                self.META["HTTP_X_FORWARDED_FOR"] = value.decode("latin-1")
            elif name.lower() == b"x-proxy-secret":
                self.META["HTTP_X_PROXY_SECRET"] = value.decode("latin-1")


def socket_connect_limited(scope: Mapping[str, Any]) -> bool:
    """The ``socket`` limits for a WebSocket connection being opened."""
    return limited(_ScopeRequest(scope), group="socket")
