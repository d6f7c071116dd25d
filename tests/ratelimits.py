"""The rate limits' fixed windows, for the tests that count requests up to a limit."""

from __future__ import annotations

import time
from typing import cast


def outside_a_window_edge(*, group: str, key: str, margin_s: int) -> None:
    """django-ratelimit counts in fixed windows whose edges it places by the key
    (``_get_window``): requests that straddle an edge are counted in two windows, and the
    limit would seem to lift. Wait out an edge of ``group``'s limit (``RATE_LIMITS``) that
    falls within the next ``margin_s``."""
    from django.conf import settings
    from django_ratelimit.core import _get_window, _split_rate

    limits = cast("list[tuple[str, str]]", settings.RATE_LIMITS[group]["limits"])
    ((_kind, rate),) = limits
    _count, period_s = _split_rate(rate)
    left = _get_window(key, period_s) - time.time()
    if left < margin_s:
        time.sleep(max(left, 0) + 1)
