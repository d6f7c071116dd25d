"""The pages obey their own Content-Security-Policy: no inline script or style, sockets only to
this site. Every CSP violation the browser reports (event or console) fails the test."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import login
from tests.browser.test_table_browser import _drag, _practice_table

PASSWORD = "tiles-and-tigers-42"

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " " + e.blockedURI + " " + e.sourceFile
    + ":" + e.lineNumber);
});
"""


@pytest.fixture
def csp_page(browser, transactional_db, live_server_url):
    context = browser.new_context(base_url=live_server_url, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(10_000)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    console: list[str] = []
    page.on(
        "console",
        lambda msg: (
            console.append(msg.text)
            if "Content Security Policy" in msg.text or "Content-Security-Policy" in msg.text
            else None
        ),
    )
    page.csp_console = console
    yield page
    context.close()


def _violations(page) -> list[str]:
    return [*page.evaluate("window.__cspViolations || []"), *page.csp_console]


def test_lobby_table_mid_game_and_wallet_raise_no_csp_violation(csp_page):
    from ledger.services import wallet_deposit

    page = csp_page
    user = get_user_model().objects.create_user(username="meera", password=PASSWORD)
    wallet_deposit(user=user, currency="practice", amount=1000, idempotency_key="t:fund:csp")
    _practice_table("CSP practice", "deals")

    response = page.goto("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    login(page, "meera", PASSWORD)
    page.wait_for_selector("#lobby-tables")
    assert _violations(page) == []

    row = page.locator("tr.lobby-row", has_text="CSP practice")
    row.locator("button", has_text="Play now").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    page.wait_for_selector(".act-pick_closed button", timeout=20_000)
    page.wait_for_function("() => document.documentElement.dataset.liveVersion !== undefined")
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    cards = page.locator("#my-hand .pcard")
    _drag(page, cards.nth(0), page.locator("#my-hand .new-group"))
    page.wait_for_timeout(500)
    # Leaving asks first, without an inline handler; dismissing keeps the seat.
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("form.leave button")
    assert re.search(r"/tables/\d+/$", page.url)
    assert page.locator("#my-hand .pcard").count() == 14
    assert _violations(page) == []

    page.goto("/wallet/?currency=practice")
    page.wait_for_selector("#statement")
    assert _violations(page) == []
