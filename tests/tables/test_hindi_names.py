"""Hindi in the lobby (issue 22, point 8): templates have a Hindi display name (admin-editable,
filled by the presets and for the existing templates), the lobby's columns have different
headings, and "1 seated" is singular."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import translation
from tables_testkit import fund

from tables import services
from tables.models import TableTemplate
from tables.staff.presets import preset_by_key

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _default_language_afterwards():
    yield
    translation.activate("en")


def _lobby(client: Client) -> str:
    return client.get(reverse("lobby")).content.decode()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_the_lobby_reads_the_hindi_name_and_distinct_headings(
    template_factory: Callable[..., TableTemplate], user_factory: Callable[..., Any]
) -> None:
    template = template_factory(name="Evening Pool", name_hi="शाम का पूल")
    player = user_factory(language="hi")
    fund_user = user_factory()
    fund(fund_user, 100_000)
    services.template_play_now(template=template, user=fund_user)
    client = Client()
    client.force_login(player)
    html = _lobby(client)
    row = html[html.index(f'data-template-id="{template.pk}"') :].split("</tr>", 1)[0]
    assert "शाम का पूल" in row and "Evening Pool" not in row
    assert "1 बैठा है" in _text(row)  # one player: the singular
    headings = re.findall(r'<th scope="col">([^<]*)</th>', html)
    assert len(headings) == len(set(headings)), headings
    assert "चल रहे खेल" in headings and "गेम" in headings
    english = Client()
    english.force_login(fund_user)
    assert "Evening Pool" in _lobby(english)


def test_two_seated_is_plural_in_hindi(
    template_factory: Callable[..., TableTemplate], user_factory: Callable[..., Any]
) -> None:
    template = template_factory(name="Evening Pool", seats_max=3)
    for _ in range(2):
        user = user_factory()
        fund(user, 100_000)
        services.template_play_now(template=template, user=user)
    client = Client()
    client.force_login(user_factory(language="hi"))
    html = _lobby(client)
    row = html[html.index(f'data-template-id="{template.pk}"') :].split("</tr>", 1)[0]
    assert "2 बैठे हैं" in _text(row)


def test_presets_and_existing_templates_get_their_hindi_names() -> None:
    preset = preset_by_key("practice-pool101")
    assert preset is not None and preset.fields["name_hi"] == "प्रैक्टिस पूल 101"
    points = preset_by_key("cash-points")
    assert points is not None and points.fields["name_hi"] == "पॉइंट्स"
    old = TableTemplate.objects.create(name="Practice Pool 101", variant="pool101")
    own = TableTemplate.objects.create(name="Pool 201", variant="pool201", name_hi="मेरा पूल")
    migration = importlib.import_module("tables.migrations.0005_phone_hindi_names_admin_words")
    migration.fill_hindi_names(apps, None)
    old.refresh_from_db()
    own.refresh_from_db()
    assert old.name_hi == "प्रैक्टिस पूल 101"
    assert own.name_hi == "मेरा पूल"  # what staff typed is kept


def test_staff_edit_the_hindi_name_in_the_admin(client: Client, user_factory) -> None:
    client.force_login(user_factory(is_staff=True, is_superuser=True))
    add = client.get(reverse("admin:tables_tabletemplate_add") + "?preset=practice-points")
    html = add.content.decode()
    assert 'name="name_hi"' in html and "Hindi name" in html
    assert 'value="प्रैक्टिस पॉइंट्स"' in html
