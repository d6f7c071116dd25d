"""Log-in throttling glue for django-axes: which address a request comes from, and the page a
locked-out log-in gets (the log-in page with the reason in words)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .forms import LoginForm


def client_ip(request: HttpRequest) -> str:
    """The peer address, or with ``TRUSTED_PROXY_COUNT`` proxies in front, the address the
    outermost trusted proxy saw (X-Forwarded-For, counted from the right)."""
    peer = str(request.META.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0))
    if proxies <= 0:
        return peer
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [h for h in hops if h]
    if len(hops) < proxies:
        return peer
    return hops[-proxies][:64]


def _minutes(seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    return "1 minute" if minutes == 1 else f"{minutes} minutes"


def lockout_message() -> str:
    cooloff = settings.AXES_COOLOFF_TIME
    wait = _minutes(cooloff.total_seconds()) if cooloff else "a while"
    return (
        f"Too many wrong passwords for this account from your address, so logging in is paused "
        f"for {wait}. Try again later, or ask support to unlock your account."
    )


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
