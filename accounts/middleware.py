"""A logged-in player's language and time zone on every request.

``LocaleMiddleware`` (before this) picks the language from the switcher's cookie or the
browser's Accept-Language; a logged-in player who chose a language in the header's switcher
(saved as ``User.language``) gets that one instead, on every device. Times are shown in the
player's ``time_zone`` (``settings.PLAYER_TIME_ZONE_DEFAULT`` until one is chosen)."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

if TYPE_CHECKING:
    from .models import User


def player_language(user: User) -> str:
    """The language a player's pages are rendered in outside a request (pushed table views):
    the saved choice, else the site's default."""
    language = getattr(user, "language", "") or ""
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def player_time_zone(user: User) -> zoneinfo.ZoneInfo:
    name = getattr(user, "time_zone", "") or settings.PLAYER_TIME_ZONE_DEFAULT
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


class PlayerLocaleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = getattr(user, "language", "")
            if language and language in dict(settings.LANGUAGES):
                translation.activate(language)
                request.LANGUAGE_CODE = language
            timezone.activate(player_time_zone(user))
        else:
            timezone.activate(zoneinfo.ZoneInfo(settings.PLAYER_TIME_ZONE_DEFAULT))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
