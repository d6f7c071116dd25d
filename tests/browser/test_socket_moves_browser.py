"""Moves over the table's socket in Chromium against a live daphne: a deal played with no POST,
the socket closed mid-deal (the page falls back to the POST, then back to the socket), and a
missed frame filled from the socket's history, or by loading the view when it is no longer
kept; after each, the page shows what a fresh load of it shows."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.conftest import acted, login
from tests.browser.test_result_browser import FINISH, PASSWORD, planted_table  # noqa: F401
from tests.browser.test_table_browser import _same_as_a_fresh_load, _wait_live
from tests.live_server import running_daphne, server_env

ACT = re.compile(r"/tables/\d+/act$")
VIEW = re.compile(r"/tables/\d+/view$")


class Watched:
    """The page's table socket, routed through the test: its frames can be dropped, and the
    socket closed as a restarting server closes it."""

    def __init__(self, page) -> None:
        self.routes: list = []
        self.refuse = False  # refuse new sockets (as a server that is restarting)
        self.drop_felt = 0  # the next felt frames from the server to drop
        self.dropped: list[str] = []
        self.requests: list[str] = []
        page.on("request", lambda request: self.requests.append(request.url))
        page.route_web_socket(re.compile(r"/ws/tables/\d+/$"), self._route)

    def _route(self, ws) -> None:
        if self.refuse:
            ws.close(code=1013, reason="try again later")
            return
        server = ws.connect_to_server()
        self.routes.append((ws, server))

        def from_server(message) -> None:
            if self.drop_felt and isinstance(message, str) and message.startswith('{"t":"felt"'):
                self.drop_felt -= 1
                self.dropped.append(message)
                return
            ws.send(message)

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))

    def close(self) -> None:
        """Close the open socket as a restarting server does (1012: the page reconnects)."""
        ws, server = self.routes[-1]
        ws.close(code=1012, reason="restart")
        server.close()

    def posts(self) -> int:
        return sum(bool(ACT.search(url)) for url in self.requests)

    def fetches(self) -> int:
        return sum(bool(VIEW.search(url)) for url in self.requests)


def _open(page, table) -> Watched:
    watched = Watched(page)
    login(page, "meera", PASSWORD)
    page.goto(f"/tables/{table.pk}/")
    page.wait_for_selector(".act-pick_closed button")
    _wait_live(page)
    return watched


def test_a_deal_played_over_the_socket_sends_no_post(page, planted_table):  # noqa: F811
    from tables.models import Game

    page.on("dialog", lambda dialog: dialog.accept())
    watched = _open(page, planted_table)
    with acted(page, "pick_closed"):
        page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    with acted(page, "sort"):
        page.click(".act-sort button")
    page.locator(f'#my-hand .pcard[data-code="{FINISH}"]').first.click()
    with acted(page, "declare"):
        page.click(".act-declare button")
    page.wait_for_selector("#scoreboard")
    assert watched.posts() == 0, watched.requests
    game = Game.objects.get(table=planted_table)
    assert game.state["history"], "the deal ended"
    _same_as_a_fresh_load(page)


def test_with_the_socket_closed_a_move_goes_as_the_post_then_back_on_the_socket(
    page,
    planted_table,  # noqa: F811
):
    from tables.models import Move

    watched = _open(page, planted_table)
    watched.refuse = True
    watched.close()
    page.wait_for_function("() => document.documentElement.dataset.livePolling === 'on'")
    with page.expect_response(lambda r: bool(ACT.search(r.url))) as answer:
        page.click(".act-pick_closed button")
    assert answer.value.status == 200  # no socket open: the answer brings the player's parts
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    watched.refuse = False
    # The extension reconnects; the next move goes on the socket again.
    page.wait_for_function(
        "() => document.documentElement.dataset.livePolling === 'off'", timeout=20_000
    )
    _wait_live(page)
    posts = watched.posts()
    card = page.locator("#my-hand .pcard.picked").first
    code = card.get_attribute("data-code")
    card.click()
    with acted(page, "discard"):
        page.click(".act-discard button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 13")
    assert watched.posts() == posts
    assert (
        Move.objects.filter(actor__username="meera", action="discard").get().payload["card"] == code
    )
    _same_as_a_fresh_load(page)


def test_a_missed_frame_is_filled_from_the_sockets_history(page, planted_table):  # noqa: F811
    watched = _open(page, planted_table)
    watched.drop_felt = 1  # the pick's felt is lost on the way
    with acted(page, "pick_closed"):
        page.click(".act-pick_closed button")
    page.locator("#my-hand .pcard.picked").first.click()
    fetches = watched.fetches()
    with acted(page, "discard"):
        page.click(".act-discard button")
    # The discard's felt starts at a version the page never saw: it asks the socket since the
    # version it shows, and applies the two felt frames in order.
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 13")
    _wait_live(page)
    assert len(watched.dropped) == 1
    assert watched.fetches() == fetches  # no view loaded over HTTP
    _same_as_a_fresh_load(page)


@pytest.fixture
def forgetful_server(transactional_db) -> Iterator[str]:
    """A daphne that keeps one felt frame of a game only: a page two behind loads its view."""
    with running_daphne(server_env(LIVE_HISTORY_FRAMES="1")) as url:
        yield url


def test_a_page_too_far_behind_for_the_history_loads_its_view(
    browser,
    forgetful_server,
    planted_table,  # noqa: F811
):
    context = browser.new_context(
        base_url=forgetful_server, viewport={"width": 1280, "height": 860}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    watched = _open(page, planted_table)
    watched.drop_felt = 2  # the pick's felt and the sort's
    with acted(page, "pick_closed"):
        page.click(".act-pick_closed button")
    with acted(page, "sort"):
        page.click(".act-sort button")
    fetches = watched.fetches()
    page.locator("#my-hand .pcard.picked").first.click()
    with acted(page, "discard"):
        page.click(".act-discard button")
    page.wait_for_function(
        "() => document.querySelectorAll('#my-hand .pcard').length === 13", timeout=15_000
    )
    _wait_live(page)
    assert watched.fetches() > fetches  # the view was loaded over HTTP
    _same_as_a_fresh_load(page)
    context.close()


def test_a_view_loaded_while_frames_arrive_is_caught_up_after_it(page, planted_table):  # noqa: F811
    """A re-fetch answered with the view as it was before a move whose frames the page applied
    while the answer was on its way: the page catches up from the view it then shows instead of
    staying behind (no frame would come to tell it)."""
    watched = _open(page, planted_table)
    held: list = []

    def hold(route) -> None:
        held.append((route, route.fetch()))  # rendered now, answered after the move

    page.route(VIEW, hold)
    page.evaluate("() => window.RummyTable.refetch()")
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the view was asked for"
    with acted(page, "pick_closed"):
        page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    # What the page shows when the held view has been swapped in (before the catch-up it then
    # asks for can answer): waited for, so the checks below cannot pass before the swap.
    page.evaluate(
        """() => document.addEventListener("htmx:afterSettle", e => {
             const xhr = e.detail && e.detail.xhr;
             if (!xhr || !xhr.responseURL.endsWith("/view") || window.viewSwapped) return;
             window.viewSwapped = {
               cards: document.querySelectorAll("#my-hand .pcard").length,
               catchingUp: document.documentElement.dataset.catchingUp === "on",
             };
           })"""
    )
    route, answer = held[0]
    route.fulfill(response=answer)
    swapped = page.wait_for_function("() => window.viewSwapped").json_value()
    # The old view (13 cards) swapped in, and the page asked what it missed since it.
    assert swapped == {"cards": 13, "catchingUp": True}
    page.wait_for_function(
        "() => !document.documentElement.dataset.catchingUp"
        " && document.querySelectorAll('#my-hand .pcard').length === 14"
        " && document.getElementById('felt-root').dataset.version"
        " === document.documentElement.dataset.liveVersion"
    )
    assert watched.fetches() >= 1
    _same_as_a_fresh_load(page)


def test_a_hand_pushed_again_as_it_was_keeps_the_selected_card(page, planted_table):  # noqa: F811
    """A push that re-sends the player's hand unchanged (another part of it changed) while a
    card is selected keeps it selected: the player's next press of Discard still works."""
    _open(page, planted_table)
    with acted(page, "pick_closed"):
        page.click(".act-pick_closed button")
    card = page.locator("#my-hand .pcard.picked").first
    code = card.get_attribute("data-code")
    card.click()
    assert page.locator(".act-discard button").is_enabled()
    page.evaluate(
        """() => {
          const area = document.getElementById('my-area').cloneNode(true);
          area.querySelectorAll('.selected').forEach(c => c.classList.remove('selected'));
          window.RummyTable.applySeat(window.RummyTable.frame(area.outerHTML));
        }"""
    )
    assert page.locator("#my-hand .pcard.selected").count() == 1
    assert page.locator("#my-hand .pcard.selected").get_attribute("data-code") == code
    assert page.locator(".act-discard button").is_enabled()
    with acted(page, "discard"):
        page.click(".act-discard button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 13")
