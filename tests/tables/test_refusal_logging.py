"""A refusal is an ordinary answer: logged on one line, with no traceback (a 5xx keeps its)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_403_on_a_live_deals_review_is_logged_without_a_traceback(client, seated, caplog):
    t = seated(2)
    deal = t.game().deals.order_by("-number").first()
    client.force_login(t.users[1])
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(reverse("history_deal", args=[deal.pk]))
    assert response.status_code == 403
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert record.status_code == 403 and "Forbidden" in record.getMessage()
    assert record.exc_info is None and not record.exc_text


def test_a_server_error_keeps_its_traceback() -> None:
    from rummy_site.logfilters import RefusalsWithoutTraceback

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys

        exc_info: Any = sys.exc_info()
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "x", (), exc_info)
    record.status_code = 500
    assert RefusalsWithoutTraceback().filter(record) and record.exc_info is exc_info
