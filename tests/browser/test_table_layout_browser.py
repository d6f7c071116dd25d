"""The table's layout (issue 22) in a real browser against a live daphne: on phones (portrait and
landscape) a whole turn needs no scroll, the hand, the decks and every button in one screen; on a
laptop the open deck's history is open beside the felt, the live count stays with 14 cards and
the finish slot sits beside the hand; the seats' figures say what they are; after a deal the
result sheet is where the player looks."""

from __future__ import annotations

import pytest

from tests.browser.test_languages_browser import mixed_table  # noqa: F401
from tests.browser.test_result_browser import FINISH, planted_table, show_wrongly  # noqa: F401
from tests.browser.test_table_browser import (  # noqa: F401
    _wait_my_turn,
    classic_table,
    funded_player,
)
from tests.browser.test_table_ui_browser import (  # noqa: F401
    PASSWORD,
    _bot_table,
    _open_table,
    login,
    meera,
    shot_path,
)

# Each element a selector names (at least one must be rendered) inside the viewport as it is:
# the list of those that are not, with their boxes.
OUT_OF_VIEW = """(selectors) => {
  const out = [];
  const W = window.innerWidth, H = window.innerHeight;
  for (const sel of selectors) {
    const els = Array.from(document.querySelectorAll(sel)).filter(
      e => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden");
    if (!els.length) out.push(sel + ": not shown");
    for (const e of els) {
      const b = e.getBoundingClientRect();
      if (b.left < -0.5 || b.top < -0.5 || b.right > W + 0.5 || b.bottom > H + 0.5) {
        out.push(sel + " '" + (e.textContent || "").trim().slice(0, 24) + "' at "
          + [b.left, b.top, b.right, b.bottom].map(Math.round).join(","));
      }
    }
  }
  return out;
}"""
TURN = ["#my-hand", "#felt .pile.closed", "#felt .pile.open", "#my-area button"]
PHONES = [(390, 844), (844, 390), (360, 740)]


def _context(browser, live_server_url, width: int, height: int):
    context = browser.new_context(
        base_url=live_server_url, viewport={"width": width, "height": height}
    )
    context.set_default_timeout(15_000)
    return context


def _in_view(page, selectors: list[str]) -> None:
    assert page.evaluate("() => window.scrollY") == 0, "the page had to scroll"
    assert page.evaluate(OUT_OF_VIEW, selectors) == []


def _planted_page(browser, live_server_url, width: int, height: int):
    context = _context(browser, live_server_url, width, height)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, "meera", PASSWORD)
    return context, page


@pytest.mark.parametrize(("width", "height"), PHONES, ids=["portrait", "landscape", "small"])
def test_a_whole_turn_on_a_phone_needs_no_scroll(
    browser,
    live_server_url,
    meera,  # noqa: F811
    width,
    height,
    tmp_path,
):
    _bot_table("Practice deals")
    context = _context(browser, live_server_url, width, height)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    _open_table(page, "Practice deals")
    page.wait_for_selector(".act-pick_closed button", timeout=20_000)
    page.evaluate("() => window.scrollTo(0, 0)")
    # The player's turn: the hand, both decks and the pick buttons in one screen.
    _in_view(page, [*TURN, ".act-pick_closed button", ".act-pick_open button"])
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    page.locator("#my-hand .pcard.picked").click()
    # After picking: a card selected, Discard and Declare (and the finish slot) in view too.
    _in_view(page, [*TURN, ".act-discard button", ".act-declare button", "#finish-slot"])
    assert page.locator(".act-discard button").is_enabled()
    # The README's phone screenshots (one screen, no scrolling: the viewport only).
    name = {390: "table-phone.png", 844: "table-phone-landscape.png"}.get(width, "small.png")
    page.screenshot(path=str(shot_path(name, tmp_path) if width != 360 else tmp_path / name))
    page.click(".act-discard button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 13")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    # The table's head is one slim bar: title, prize, timer, Sound and Lobby.
    head = page.locator(".table-head").bounding_box()
    assert head["height"] <= 56, head
    for name in ("#sound-toggle", ".table-head a.button"):
        box = page.locator(name).bounding_box()
        assert box["y"] >= head["y"] and box["y"] + box["height"] <= head["y"] + head["height"]
    context.close()


@pytest.mark.parametrize(("width", "height"), PHONES, ids=["portrait", "landscape", "small"])
def test_a_pool_turn_with_its_drop_buttons_fits_a_phone(
    browser,
    live_server_url,
    planted_table,  # noqa: F811
    width,
    height,
):
    """Pool 101 has more buttons (Drop, Auto drop): they fit the screen too."""
    context, page = _planted_page(browser, live_server_url, width, height)
    page.goto(f"/tables/{planted_table.pk}/")
    page.wait_for_selector(".act-pick_closed button")
    _in_view(page, [*TURN, ".act-drop button", ".act-set_auto_drop button"])
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    page.locator(f'#my-hand .pcard.picked[data-code="{FINISH}"]').click()
    _in_view(page, [*TURN, ".act-discard button", ".act-declare button", "#finish-slot"])
    context.close()


