"""Selectors (per-viewer views, the lobby, support replays) and the admin."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from django.test import Client
from tables_testkit import WINNER_GROUPS, Planter, TableDriver, flatten, plant, play, template_form

from ledger.currencies import format_amount
from tables import selectors, services
from tables.models import Deal, Game, GameStatus, Move, Table


@pytest.fixture
def t(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> TableDriver:
    toss(1)
    first = {1: 0, 2: 34, 3: 48}
    planned = plant(planter, first)
    driver = seated(3)
    driver.planned = (planned, first)
    return driver


def test_each_viewer_sees_only_their_own_cards(t: TableDriver, players: list[Any]) -> None:
    from django.contrib.auth.models import AnonymousUser

    game = t.game()
    state = services.game_state(game)
    hands = {h.seat: [c.code for c in h.cards] for h in state.deal.hands}
    closed = [c.code for c in state.deal.closed]
    mine = selectors.table_for_viewer(table=t.table, user=players[0])
    assert mine.my_seat == 1
    assert mine.view is not None and mine.view.hand is not None
    mine_raw: Mapping[str, Any] = mine.view.raw
    assert mine_raw["hand"]["cards"] == hands[1]
    assert list(mine.view.hand.cards) == hands[1]
    assert mine.allowed == (
        "pick_closed",
        "pick_open",
        "drop",
        "arrange",
        "set_auto_drop",
        "leave",
    )
    assert [s.name for s in mine.seats] == [p.public_name for p in players[:3]]
    assert mine.version == game.version and mine.can_leave and not mine.can_join
    text = json.dumps(mine.view.raw)
    for seat in (2, 3):
        assert json.dumps(hands[seat]) not in text
    assert json.dumps(closed) not in text and json.dumps(closed[:5])[:-1] not in text
    other = selectors.table_for_viewer(table=t.table, user=players[1])
    assert other.view is not None
    other_raw: Mapping[str, Any] = other.view.raw
    assert other_raw["hand"]["cards"] == hands[2]
    assert other.allowed == ("arrange", "set_auto_drop", "leave")
    for viewer in (AnonymousUser(), players[5]):
        spectator = selectors.table_for_viewer(table=t.table, user=viewer)
        assert spectator.my_seat is None and spectator.allowed == ()
        assert spectator.view is not None
        assert spectator.view.raw["hand"] is None and spectator.view.hand is None
        text = json.dumps(spectator.view.raw)
        assert all(json.dumps(h) not in text for h in hands.values())


def test_lobby_rows(
    t: TableDriver, table_factory: Callable[..., Table], players: list[Any]
) -> None:
    other = table_factory(variant="points", point_value=5, seats_max=4)
    services.table_join(table=other, user=players[4])
    rows = {row["id"]: row for row in selectors.lobby_templates()}
    playing = rows[t.table.template_id]
    assert playing["players"] == 3 and playing["seats_max"] == 3
    assert playing["games_running"] == 1 and playing["waiting"] == 0
    waiting = rows[other.template_id]
    assert waiting["players"] == 1 and waiting["seats_max"] == 4
    assert waiting["waiting"] == 1 and waiting["games_running"] == 0
    assert waiting["variant"] == "points" and waiting["point_value"] == 5
    services.table_close(table=other, staff_user=_staff(players[5]))
    closed = {row["id"]: row for row in selectors.lobby_templates()}[other.template_id]
    assert closed["players"] == 0 and closed["waiting"] == 0


def _staff(user: Any) -> Any:
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


def test_deal_replay_rebuilds_every_state_from_the_shoe(t: TableDriver) -> None:
    (planned, first) = t.planned
    play(t, *planned, first)
    deal = Deal.objects.get(game=t.game(), number=1)
    steps = selectors.deal_replay(deal=deal)
    moves = list(Move.objects.filter(deal=deal).order_by("version"))
    assert [s.version for s in steps] == [m.version for m in moves]
    assert steps[0].action == "start_deal"
    assert all(step.matches_log for step in steps)
    # The first state holds the planted hands; the last one is the ended deal.
    first_state = steps[0].state
    hands = {h["seat"]: h["cards"] for h in first_state["deal"]["hands"]}
    assert sorted(hands[1]) == sorted(flatten(WINNER_GROUPS))
    assert steps[-1].state["history"][-1]["winner"] == 1
    assert deal.result["winner"] == 1 and deal.cut_joker == "QC" and deal.starter == 1
    assert [s.clock for s in steps] == [m.clock for m in moves]


def test_supports_history_is_the_same_replay_over_the_deals_whole_part(t: TableDriver) -> None:
    """One replay step list: support's ``deal_history`` is ``selectors.deal_replay`` over the
    deal's part of the log (its moves and those after it up to the next deal)."""
    from tables.selectors import deal_moves
    from tables.support.replay import deal_history

    (planned, first) = t.planned
    play(t, *planned, first)
    deal = Deal.objects.get(game=t.game(), number=1)
    history = deal_history(deal=deal)
    moves = deal_moves(deal=deal)
    assert [s.version for s in history] == [m.version for m in moves]
    assert history == selectors.deal_replay(deal=deal, moves=moves)
    own = selectors.deal_replay(deal=deal)
    assert history[: len(own)] == own and len(history) >= len(own)


def test_deals_find_and_the_game_ledger(t: TableDriver, players: list[Any]) -> None:
    game = t.game()
    assert list(selectors.deals_find(user=players[0])) == list(Deal.objects.filter(game=game))
    assert list(selectors.deals_find(user=players[4])) == []
    assert list(selectors.deals_find(table=t.table)) == list(Deal.objects.filter(game=game))
    txs = list(selectors.game_ledger(game=game))
    assert [tx.kind for tx in txs] == ["entry_fee"] * 3
    assert {tx.ref for tx in txs} == {game.pot_ref}


