"""A browser through the proxy of deploy/ (Debian's nginx on a port other than 80, in front of
a web process run as deploy/up runs it): sign up, log out, log in, Play now and a move on the
table's socket. Every form a browser posts must pass Django's origin check behind the proxy,
which sees the port the browser used."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from tests.browser.conftest import acted, sign_up
from tests.browser.test_table_browser import _practice_table, _wait_live, _wait_my_turn
from tests.deploy.proxy import running_nginx, running_web
from tests.live_server import server_env

PASSWORD = "tiles-and-tigers-42"


@pytest.fixture
def proxied(transactional_db, tmp_path) -> object:
    env = server_env(TRUSTED_PROXY_COUNT="1", TRUSTED_PROXIES="127.0.0.1")
    static_root = Path(settings.STATIC_ROOT)
    assert (static_root / "js" / "table.js").exists(), "collectstatic first (scripts/setup)"
    with (
        running_web(env, tmp_path / "web.log") as (web_port, _proc),
        running_nginx([web_port], tmp_path / "run", static_root) as proxy,
    ):
        yield f"http://{proxy}"


def test_sign_up_log_in_play_now_and_a_move_through_the_proxy(browser, proxied):
    assert not proxied.endswith(":80")
    _practice_table("Proxied practice", "deals")
    context = browser.new_context(base_url=proxied, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(15_000)
    page = context.new_page()
    sign_up(page, "ravi", "Ravi K", PASSWORD)
    assert "expired" not in page.content()
    page.locator("form[action='/accounts/logout/'] button").first.click()
    page.goto("/accounts/login/")
    page.fill("#id_username", "ravi")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/")
    page.locator("tr.lobby-row", has_text="Proxied practice").locator("button").click()
    page.wait_for_selector("#my-hand .pcard")
    _wait_my_turn(page)
    _wait_live(page)
    with acted(page, "pick_closed"):
        page.click(".act-pick_closed button")
    page.wait_for_function("() => document.querySelectorAll('#my-hand .pcard').length === 14")
    context.close()
