"""The table as players of the big rummy apps know it (issue 16), in a real browser against a
live daphne: a deal played on a 390 x 844 phone and on a 1280 x 800 laptop without sideways
scrolling, what just happened said for every move, the open deck's history, wild cards marked
on every card face, the finish slot, Sort by suit and Best groups, the sound switch, a turn
played with the keyboard only, and the lobby at 360 px. Saves the README's screenshots."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import acted
from tests.browser.test_result_browser import FINISH, REASON, planted_table  # noqa: F401
from tests.browser.test_table_browser import _drag, _hand_codes, _wait_live

PASSWORD = "tiles-and-tigers-42"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


def login(page, username: str, password: str) -> None:
    """Log in through the form in the page's main part (the header has buttons of its own)."""
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url("**/")


def shot_path(name: str, tmp_path: Path) -> Path:
    """``docs/screenshots/<name>`` when asked (``UPDATE_SCREENSHOTS=1``), else a temp file."""
    path = SCREENSHOTS / name if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _bot_table(name: str, variant: str = "deals", seats: int = 2):
    """A practice table of ``seats`` seats (two by default): the player and quick computer
    players in the rest, long turns. Deals by default: with two players nobody may drop, so the
    computer player never ends the deal early (the player ends it with a show)."""
    from tables.models import TableTemplate
    from tables.services import table_create

    template = TableTemplate(
        name=name,
        variant=variant,
        seats_min=seats,
        seats_max=seats,
        currency="practice",
        entry_fee=100,
        practice=True,
        bot_count=seats - 1,
        bot_delay_s=0.3,
        human_wait_s=0,
        turn_s=60,
        extra_time_s=30,
        break_s=120,
    )
    template.full_clean()
    template.save()
    return table_create(template=template, name=name)


@pytest.fixture
def meera(transactional_db):
    from ledger.services import wallet_deposit

    user = get_user_model().objects.create_user(
        username="meera", password=PASSWORD, display_name="Meera"
    )
    wallet_deposit(user=user, currency="practice", amount=1000, idempotency_key="t:fund:meera")
    return user


def _open_table(page, name: str) -> None:
    login(page, "meera", PASSWORD)
    page.locator("tr.lobby-row", has_text=name).locator("button", has_text="Play now").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    page.wait_for_selector("#my-hand .pcard")
    _wait_live(page)


def _my_turn(page) -> None:
    try:
        page.wait_for_selector(".act-pick_closed button", timeout=20_000)
    except Exception:
        from tables.models import Game

        marks = page.evaluate(
            "() => ({marks: Object.assign({}, document.documentElement.dataset),"
            " felt: (document.getElementById('felt-root') || {dataset: {}}).dataset.version,"
            " seat: (document.getElementById('seat-top') || {dataset: {}}).dataset.version,"
            " turn: (document.getElementById('seat-top') || {dataset: {}}).dataset.myTurn})"
        )
        games = list(Game.objects.values_list("pk", "version", "status", "state__phase"))
        raise AssertionError(f"not my turn: page {marks}, games {games}") from None


def _check_cards(page) -> None:
    """Every card says what it is to a screen reader, and a wild card's mark is in view (not
    under the next card of the fan)."""
    labels = page.eval_on_selector_all(
        ".pcard:not(.back):not(.empty)",
        "els => els.map(e => e.getAttribute('aria-label')"
        " || (e.querySelector('.sr-name') || {}).textContent)",
    )
    assert labels and all(labels), labels
    hidden = page.evaluate(
        """() => Array.from(document.querySelectorAll('#my-hand .pcard.wild')).filter(card => {
             const mark = card.querySelector('.wild-mark');
             const box = mark.getBoundingClientRect();
             const top = document.elementFromPoint(box.left + box.width / 2,
                                                   box.top + box.height / 2);
             return !(top && card.contains(top));
           }).map(card => card.dataset.code)"""
    )
    assert hidden == [], f"wild marks hidden under other cards: {hidden}"


def _play_turn(page) -> str:
    """Pick from the closed deck and discard the card just drawn; returns its code."""
    _my_turn(page)
    count = len(_hand_codes(page))
    page.click(".act-pick_closed button")
    page.wait_for_function(
        f"() => document.querySelectorAll('#my-hand .pcard').length === {count + 1}"
    )
    drawn = page.locator("#my-hand .pcard.picked")
    assert "just drawn" in drawn.locator(".sr-name").text_content()
    code = drawn.get_attribute("data-code")
    drawn.click()
    page.click(".act-discard button")
    page.wait_for_function(f"() => document.querySelectorAll('#my-hand .pcard').length === {count}")
    return code


