"""A refusal is one of the project's refusal types (``tables.web.acting.REFUSALS``): the player
reads its words. Any other ValueError is a fault: it is not shown to the player as a reason (the
error page, and the fault is logged), on the page's POST as on the table's socket."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tables import services
from tables.models import TableTemplate
from tables.services import TableRefusal
from tables.web import acting

pytestmark = pytest.mark.django_db


def test_a_refusal_is_worded_and_a_fault_is_not(
    template_factory: Callable[..., TableTemplate],
    players: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    template = template_factory(seats_min=2, seats_max=2)
    client = Client(raise_request_exception=False)
    client.force_login(players[0])
    url = reverse("template_play", args=[template.pk])

    def refused(**kwargs: Any) -> Any:
        raise services.TableClosed(TableRefusal.NOBODY_SEATED)

    monkeypatch.setattr(services, "template_play_now", refused)
    answer = client.post(url, follow=True)
    assert answer.status_code == 200
    assert str(services.TableClosed(TableRefusal.NOBODY_SEATED)) in answer.content.decode()

    def faulty(**kwargs: Any) -> Any:
        raise ValueError("invalid literal for int() with base 10: 'x'")

    monkeypatch.setattr(services, "template_play_now", faulty)
    answer = client.post(url)
    assert answer.status_code == 500
    assert "invalid literal" not in answer.content.decode()


def test_the_refusal_types_are_the_projects_own_and_no_bare_value_error() -> None:
    assert ValueError not in acting.REFUSALS
    assert all(issubclass(kind, ValueError) for kind in acting.REFUSALS)
    refused = acting.refusal_of(services.TableClosed(TableRefusal.NOBODY_SEATED))
    assert refused.status == 400 and refused.code == TableRefusal.NOBODY_SEATED.value
