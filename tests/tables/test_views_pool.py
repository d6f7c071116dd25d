"""Rejoin and split, as a player sees and answers them on the table page."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from tables_testkit import balance, plant, plant_and_play, play

HTMX = {"HTTP_HX_REQUEST": "true"}


def _pool(seated: Any, planter: Any, toss: Any, first: dict[int, int | None]) -> Any:
    toss(1)
    planned = plant(planter, first)
    t = seated(3, variant="pool101")
    play(t, *planned, first)
    return t


def test_an_eliminated_player_is_offered_a_rejoin_and_takes_it(client, seated, planter, toss):
    t = _pool(seated, planter, toss, {1: 0, 2: 34, 3: 61})
    plant_and_play(t, planter, {1: 0, 2: 20, 3: 40})
    assert t.totals()[3] == 101
    out = t.users[3]
    client.force_login(out)
    html = client.get(reverse("table", args=[t.table.pk])).content.decode()
    assert 'id="rejoin-offer"' in html
    assert "restart at 55 points" in html
    assert "act-rejoin" in html
    # Another player sees the offer but no button.
    client.force_login(t.users[2])
    other = client.get(reverse("table", args=[t.table.pk])).content.decode()
    assert 'id="rejoin-offer"' in other and "act-rejoin" not in other
    client.force_login(out)
    before = balance(out)
    response = client.post(
        reverse("table_act", args=[t.table.pk]),
        {"action": "rejoin", "version": t.game().version},
        **HTMX,
    )
    assert response.status_code == 200
    assert t.totals()[3] == 55
    assert balance(out) == before - 1000


def test_a_manual_split_is_offered_and_accepted_from_the_page(client, seated, planter, toss):
    t = _pool(seated, planter, toss, {1: 0, 2: 45, 3: 61})
    plant_and_play(t, planter, {1: 0, 2: 40, 3: 40})
    plant_and_play(t, planter, {1: 60, 2: 0})
    assert t.phase() == "split"
    url = reverse("table_act", args=[t.table.pk])
    for seat, share in ((1, "₹20.25"), (2, "₹6.75")):
        client.force_login(t.users[seat])
        html = client.get(reverse("table", args=[t.table.pk])).content.decode()
        assert 'id="split-offer"' in html and share in html
        response = client.post(url, {"action": "split_accept", "version": t.game().version}, **HTMX)
        assert response.status_code == 200
    game = t.game()
    assert game.status == "finished"
    html = client.get(reverse("table", args=[t.table.pk])).content.decode()
    assert 'id="game-result"' in html
    assert "wins ₹20.25" in html and "wins ₹6.75" in html