@pytest.mark.parametrize(
    ("width", "height", "screenshot"),
    [(390, 844, "table-phone-turn.png"), (1280, 800, "table-mid-deal.png")],
    ids=["phone", "laptop"],
)
def test_a_deal_played_on_a_phone_and_a_laptop_never_scrolls_sideways(
    browser, live_server_url, meera, tmp_path, width, height, screenshot
):
    from tables.models import Game

    table = _bot_table("Practice deals")
    context = browser.new_context(
        base_url=live_server_url, viewport={"width": width, "height": height}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _open_table(page, "Practice deals")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    # The seats around the felt: Meera at the bottom, the computer player (marked) at the top.
    assert page.locator(".seat.me.slot-bottom").count() == 1
    top = page.locator(".seat.slot-top")
    assert "computer" in top.inner_text()
    _check_cards(page)

    for _ in range(2):
        thrown = _play_turn(page)
        assert thrown not in _hand_codes(page) or _hand_codes(page).count(thrown) == 1
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        _check_cards(page)
        # What just happened is said for every move, mine and the computer player's.
        page.wait_for_function(
            "() => /Bot|computer|Meera|You|picked|took|discarded/.test("
            "document.getElementById('last-move').textContent)"
        )
    # The computer player's moves arrive as lines too, and its closed pick names no card.
    _my_turn(page)
    if page.locator("#open-history").get_attribute("open") is None:  # open on wide screens
        page.click("#open-history summary")
    history = page.locator("#discard-history").inner_text()
    assert "thrown by you" in history
    recent = page.locator("#recent-moves").inner_text()
    assert "picked from the closed deck" in recent
    game = Game.objects.get(table=table)
    hands = {h["seat"]: h["cards"] for h in game.state["deal"]["hands"]}
    bot_seat = game.seats.get(is_bot=True).seat_no
    my_seat = game.seats.get(user=meera).seat_no
    view = game.state["deal"]
    public = {view["cut_card"], *(view["open"][-1:])}
    for code in set(hands[bot_seat]) - public - set(hands[my_seat]):
        # The computer player's cards are nowhere in the page.
        assert f'data-code="{code}"' not in page.content()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    # The ring timer drains around the player whose turn it is: Meera's own seat now.
    frac = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.seat.turn [data-ring]'))"
        ".getPropertyValue('--frac'))"
    )
    assert 0 < frac <= 1
    assert "bank" in page.locator(".seat.me").inner_text()  # the extra-time bank, 30 s
    page.locator("#open-history summary").scroll_into_view_if_needed()
    page.evaluate("() => window.scrollTo(0, 0)")
    # The laptop's is the README's (the phone's: test_table_layout_browser.py, after a pick).
    path = shot_path(screenshot, tmp_path) if width >= 800 else tmp_path / screenshot
    page.screenshot(path=str(path), full_page=width < 800)

    # Meera ends the deal with a show: the card just drawn in the finish slot (tapped, then
    # "Declare with this card"); her random hand is a wrong show and the computer player wins.
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    assert page.locator("#finish-slot").is_visible()
    page.locator("#my-hand .pcard.picked").click()
    page.click(".act-declare button")
    page.wait_for_selector("#scoreboard")
    assert "wins the deal" in page.locator("#scoreboard").inner_text()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert errors == []
    context.close()


def test_a_turn_played_with_the_keyboard_only(page, meera):
    from tables.models import Move

    _bot_table("Practice deals")
    _open_table(page, "Practice deals")
    _my_turn(page)
    assert page.locator("#key-legend").is_visible()
    page.keyboard.press("p")  # pick from the closed deck
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    page.keyboard.press("ArrowRight")  # into the hand: the card focused before, else the first
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => document.activeElement.dataset.code")
    assert focused == _hand_codes(page)[3]
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.getAttribute('aria-pressed')") == "true"
    assert "Selected:" in page.locator("#selected-info").inner_text()
    page.keyboard.press("d")  # discard the selected card
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 13")
    discard = Move.objects.filter(actor__username="meera", action="discard").get()
    assert discard.payload["card"] == focused
    # The computer player answers; the page says so and it is Meera's turn again.
    _my_turn(page)
    page.keyboard.press("o")  # pick from the open deck: the computer player's discard
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    assert "You took" in page.locator("#last-move").inner_text()


