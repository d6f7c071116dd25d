"""DEBUG is off unless DJANGO_DEBUG=1, and every error answers with the site's own page, which
reveals nothing about the inside (no traceback, no settings, no URL list)."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.live_server import running_daphne, server_env

ROOT = Path(__file__).resolve().parents[2]
LEAKS = ("Traceback", "DATABASE", "URLconf", "SECRET_KEY", "settings.py", "DEBUG = True")


def _debug_setting(**env_overrides: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_DEBUG"}
    env.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", **env_overrides)
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings;"
         " print(settings.DEBUG)"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_debug_is_off_unless_asked_for():
    assert _debug_setting() == "False"
    assert _debug_setting(DJANGO_DEBUG="1") == "True"


def _assert_friendly(response, status: int, words: str) -> None:
    assert response.status_code == status
    body = response.content.decode()
    assert "♠ Rummy" in body  # the site's layout
    assert words in body
    for leak in LEAKS:
        assert leak not in body


@pytest.mark.django_db
def test_not_found_is_the_site_page(client):
    _assert_friendly(client.get("/no/such/page/"), 404, "This page does not exist")


@pytest.mark.django_db
def test_forbidden_is_the_site_page(client, player):
    client.force_login(player)
    _assert_friendly(client.get(reverse("support_deals")), 403, "You are not allowed")


@pytest.mark.django_db
def test_a_forged_form_without_csrf_token_is_the_site_page(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    _assert_friendly(client.post(reverse("profile"), {}), 403, "Your form expired")


@pytest.mark.django_db
def test_a_bad_host_is_the_site_400_page(client):
    _assert_friendly(client.get("/", HTTP_HOST="evil.example"), 400, "could not be understood")


def test_the_500_page_renders_without_database_or_request(rf):
    from django.views.defaults import server_error

    # No database marker: the page must not touch it (and the test fails if it does).
    _assert_friendly(server_error(rf.get("/")), 500, "Something went wrong on our side")


def test_the_default_run_serves_no_debug_page(transactional_db):
    """The README's default run (no DJANGO_DEBUG) under daphne: a 404 is the site's page."""
    env = server_env()
    env.pop("DJANGO_DEBUG", None)
    with running_daphne(env) as base:
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(f"{base}/no/such/page/", timeout=30)
        body = caught.value.read().decode()
    assert caught.value.code == 404
    assert "This page does not exist" in body
    for leak in LEAKS:
        assert leak not in body
