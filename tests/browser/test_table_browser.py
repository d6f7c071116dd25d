"""What a player sees and does at a table, in a real browser against a live daphne."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import acted, login

PASSWORD = "tiles-and-tigers-42"


def _practice_table(name: str, variant: str):
    """A two-seat practice table: the player and one quick computer player, long turns."""
    from tables.models import TableTemplate
    from tables.services import table_create

    template = TableTemplate(
        name=name,
        variant=variant,
        seats_min=2,
        seats_max=2,
        currency="practice",
        entry_fee=100,
        practice=True,
        bot_count=1,
        bot_delay_s=0.3,
        human_wait_s=0,  # computer players sit down with the player
        turn_s=60,
        extra_time_s=0,
    )
    template.full_clean()
    template.save()
    return table_create(template=template, name=name)


@pytest.fixture
def practice_table(transactional_db):
    # Deals with two players: nobody may drop, so the deal lasts while the test plays it.
    return _practice_table("Browser practice", "deals")


@pytest.fixture
def funded_player(transactional_db):
    from ledger.services import wallet_deposit

    user = get_user_model().objects.create_user(
        username="meera", password=PASSWORD, display_name="Meera"
    )
    wallet_deposit(user=user, currency="practice", amount=1000, idempotency_key="t:fund:meera")
    return user


def _wait_my_turn(page):
    page.wait_for_selector(".act-pick_closed button", timeout=20_000)


def _wait_live(page) -> None:
    """The socket is up, the page is not catching up on missed frames, and it shows at least
    the version the server announced."""
    page.wait_for_function(
        "() => document.documentElement.dataset.liveVersion !== undefined"
        " && document.documentElement.dataset.catchingUp === undefined"
        " && document.getElementById('table-root')"
        " && +document.getElementById('table-root').dataset.version"
        " >= +document.documentElement.dataset.liveVersion"
    )


def _drag(page, source, target) -> None:
    """Drag with real pointer movements, as a finger or a mouse would. The target is measured
    again once the drag has started: lifting the card reflows the hand."""
    box = source.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 8, box["y"] + 8, steps=4)
    page.wait_for_timeout(100)
    to = target.bounding_box()
    page.mouse.move(to["x"] + to["width"] / 2, to["y"] + to["height"] / 2, steps=15)
    page.wait_for_timeout(100)
    to = target.bounding_box()
    page.mouse.move(to["x"] + to["width"] / 2 + 1, to["y"] + to["height"] / 2, steps=2)
    page.mouse.up()


def _hand_codes(page) -> list[str]:
    return page.eval_on_selector_all("#my-hand .pcard", "els => els.map(e => e.dataset.code)")


def test_a_player_joins_a_practice_table_picks_and_discards(page, practice_table, funded_player):
    login(page, "meera", PASSWORD)
    row = page.locator("tr.lobby-row", has_text="Browser practice")
    row.locator("button", has_text="Play now").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    # 13 cards of my own; the computer player's cards are not in the page at all.
    page.wait_for_selector("#my-hand .pcard")
    assert len(_hand_codes(page)) == 13
    assert "100 chips" in page.locator(".table-head").inner_text()
    _wait_my_turn(page)
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    hand = _hand_codes(page)
    assert len(hand) == 14
    discard_button = page.locator(".act-discard button")
    assert discard_button.is_disabled()
    page.locator("#my-hand .pcard").first.click()
    assert discard_button.is_enabled()
    discarded = hand[0]
    discard_button.click()
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 13")
    # The discarded card is now on top of the open deck (until the computer picks it).
    from tables.models import Move

    assert Move.objects.filter(action="discard", actor__username="meera").exists()
    payload = Move.objects.filter(action="discard", actor__username="meera").last().payload
    assert payload["card"] == discarded


def test_drag_and_drop_and_sort_save_the_arrangement_on_the_server(
    page, practice_table, funded_player
):
    from tables.models import Game

    login(page, "meera", PASSWORD)
    page.locator("tr.lobby-row", has_text="Browser practice").locator("button").click()
    page.wait_for_selector("#my-hand .pcard")
    # On the person's turn: the computer players cannot end the deal meanwhile (one that shows
    # at its first turn, before the person's, ends it: then the test is run again).
    _wait_my_turn(page)
    _wait_live(page)
    groups_before = page.locator("#my-hand .group:not(.new-group)").count()
    first_card = page.locator("#my-hand .group").first.locator(".pcard").first
    code = first_card.get_attribute("data-code")
    with acted(page, "arrange"):  # saved; the socket brings the new fragment
        _drag(page, first_card, page.locator("#my-hand .new-group"))
    page.wait_for_function(
        "code => Array.from(document.querySelectorAll('#my-hand .group:not(.new-group)'))"
        ".some(g => g.querySelectorAll('.pcard').length === 1"
        " && g.querySelector('.pcard').dataset.code === code)",
        arg=code,
    )
    # Reload: the arrangement came back from the server, not from the browser.
    page.reload()
    page.wait_for_selector("#my-hand .pcard")
    singles = page.eval_on_selector_all(
        "#my-hand .group:not(.new-group)",
        "gs => gs.filter(g => g.querySelectorAll('.pcard').length === 1)"
        ".map(g => g.querySelector('.pcard').dataset.code)",
    )
    assert code in singles
    assert page.locator("#my-hand .group:not(.new-group)").count() >= groups_before
    # Sort: the server's best arrangement; every card is still there.
    cards_before = sorted(_hand_codes(page))
    page.click(".act-sort button")
    page.wait_for_timeout(500)
    page.wait_for_selector("#my-hand .pcard")
    assert sorted(_hand_codes(page)) == cards_before
    game = Game.objects.filter(table=practice_table).latest("pk")
    seat_no = game.seats.get(user__username="meera").seat_no
    hands = {h["seat"]: h for h in game.state["deal"]["hands"]}
    saved = [card for group in hands[seat_no]["groups"] for card in group]
    assert sorted(saved) == sorted(_hand_codes(page))


def test_an_out_of_turn_or_stale_action_is_refused_with_a_message(
    page, practice_table, funded_player
):
    from tables.models import Move

    login(page, "meera", PASSWORD)
    page.locator("tr.lobby-row", has_text="Browser practice").locator("button").click()
    _wait_my_turn(page)
    # A double click: the second request carries the same, now old, version: one pick only.
    page.evaluate(
        "() => { const b = document.querySelector('.act-pick_closed button');"
        " b.click(); b.click(); }"
    )
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    page.wait_for_timeout(500)
    assert Move.objects.filter(actor__username="meera", action="pick_closed").count() == 1
    assert len(_hand_codes(page)) == 14
    # Picking again out of order is refused with a reason, and changes nothing.
    version = page.locator("#table-root").get_attribute("data-version")
    page.evaluate(
        """(version) => htmx.ajax('POST',
             document.querySelector('.act-discard').getAttribute('hx-post'),
             {target: '#table-root', swap: 'outerHTML',
              values: {action: 'pick_closed', version: version}})""",
        version,
    )
    page.wait_for_selector("#action-error")
    assert page.locator("#action-error").inner_text().strip() != ""
    assert Move.objects.filter(actor__username="meera", action="pick_closed").count() == 1
    assert len(_hand_codes(page)) == 14


def test_the_page_follows_the_game_without_a_reload(page, practice_table, funded_player):
    """The computer player's moves arrive through the WebSocket push and an HTTP re-fetch."""
    login(page, "meera", PASSWORD)
    page.locator("tr.lobby-row", has_text="Browser practice").locator("button").click()
    page.wait_for_selector("#table-root")
    start = int(page.locator("#table-root").get_attribute("data-version"))
    # Whoever starts, within a few seconds the version shown moves on by itself (the toss, the
    # deal, a computer move or my own turn starting).
    _wait_my_turn(page)
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    page.locator("#my-hand .pcard").first.click()
    page.click(".act-discard button")
    # The bot answers on its own; the page shows my next turn without any reload.
    page.wait_for_selector(".act-pick_closed button", timeout=20_000)
    assert int(page.locator("#table-root").get_attribute("data-version")) > start + 2