@pytest.mark.parametrize(("width", "height"), PHONES, ids=["portrait", "landscape", "small"])
def test_a_classic_turn_with_the_melds_on_the_table_fits_a_phone(
    new_page,
    classic_table,  # noqa: F811
    funded_player,  # noqa: F811
    width,
    height,
):
    """Classic 10-card: the melds on the table and Lay down as well."""
    page = new_page({"width": width, "height": height})
    login(page, "meera", PASSWORD)
    page.locator("tr.lobby-row", has_text="Browser classic").locator("button").click()
    page.wait_for_selector("#my-hand .pcard")
    _wait_my_turn(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    _in_view(page, [*TURN, "#table-melds"])
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 11")
    page.locator("#my-hand .pcard").last.click()
    _in_view(page, [*TURN, "#table-melds", ".act-lay_down button", ".act-discard button"])


def test_the_table_in_hindi_fits_a_small_phone(new_page, mixed_table):  # noqa: F811
    """Hindi words are longer: the slim bar stays one line and nothing scrolls sideways."""
    table, _players = mixed_table
    page = new_page({"width": 360, "height": 740})
    login(page, "asha", PASSWORD)
    page.goto(f"/tables/{table.pk}/")
    page.wait_for_selector("#my-hand .pcard")
    assert page.locator("html").get_attribute("lang") == "hi"
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert page.locator(".table-head").bounding_box()["height"] <= 56
    _in_view(page, ["#my-hand", "#felt .pile.closed", "#felt .pile.open", "#my-area button"])


def test_on_a_laptop_the_felt_uses_its_width(browser, live_server_url, meera):  # noqa: F811
    _bot_table("Practice deals")
    context = _context(browser, live_server_url, 1280, 800)
    page = context.new_page()
    _open_table(page, "Practice deals")
    page.wait_for_selector(".act-pick_closed button", timeout=20_000)
    # The open deck's history is open beside the felt, not a lone link.
    history = page.locator("#open-history")
    assert history.get_attribute("open") is not None
    assert page.locator("#recent-moves").is_visible()
    felt = page.locator("#felt").bounding_box()
    panel = history.bounding_box()
    assert panel["x"] >= felt["x"] + felt["width"], (panel, felt)
    assert panel["y"] < felt["y"] + felt["height"] and panel["height"] > 100
    _in_view(page, TURN)
    assert page.locator("#hand-count").is_visible()
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    # The live count stays with the 14th card in the hand.
    assert page.locator("#hand-count").is_visible()
    assert page.locator("#hand-count").inner_text().strip().isdigit()
    # The finish slot sits beside the hand, not among the buttons.
    hand = page.locator("#my-hand").bounding_box()
    slot = page.locator("#finish-slot").bounding_box()
    assert slot["x"] >= hand["x"] + hand["width"] - 1
    assert hand["y"] <= slot["y"] + slot["height"] / 2 <= hand["y"] + hand["height"]
    assert page.locator(".actions #finish-slot").count() == 0
    page.locator("#my-hand .pcard.picked").click()
    _in_view(page, [*TURN, ".act-discard button", ".act-declare button", "#finish-slot"])
    # A history the player closes stays closed.
    page.click("#open-history summary")
    page.click(".act-discard button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 13")
    page.wait_for_timeout(500)
    assert page.locator("#open-history").get_attribute("open") is None
    context.close()


def test_the_seats_say_what_their_figures_are(browser, live_server_url, planted_table):  # noqa: F811
    context, page = _planted_page(browser, live_server_url, 1280, 800)
    page.goto(f"/tables/{planted_table.pk}/")
    page.wait_for_selector(".act-pick_closed button")
    # Pool 101: each seat's points and drops are labelled in words, with a title to explain.
    ravi = page.locator("#felt .seat", has_text="Ravi")
    assert "score 0 pts" in ravi.inner_text()
    assert "5 drops left" in ravi.inner_text()
    assert ravi.locator(".seat-drops").get_attribute("title")
    assert ravi.locator(".seat-score").get_attribute("title") == "Total points"
    context.close()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_after_a_deal_the_result_sheet_is_where_the_player_looks(
    browser,
    live_server_url,
    planted_table,  # noqa: F811
    width,
    height,
):
    context, page = _planted_page(browser, live_server_url, width, height)
    show_wrongly(page, planted_table)
    page.wait_for_timeout(300)
    # The sheet is where the player looks: at the top of the screen, above the empty felt.
    sheet = page.locator("#scoreboard").bounding_box()
    area = page.locator("#table-area").bounding_box()
    assert 0 <= sheet["y"] < height / 3, sheet
    assert sheet["y"] < area["y"], (sheet, area)
    context.close()


# The seats' boxes on the felt that overlap another seat's, or stick out of the viewport.
SEATS_CLASH = """() => {
  const seats = Array.from(document.querySelectorAll("#felt > .seat"));
  const boxes = seats.map(s => [s.dataset.seat, s.getBoundingClientRect()]);
  const out = [];
  for (const [seat, b] of boxes) {
    if (b.left < -0.5 || b.right > window.innerWidth + 0.5) out.push("seat " + seat + " out");
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i][1], b = boxes[j][1];
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 1 && h > 1) {
      const at = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
      out.push("seats " + boxes[i][0] + " (" + at(a) + ") and " + boxes[j][0]
        + " (" + at(b) + ") overlap");
    }
  }
  return [seats.length, out];
}"""


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_no_seat_covers_another_on_a_phone_or_a_laptop(
    browser,
    live_server_url,
    meera,  # noqa: F811
    seats,
):
    """Every seat of a full table is seen whole: no seat lies over another, none sticks out of
    the screen, in portrait, landscape and on a laptop."""
    _bot_table(f"Full {seats}", "pool101", seats=seats)
    context = _context(browser, live_server_url, 390, 844)
    page = context.new_page()
    _open_table(page, f"Full {seats}")
    for width, height in [(390, 844), (844, 390), (360, 740), (1280, 800)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        found = page.evaluate(SEATS_CLASH)
        assert found == [seats, []], (width, height, found)
    context.close()
