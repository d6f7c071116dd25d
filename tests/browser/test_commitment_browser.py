"""Issue 21, point 6: after a deal, its player checks the shoe commitment in the browser. The
page shows the exact text the commitment hashes (docs/fairness.md), and the page's own script
computes its SHA-256 with the browser's SubtleCrypto and compares it with the published hash."""

from __future__ import annotations

import hashlib

import pytest

from tests.browser.conftest import act_now, login, two_seat_table

PASSWORD = "tiles-and-tigers-42"


@pytest.fixture
def ended_deal(transactional_db, monkeypatch):
    """A two-seat Pool 101 table whose first deal ended (seat 1 dropped); a long break."""
    from tables.models import Deal, Game

    table, users = two_seat_table(
        monkeypatch,
        people=[("uma", "Uma"), ("vik", "Vik")],
        password=PASSWORD,
        chips=5000,
        name="Checked 101",
        variant="pool101",
        entry_fee=1000,
        break_s=600,
    )
    game = Game.objects.get(table=table)
    act_now(game, users[0], "drop")
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