# What a player reads off the felt and their own parts, countdowns left out.
_SHOWN = """() => {
  const text = el => el ? el.innerText.replace(/\\d+s\\b/g, "").trim() : null;
  const seats = Array.from(document.querySelectorAll("#felt > .seat")).map(el => [
    el.dataset.seat,
    Array.from(el.classList).filter(c => c !== "just-moved").sort().join(" "),
    text(el),
  ]);
  return {
    seats: seats,
    closed: text(document.getElementById("pile-closed")),
    open: (document.querySelector("#pile-open .pcard") || {dataset: {}}).dataset.code || null,
    line: text(document.getElementById("last-move")),
    hand: Array.from(document.querySelectorAll("#my-hand .pcard")).map(c => c.dataset.code),
    actions: Array.from(document.querySelectorAll("#my-actions .button")).map(b => b.innerText),
    version: document.getElementById("felt-root").dataset.version,
  };
}"""


def _settled(page) -> None:
    """In step with the socket, and the page's own touches done on what it shows."""
    _wait_live(page)
    page.wait_for_function(
        "() => document.documentElement.dataset.settled"
        " === document.getElementById('felt-root').dataset.version"
    )


def _same_as_a_fresh_load(page) -> None:
    _settled(page)
    shown = page.evaluate(_SHOWN)
    page.reload()
    page.wait_for_selector("#table-root")
    _settled(page)
    assert page.evaluate(_SHOWN) == shown


