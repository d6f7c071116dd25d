"""Logging filters of the site (``LOGGING`` in rummy_site/settings.py)."""

from __future__ import annotations

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """A request refused with a 4xx (403 permission denied, 400 bad request, 404) is an
    ordinary answer: Django's ``django.request`` logger still notes it, on one line, without the
    exception's traceback, which is kept for the 5xx that need one."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
