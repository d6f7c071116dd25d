"""A NUL character in any address or form is refused with a 400 (or a 404) and changes
nothing: PostgreSQL text cannot hold one, so before the guard it was a 500 there."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver


def _routes(patterns: list[Any], prefix: str = "") -> list[str]:
    """Every URL pattern of the site as a path, each parameter filled with a NUL (a number
    where the converter takes numbers only)."""
    out: list[str] = []
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            out += _routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            out.append(route)
    return out


def _filled(route: str) -> str:
    route = route.lstrip("^").rstrip("$").replace("\\Z", "")
    route = re.sub(r"<int:\w+>", "1", route)
    route = re.sub(r"<(?:\w+:)?\w+>", "%00", route)
    route = re.sub(r"\(\?P<\w+>[^)]*\)", "%00", route)
    return "/" + route.replace("\\", "")


@pytest.fixture
def staff_client(client: Any, user_factory: Any) -> Any:
    client.force_login(user_factory(is_staff=True, is_superuser=True))
    return client


def test_every_address_with_a_nul_is_refused_not_a_crash(staff_client: Any) -> None:
    routes = _routes(get_resolver().url_patterns)
    assert len(routes) > 40
    seen = 0
    for route in routes:
        path = _filled(route)
        for url in (path + ("" if "%00" in path else "%00/"), path + "?q=%00&page=%00"):
            response = staff_client.get(url)
            assert response.status_code in (400, 404), (url, response.status_code)
            seen += 1
    assert seen == 2 * len(routes)


def test_the_shared_deal_address_with_a_nul_is_a_400(client: Any) -> None:
    assert client.get("/shared/%00/").status_code == 400


def test_a_form_field_with_a_nul_is_refused_and_changes_nothing(client: Any, player: Any) -> None:
    client.force_login(player)
    before = player.display_name
    response = client.post("/accounts/profile/", {"display_name": "Asha\x00"})
    assert response.status_code == 400
    player.refresh_from_db()
    assert player.display_name == before
    login = client.post("/accounts/login/", {"username": "x\x00", "password": "y"})
    assert login.status_code == 400