def test_sort_by_suit_and_best_groups_are_two_buttons_that_save_the_arrangement(page, meera):
    from tables.models import Game

    table = _bot_table("Practice deals")
    _open_table(page, "Practice deals")
    before = sorted(_hand_codes(page))
    with acted(page, "arrange"):
        page.click("#sort-suit")
    page.wait_for_timeout(300)
    game = Game.objects.get(table=table)
    seat = game.seats.get(user__username="meera").seat_no
    groups = next(h["groups"] for h in game.state["deal"]["hands"] if h["seat"] == seat)
    assert sorted(c for g in groups for c in g) == before
    for group in groups:  # one suit per group (printed jokers on their own)
        assert len({c[-1] for c in group if c != "JK"}) <= 1
    assert page.locator("#my-hand .group:not(.new-group)").count() == len(groups)
    with acted(page, "sort"):
        page.click(".act-sort button")
    assert page.locator(".act-sort button").inner_text() == "Best groups"
    assert sorted(_hand_codes(page)) == before


def test_the_sound_switch_is_remembered(page, meera):
    _bot_table("Practice deals")
    _open_table(page, "Practice deals")
    switch = page.locator("#sound-toggle")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    assert switch.inner_text().strip() == "Sound off"
    page.reload()
    page.wait_for_selector("#sound-toggle")
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"


def test_dropping_a_card_on_the_finish_slot_declares_with_it(
    browser,
    live_server_url,
    planted_table,  # noqa: F811
):
    context = browser.new_context(base_url=live_server_url, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    questions: list[str] = []
    page.on("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
    login(page, "meera", PASSWORD)
    page.goto(f"/tables/{planted_table.pk}/")
    page.wait_for_selector(".act-pick_closed button")
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    assert page.locator("#finish-slot").is_visible()
    _drag(
        page, page.locator(f'#my-hand .pcard[data-code="{FINISH}"]'), page.locator("#finish-slot")
    )
    page.wait_for_selector("#scoreboard .wrong-reason")
    assert questions and "finish slot" in questions[0]
    row = page.locator("#scoreboard tr.sheet-row", has_text="Meera")
    assert row.locator(".wrong-reason").inner_text().strip() == REASON
    assert row.locator(".mini-group.finish .pcard").get_attribute("data-code") == FINISH
    context.close()


def test_lobby_wallet_support_and_admin_at_360_px(browser, live_server_url, tmp_path):
    from ledger.services import wallet_deposit

    staff = get_user_model().objects.create_superuser(
        username="staff", password=PASSWORD, email="staff@example.com"
    )
    wallet_deposit(user=staff, currency="practice", amount=1000, idempotency_key="t:fund:staff")
    _bot_table("Practice deals")
    _bot_table("Evening practice")
    context = browser.new_context(base_url=live_server_url, viewport={"width": 360, "height": 780})
    context.set_default_timeout(10_000)
    page = context.new_page()
    login(page, "staff", PASSWORD)
    page.wait_for_selector("#lobby-tables")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    header = page.locator(".site-header").bounding_box()
    assert header["height"] < 60  # one line: the links fold behind Menu
    for button in page.locator("#lobby-tables button", has_text="Play now").all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert page.locator("#header-balance").is_visible()
    page.screenshot(path=str(shot_path("lobby-phone.png", tmp_path)))
    page.click("label[for=nav-toggle]")
    for name in ("Lobby", "Support", "Admin"):
        link = page.locator(".site-nav a", has_text=name).first
        assert link.is_visible()
        box = link.bounding_box()
        assert box["x"] + box["width"] <= 360
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.click("#header-balance")
    page.wait_for_url("**/wallet/**")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.goto("/support/deals/")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    context.close()

    context = browser.new_context(base_url=live_server_url, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    login(page, "staff", PASSWORD)
    page.wait_for_selector("#lobby-tables")
    assert page.locator(".site-nav a", has_text="Admin").is_visible()  # no menu on a laptop
    page.screenshot(path=str(shot_path("lobby.png", tmp_path)))
    context.close()