def test_a_page_kept_by_pushes_shows_what_a_reload_shows(page, practice_table, funded_player):
    """Turns played on one page (the felt and the parts swapped in as pushed, in regions and
    alone) leave it showing what the same page shows when loaded afresh."""
    login(page, "meera", PASSWORD)
    page.locator("tr.lobby-row", has_text="Browser practice").locator("button").click()
    page.wait_for_selector("#table-root")
    for _turn in range(3):
        _wait_my_turn(page)
        _wait_live(page)
        page.click(".act-pick_closed button")
        page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
        page.locator("#my-hand .pcard").last.click()
        page.click(".act-discard button")
        page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 13")
    _wait_my_turn(page)  # the computer player has moved: nothing changes until I do
    _same_as_a_fresh_load(page)


@pytest.fixture
def classic_table(transactional_db):
    return _practice_table("Browser classic", "classic")


def test_classic_rummy_draw_select_and_discard(page, classic_table, funded_player):
    from tables.models import Move

    login(page, "meera", PASSWORD)
    page.locator("tr.lobby-row", has_text="Browser classic").locator("button").click()
    page.wait_for_selector("#my-hand .pcard")
    assert len(_hand_codes(page)) == 10
    assert page.locator("#table-melds").is_visible()
    _wait_my_turn(page)
    _wait_live(page)
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 11")
    lay_down = page.locator(".act-lay_down button")
    assert lay_down.is_disabled()  # a meld needs three selected cards
    card = page.locator("#my-hand .pcard").last
    code = card.get_attribute("data-code")
    card.click()
    page.click(".act-discard button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 10")
    assert (
        Move.objects.filter(actor__username="meera", action="discard").last().payload["card"]
        == code
    )


def test_the_table_fits_a_phone(browser, live_server_url, practice_table, funded_player):
    context = browser.new_context(base_url=live_server_url, viewport={"width": 375, "height": 740})
    context.set_default_timeout(10_000)
    page = context.new_page()
    login(page, "meera", PASSWORD)
    page.locator("tr.lobby-row", has_text="Browser practice").locator("button").click()
    page.wait_for_selector("#my-hand .pcard")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.locator(".act-sort button").is_visible()
    context.close()
