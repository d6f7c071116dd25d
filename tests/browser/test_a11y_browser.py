"""An automated accessibility scan (axe-core from npm, never served by the site) of the lobby,
a table mid-deal and a result sheet: no serious or critical violation. axe is injected into
the page by the test, so these pages are opened in a context that bypasses the site's
Content-Security-Policy (tests/browser/test_csp_browser.py checks the policy itself)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.test_result_browser import planted_table, show_wrongly  # noqa: F401
from tests.browser.test_table_ui_browser import PASSWORD, _bot_table, login, meera  # noqa: F401

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def _scan(page, what: str) -> None:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [
        f"{v['id']} ({v['impact']}): {v['help']} - "
        + "; ".join(n["target"][0] if n["target"] else "" for n in v["nodes"][:5])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == [], f"{what}: {serious}"


@pytest.fixture
def a11y_context(browser, live_server_url):
    if not AXE.exists():
        raise RuntimeError(f"{AXE} is missing: npm ci installs axe-core (package.json)")

    def make(width: int = 1280, height: int = 800):
        context = browser.new_context(
            base_url=live_server_url, viewport={"width": width, "height": height}, bypass_csp=True
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    contexts: list = []
    yield make
    for context in contexts:
        context.close()


@pytest.mark.parametrize("width", [1280, 390], ids=["laptop", "phone"])
def test_the_lobby_and_a_table_mid_deal_have_no_serious_violation(a11y_context, meera, width):  # noqa: F811
    _bot_table("Practice deals")
    page = a11y_context(width, 844 if width < 800 else 800)
    login(page, "meera", PASSWORD)
    page.wait_for_selector("#lobby-tables")
    _scan(page, "lobby")
    page.locator("tr.lobby-row", has_text="Practice deals").locator("button").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    page.wait_for_selector(".act-pick_closed button", timeout=20_000)
    page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    page.locator("#my-hand .pcard").first.click()
    if page.locator("#open-history").get_attribute("open") is None:  # open on wide screens
        page.click("#open-history summary")
    page.click("#key-legend summary")
    _scan(page, "table mid-deal")


def test_a_result_sheet_has_no_serious_violation(a11y_context, planted_table):  # noqa: F811
    page = a11y_context()
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, "meera", PASSWORD)
    show_wrongly(page, planted_table)
    _scan(page, "result sheet")
