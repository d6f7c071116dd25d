"""Support settles a dispute from one page, in a real browser against a live daphne: a pool game
of three deals is played through the services (planted deals, seat 3 rejoins after deal 2),
then a support agent opens deal 3's hand review and reads a player's points, who won what in
that deal and the game's prizes; the opening is in the access log."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import login

PASSWORD = "tiles-and-tigers-42"


@pytest.fixture
def played_game(transactional_db, monkeypatch):
    from ledger.services import wallet_deposit
    from tables import services
    from tables.models import TableTemplate
    from tables.services import _context
    from tests.tables.tables_testkit import Clock, Planter, TableDriver, plant, plant_and_play, play

    planter = Planter()
    clock = Clock()
    monkeypatch.setattr(_context, "deal_shoe_new", planter)
    monkeypatch.setattr(_context, "_clock", clock)
    monkeypatch.setattr(_context, "game_toss", lambda *, game, seats: 1)
    users = {}
    for seat, (name, shown) in enumerate(
        (("asha", "Asha"), ("bilal", "Bilal"), ("chen", "Chen")), start=1
    ):
        user = get_user_model().objects.create_user(
            username=name, password=PASSWORD, display_name=shown
        )
        wallet_deposit(user=user, currency="cash", amount=50_000, idempotency_key=f"t:{name}")
        users[seat] = user
    template = TableTemplate(
        name="Dispute 101", variant="pool101", seats_min=3, seats_max=3, entry_fee=1000
    )
    template.full_clean()
    template.save()
    table = services.table_create(template=template, name="Dispute 101")
    first = {1: 0, 2: 34, 3: 61}
    planned = plant(planter, first)
    for seat, user in users.items():
        services.table_join(table=table, user=user, seat_no=seat)
    t = TableDriver(table, users, clock)
    play(t, *planned, first)
    plant_and_play(t, planter, {1: 0, 2: 20, 3: 40})
    t.act(3, "rejoin")
    plant_and_play(t, planter, {1: 0, 2: 50, 3: 50})
    return t


def test_support_answers_was_i_counted_right_and_who_won_what_in_deal_3(
    browser, live_server_url, played_game
):
    from accounts.services import user_add_to_support
    from tables.models import Deal, DealAccess

    agent = get_user_model().objects.create_user(
        username="agent", password=PASSWORD, display_name="Agent"
    )
    user_add_to_support(user=agent)
    deal = Deal.objects.get(game=played_game.game(), number=3)
    context = browser.new_context(base_url=live_server_url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    login(page, "agent", PASSWORD)
    page.goto("/support/deals/?player=bilal")
    page.click(f'a[href="/support/deals/{deal.pk}/"]')
    page.wait_for_selector("#outcome-table")

    assert page.locator("#outcome-winner").inner_text() == "Asha"
    bilal = page.locator('#outcome-table tr[data-player="Bilal"]')
    # Was Bilal counted right? His points, his groups as cards, the engine's best count.
    assert bilal.locator("td.points strong").inner_text() == "50"
    assert bilal.locator(".pcard").count() >= 13
    assert "Best count" in bilal.locator("td.best").inner_text()
    assert "total 104" in bilal.inner_text()
    # Who won what in deal 3: Asha takes the prize (four entries less the 10 % fee).
    asha = page.locator('#outcome-table tr[data-player="Asha"]')
    assert asha.get_attribute("class") == "winner"
    assert asha.locator("td.money").inner_text().startswith("+₹36.00")
    assert bilal.locator("td.money").inner_text().startswith("₹0.00")
    prizes = page.locator("#prizes").inner_text()
    assert "Asha ₹36.00" in prizes and "platform fee ₹4.00" in prizes
    # The step-through shows cards as cards, with times.
    assert page.locator("#replay tr.replay-step").count() > 5
    assert page.locator("#replay .pcard").count() > 5
    assert errors == []

    accesses = DealAccess.objects.filter(deal=deal, user=agent, kind="review")
    assert accesses.count() == 1
    context.close()
