"""Issue 21, point 6: after a deal, its player checks the shoe commitment in the browser. The
page shows the exact text the commitment hashes (docs/fairness.md), and the page's own script
computes its SHA-256 with the browser's SubtleCrypto and compares it with the published hash."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import login

PASSWORD = "tiles-and-tigers-42"


@pytest.fixture
def ended_deal(transactional_db, monkeypatch):
    """A two-seat Pool 101 table whose first deal ended (seat 1 dropped); a long break."""
    from ledger.services import wallet_deposit
    from tables import services
    from tables.models import Deal, Game, TableTemplate
    from tables.services import _context

    monkeypatch.setattr(_context, "game_toss", lambda *, game, seats: 1)
    users = []
    for name in ("uma", "vik"):
        user = get_user_model().objects.create_user(
            username=name, password=PASSWORD, display_name=name.title()
        )
        wallet_deposit(user=user, currency="cash", amount=5000, idempotency_key=f"t:fund:{name}")
        users.append(user)
    template = TableTemplate(
        name="Checked 101", variant="pool101", seats_min=2, seats_max=2, currency="cash",
        entry_fee=1000, turn_s=300, extra_time_s=0, break_s=600,
    )  # fmt: skip
    template.full_clean()
    template.save()
    table = services.table_create(template=template, name="Checked 101")
    for seat, user in enumerate(users, start=1):
        services.table_join(table=table, user=user, seat_no=seat)
    game = Game.objects.get(table=table)
    services.game_act(
        game_id=game.pk,
        user=users[0],
        action="drop",
        payload={},
        expected_version=Game.objects.get(pk=game.pk).version,
    )
    deal = Deal.objects.get(game=game, number=1)
    assert deal.ended_at is not None
    return table, deal


def test_the_player_checks_the_commitment_in_the_browser(page, ended_deal):
    from tables.rules import fairness

    table, deal = ended_deal
    login(page, "uma", PASSWORD)
    page.goto(f"/tables/{table.pk}/")
    page.click("#shoe-commitment summary")
    shown = page.locator("#commitment-preimage").text_content()
    # Exactly the committed text, reshuffle keys and all, and it hashes to the published value.
    assert shown == fairness.shoe_message(deal.shoe, deal.shoe_secret)
    assert hashlib.sha256(shown.encode()).hexdigest() == deal.shoe_commitment
    assert len(shown.split("\n")) == 5 and shown.startswith("rummy-shoe-v1\n")
    page.click("#commitment-check")
    page.wait_for_selector("#commitment-result[data-result]")
    result = page.locator("#commitment-result")
    assert result.get_attribute("data-result") == "match"
    assert "It matches" in result.inner_text() and deal.shoe_commitment in result.inner_text()

    # One card changed in the shown text: the browser's check says it does not match.
    page.evaluate(
        """() => {
        const pre = document.getElementById("commitment-preimage");
        const lines = pre.textContent.split("\\n");
        const cards = lines[1].split(",");
        const i = cards.findIndex((c) => c !== cards[0]);  // two packs: skip a twin
        [cards[0], cards[i]] = [cards[i], cards[0]];
        lines[1] = cards.join(",");
        pre.textContent = lines.join("\\n");
        document.getElementById("commitment-result").removeAttribute("data-result");
    }"""
    )
    page.click("#commitment-check")
    page.wait_for_selector("#commitment-result[data-result]")
    assert page.locator("#commitment-result").get_attribute("data-result") == "mismatch"