# --------------------------------------------------------------------------- admin


@pytest.fixture
def admin(admin_user: Any) -> Client:
    client = Client()
    client.force_login(admin_user)
    return client


def test_admin_pages_load(t: TableDriver, admin: Client) -> None:
    (planned, first) = t.planned
    play(t, *planned, first)
    game = t.game()
    deal = Deal.objects.get(game=game, number=1)
    move = Move.objects.filter(game=game).first()
    pages = [
        "/admin/tables/tabletemplate/",
        f"/admin/tables/tabletemplate/{t.table.template.pk}/change/",
        "/admin/tables/tabletemplate/add/",
        "/admin/tables/table/",
        "/admin/tables/table/add/",
        f"/admin/tables/table/{t.table.pk}/change/",
        "/admin/tables/game/",
        f"/admin/tables/game/{game.pk}/change/",
        "/admin/tables/deal/",
        f"/admin/tables/deal/{deal.pk}/change/",
        "/admin/tables/move/",
        f"/admin/tables/move/{move.pk}/change/",
        f"/admin/tables/game/?q={t.users[1].username}",
        f"/admin/tables/deal/?q={t.table.name}",
    ]
    for url in pages:
        response = admin.get(url)
        assert response.status_code == 200, url
    replay = admin.get(f"/admin/tables/deal/{deal.pk}/change/").content.decode()
    assert "start_deal" in replay and "declare" in replay and "entry:game:" in replay
    # The read-only fields come from their templates: the replay's rows, the JSON documents
    # styled by the admin's stylesheet (no inline style, which the CSP refuses).
    assert replay.count("<tr><td>v") == Move.objects.filter(game=game, deal=deal).count()
    assert '<pre class="staff-json">' in replay and "css/staff-admin.css" in replay
    assert 'style="' not in replay[replay.index('<pre class="staff-json">') :]
    game_page = admin.get(f"/admin/tables/game/{game.pk}/change/").content.decode()
    assert f'href="/admin/tables/deal/{deal.pk}/change/">deal 1</a>' in game_page
    assert admin.get(f"/admin/tables/move/{move.pk}/delete/").status_code == 403
    assert admin.post(f"/admin/tables/move/{move.pk}/change/", {}).status_code == 403


def test_admin_creates_a_table_from_a_template(
    admin: Client, template_factory: Callable[..., Any]
) -> None:
    template = template_factory(name="Evening 101")
    response = admin.post("/admin/tables/table/add/", {"template": template.pk, "name": "Lotus"})
    assert response.status_code == 302
    table = Table.objects.get(name="Lotus")
    assert table.template == template
    response = admin.post(
        "/admin/tables/tabletemplate/",
        {"action": "make_table", "_selected_action": [template.pk]},
    )
    assert response.status_code == 302
    assert Table.objects.filter(template=template).count() == 2


def test_admin_template_form_refuses_unplayable_settings(admin: Client) -> None:
    data = template_form(
        name="Broken",
        variant="pool101",
        entry_fee="1.00",
        first_drop=60,
        middle_drop=40,
        start_countdown_s=10,
    )
    response = admin.post("/admin/tables/tabletemplate/add/", data)
    assert response.status_code == 200
    assert "is more than the middle drop" in response.content.decode()
    data["first_drop"] = 20
    response = admin.post("/admin/tables/tabletemplate/add/", data)
    assert response.status_code == 302


def test_admin_cancels_a_game_with_a_reason(t: TableDriver, admin: Client) -> None:
    url = "/admin/tables/table/"
    asked = admin.post(url, {"action": "cancel_live_game", "_selected_action": [t.table.pk]})
    assert asked.status_code == 200 and "Reason" in asked.content.decode()
    page = asked.content.decode()
    assert "Cancel the live games" in page and 'name="csrfmiddlewaretoken"' in page
    assert f'name="_selected_action" value="{t.table.pk}"' in page
    assert t.game().status == GameStatus.RUNNING
    done = admin.post(
        url,
        {
            "action": "cancel_live_game",
            "_selected_action": [t.table.pk],
            "confirm": "yes",
            "reason": "Dealer fault",
        },
    )
    assert done.status_code == 302
    game = Game.objects.get(table=t.table)
    assert game.status == GameStatus.CANCELLED and game.cancel_reason == "Dealer fault"


def test_support_staff_may_review_deals(t: TableDriver, user_factory: Callable[..., Any]) -> None:
    from accounts.services import user_add_to_support

    agent = user_factory(is_staff=True)
    user_add_to_support(user=agent)
    client = Client()
    client.force_login(agent)
    deal = Deal.objects.filter(game=t.game()).first()
    assert client.get(f"/admin/tables/deal/{deal.pk}/change/").status_code == 200
    assert client.get("/admin/tables/tabletemplate/").status_code == 403
    outsider = user_factory(is_staff=True)
    client.force_login(outsider)
    assert client.get(f"/admin/tables/deal/{deal.pk}/change/").status_code == 403


def test_the_game_admin_shows_money_in_rupees_not_minor_units(
    t: TableDriver, admin: Client
) -> None:
    game = t.game()
    html = admin.get(f"/admin/tables/game/{game.pk}/change/").content.decode()
    stake = format_amount(game.stake, game.currency)
    assert stake.startswith("₹") and stake in html  # the stake, and each seat's entry paid
    assert html.count(stake) >= 1 + len(t.users)
