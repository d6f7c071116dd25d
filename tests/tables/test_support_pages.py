"""Support's pages: find a deal by player or table, replay it move by move with every hand, and
see the game's ledger transactions. Players cannot open them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from accounts.services import user_add_to_support
from tables.models import Deal


@pytest.fixture
def played(seated: Any, toss: Any) -> Any:
    toss(1)
    t = seated(2)
    t.act(1, "pick_closed")
    card = t.view(1)["hand"]["cards"][0]
    t.act(1, "discard", card=card)
    t.discarded = card
    return t


@pytest.fixture
def support_client(client, user_factory):
    agent = user_factory(username="agent")
    user_add_to_support(user=agent)
    client.force_login(agent)
    return client


def test_support_finds_deals_by_player_and_by_table(support_client, played):
    deal = Deal.objects.get(game=played.game())
    player = played.users[1]
    html = support_client.get(reverse("support_deals"), {"player": player.username}).content
    assert reverse("support_deal", args=[deal.pk]) in html.decode()
    html = support_client.get(reverse("support_deals"), {"table": played.table.name}).content
    assert reverse("support_deal", args=[deal.pk]) in html.decode()
    html = support_client.get(reverse("support_deals"), {"player": "nobody-here"}).content
    assert "No player is called" in html.decode()
    assert reverse("support_deal", args=[deal.pk]) not in html.decode()


def test_a_live_deal_shows_only_its_public_state(support_client, played):
    deal = Deal.objects.get(game=played.game())
    response = support_client.get(reverse("support_deal", args=[deal.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "still being played" in html
    # The players' places in words, not the engine's codes.
    statuses = re.findall(r"<tr><td>[^<]*</td><td>([^<]*)</td>", html)
    assert statuses and all(s.startswith("playing") for s in statuses), statuses
    # Nobody's hidden cards while the deal is live; the review opens when it ends.
    for seat in (1, 2):
        for code in played.view(seat)["hand"]["cards"]:
            assert f'data-code="{code}"' not in html


def test_players_cannot_open_support_pages(client, played):
    client.force_login(played.users[1])
    deal = Deal.objects.get(game=played.game())
    assert client.get(reverse("support_deals")).status_code == 403
    assert client.get(reverse("support_deal", args=[deal.pk])).status_code == 403


def test_an_unknown_deal_is_not_found(support_client, db):
    assert support_client.get(reverse("support_deal", args=[999999])).status_code == 404


def test_the_header_links_support_to_its_pages(support_client):
    html = support_client.get(reverse("lobby")).content.decode()
    assert f'href="{reverse("support_deals")}"' in html
