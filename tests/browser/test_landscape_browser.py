"""A phone on its side (844 x 390), upright (390 x 844) and a laptop (1280 x 800), in a real
browser against a live daphne: no seat around the felt lies over the decks (the turn's seat is
the taller one, with its timer), the table's whole name is readable in the felt's head, and the
winner's money on the result sheet is dark enough on the winner's pale row (axe's
color-contrast rule and the ratio itself)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import login
from tests.browser.test_a11y_browser import AXE
from tests.browser.test_phone_widths_browser import PASSWORD as CASH_PASSWORD
from tests.browser.test_phone_widths_browser import finished_game  # noqa: F401
from tests.browser.test_table_ui_browser import (  # noqa: F401
    PASSWORD,
    _bot_table,
    _my_turn,
    _open_table,
    meera,
)

LANDSCAPE = (844, 390)
VIEWPORTS = [LANDSCAPE, (390, 844), (1280, 800)]
VIEWPORT_IDS = ["landscape", "portrait", "laptop"]
# A practice table's name longer than the room beside the head's buttons on an upright phone
# ("Practice ..." was all it showed).
LONG_NAME = "Practice Deals Rummy"

# The seats on the felt whose box meets a deck's box (the closed deck, the open deck and the cut
# joker, each with its label), with both boxes; and how many seats and decks were measured.
SEATS_OVER_DECKS = """() => {
  const shown = e => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden";
  const seats = Array.from(document.querySelectorAll("#felt > .seat")).filter(shown);
  const decks = Array.from(document.querySelectorAll("#felt .piles > .pile")).filter(shown);
  const at = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
  const out = [];
  for (const s of seats) for (const d of decks) {
    const a = s.getBoundingClientRect(), b = d.getBoundingClientRect();
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 0 && h > 0) {
      out.push("seat " + s.dataset.seat + (s.classList.contains("turn") ? " (turn)" : "")
        + " [" + at(a) + "] over " + d.id + d.className + " [" + at(b) + "]");
    }
  }
  return [seats.length, decks.length, out];
}"""

# The felt head's title: cut (wider than its box, or one line with an ellipsis) or whole.
TITLE_CUT = """() => {
  const h1 = document.querySelector("#felt-root .table-head h1");
  const box = h1.getBoundingClientRect();
  return {
    text: h1.textContent.trim(),
    scroll: h1.scrollWidth,
    client: h1.clientWidth,
    right: Math.round(box.right),
    inner: window.innerWidth,
    ellipsis: getComputedStyle(h1).textOverflow === "ellipsis"
      && getComputedStyle(h1).whiteSpace === "nowrap",
  };
}"""

# The contrast ratio (WCAG 2) of each "won" amount on the result sheet against the background
# its row paints (the first opaque one up the tree).
WON_CONTRAST = """() => {
  const rgb = s => s.match(/[\\d.]+/g).map(Number);
  const lum = c => {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const back = e => {
    for (; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  return Array.from(document.querySelectorAll("#scoreboard .sheet-row.winner .money.won"))
    .map(e => {
      const [a, b] = [lum(rgb(getComputedStyle(e).color)), lum(back(e))].sort((x, y) => y - x);
      return [e.textContent.trim(), Math.round((a + 0.05) / (b + 0.05) * 100) / 100];
    });
}"""


def _page(browser, live_server_url, width: int, height: int, *, bypass_csp: bool = False):
    context = browser.new_context(
        base_url=live_server_url,
        viewport={"width": width, "height": height},
        bypass_csp=bypass_csp,
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    return context, page


def _no_seat_over_the_decks(page, when: str) -> None:
    page.wait_for_timeout(200)  # the seats' and the decks' swaps settle
    seats, decks, found = page.evaluate(SEATS_OVER_DECKS)
    assert seats >= 2 and decks >= 2, (when, seats, decks)
    assert found == [], (when, page.viewport_size, found)


@pytest.mark.parametrize(("width", "height"), VIEWPORTS, ids=VIEWPORT_IDS)
def test_no_seat_covers_the_decks_during_a_deal(
    browser,
    live_server_url,
    meera,  # noqa: F811
    width,
    height,
):
    """The seat whose turn it is (taller: its timer and extra time) stays off the decks, the
    player's own at the bottom and the computer player's at the top."""
    from tables.models import TableTemplate

    _bot_table("Practice deals")
    # the computer player thinks long enough for its turn to be measured too
    TableTemplate.objects.filter(name="Practice deals").update(bot_delay_s=3)
    context, page = _page(browser, live_server_url, width, height)
    _open_table(page, "Practice deals")
    _my_turn(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    assert page.locator("#felt > .seat.me.turn").count() == 1
    _no_seat_over_the_decks(page, "my turn")
    count = page.locator("#my-hand .pcard").count()
    page.click(".act-pick_closed button")
    page.wait_for_function(
        f"() => document.querySelectorAll('#my-hand .pcard').length === {count + 1}"
    )
    page.locator("#my-hand .pcard.picked").click()
    _no_seat_over_the_decks(page, "after a pick")
    page.click(".act-discard button")
    page.wait_for_selector("#felt > .seat.turn:not(.me)")
    _no_seat_over_the_decks(page, "the computer player's turn")
    _my_turn(page)
    _no_seat_over_the_decks(page, "my turn again")
    context.close()


@pytest.mark.parametrize("seats", [3, 6])
def test_no_seat_of_a_full_table_covers_the_decks(
    browser,
    live_server_url,
    meera,  # noqa: F811
    seats,
):
    _bot_table(f"Full {seats}", "pool101", seats=seats)
    context, page = _page(browser, live_server_url, *LANDSCAPE)
    _open_table(page, f"Full {seats}")
    _my_turn(page)
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        _no_seat_over_the_decks(page, f"{seats} seats")
    context.close()


@pytest.mark.parametrize(("width", "height"), VIEWPORTS[:2], ids=VIEWPORT_IDS[:2])
def test_the_tables_whole_name_is_readable_on_a_phone(
    browser,
    live_server_url,
    meera,  # noqa: F811
    width,
    height,
):
    _bot_table(LONG_NAME)
    context, page = _page(browser, live_server_url, width, height)
    _open_table(page, LONG_NAME)
    _my_turn(page)
    title = page.evaluate(TITLE_CUT)
    assert title["text"] == LONG_NAME
    assert title["scroll"] <= title["client"], title
    assert not title["ellipsis"], title
    assert title["right"] <= title["inner"], title
    # the head stays a slim bar: the name in two lines, the game's line under it
    head = page.locator(".table-head").bounding_box()
    assert head["height"] <= 60, head
    context.close()


# The site header's parts shown (its brand, its menu button and its links) whose middle lies
# outside the brand's line: on a second line. Its height and the brand's.
HEADER_ROWS = """() => {
  const shown = e => e.getClientRects().length && getComputedStyle(e).display !== "none";
  const head = document.querySelector(".site-header");
  const brand = head.querySelector(".brand").getBoundingClientRect();
  const parts = [head.querySelector(".nav-toggle-label"),
    ...head.querySelectorAll(".site-nav > *")];
  const mid = e => (e.getBoundingClientRect().top + e.getBoundingClientRect().bottom) / 2;
  return {
    below: parts.filter(shown).filter(e => mid(e) < brand.top || mid(e) > brand.bottom)
      .map(e => e.textContent.trim()),
    height: Math.round(head.getBoundingClientRect().height),
    brand: Math.round(brand.height),
  };
}"""


@pytest.mark.parametrize(("width", "height"), VIEWPORTS, ids=VIEWPORT_IDS)
def test_the_site_header_is_one_line(browser, live_server_url, meera, width, height):  # noqa: F811
    """A phone on its side folds the links behind "Menu" as an upright phone does (they took a
    second line, a sixth of its height, over the table); a laptop shows them all in one line."""
    context, page = _page(browser, live_server_url, width, height)
    login(page, "meera", PASSWORD)
    header = page.evaluate(HEADER_ROWS)
    assert header["below"] == [], header
    assert header["height"] <= 56, header
    assert header["brand"] <= 32, header  # "♠ Rummy" on one line
    my_games = page.locator(".site-nav a", has_text="My games")
    folded = page.locator(".nav-toggle-label").is_visible()
    assert folded == (width < 800 or height <= 500), header
    assert my_games.is_visible() == (not folded), header
    if folded:
        page.locator(".nav-toggle-label").click()
        assert my_games.is_visible()
    context.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)], ids=["phone", "laptop"])
def test_the_winners_money_on_the_result_sheet_has_enough_contrast(
    browser,
    live_server_url,
    finished_game,  # noqa: F811
    width,
    height,
):
    """The "+₹..." the winner won, green on the winner's pale yellow row: at least 4.5:1."""
    context, page = _page(browser, live_server_url, width, height, bypass_csp=True)
    login(page, "meera", CASH_PASSWORD)
    page.goto(f"/tables/{finished_game.table_id}/")
    page.wait_for_selector("#scoreboard tr.sheet-row.winner td.money.won")
    ratios = page.evaluate(WON_CONTRAST)
    assert ratios, "no winner's money on the sheet"
    assert all(ratio >= 4.5 for _text, ratio in ratios), ratios
    # axe's own color-contrast rule over the page (injected by the test: the CSP is bypassed)
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => await axe.run(document, {runOnly: ['color-contrast'],"
        " resultTypes: ['violations']})"
    )
    found = [
        f"{n['target'][0] if n['target'] else ''}: {n.get('failureSummary', '')[:160]}"
        for v in result["violations"]
        for n in v["nodes"]
    ]
    assert found == [], found
    context.close()
