"""The installable app in Debian's chromium (issue 35, docs/push.md): the page finds the web
app manifest and the service worker, which registers and activates with the site's root as
its scope; Chromium's own installability checks (DevTools' ``Page.getInstallabilityErrors``)
find nothing missing; offline, a page shows the offline page; and the worker's cache holds
the offline page and public static files only, never a page behind the log-in."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from accounts.push.management.commands.make_vapid_keys import vapid_keys_new
from accounts.push.models import PushSubscription
from tests.accounts.push_kit import BrowserKeys
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, login, orm_beside_playwright
from tests.live_server import running_daphne, server_env

PASSWORD = "tiles-and-tigers-42"


@contextmanager
def _persistent_page(base_url: str) -> Iterator[Any]:
    """A page in a chromium profile of its own on disk: Chromium never offers to install a
    site from an incognito context (Playwright's ordinary contexts are), so the installability
    checks need a persistent one."""
    from playwright.sync_api import sync_playwright

    with (
        orm_beside_playwright(),
        tempfile.TemporaryDirectory() as profile,
        sync_playwright() as pw,
    ):
        context = pw.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            base_url=base_url,
            viewport={"width": 1280, "height": 860},
        )
        context.set_default_timeout(10_000)
        yield context.pages[0] if context.pages else context.new_page()
        context.close()


@pytest.fixture
def page(transactional_db, live_server_url) -> Iterator[object]:
    with _persistent_page(live_server_url) as pg:
        yield pg


def _worker_active(page) -> None:
    page.wait_for_function("() => document.documentElement.dataset.serviceWorker === 'active'")


def test_the_site_is_installable_by_chromiums_own_checks(page, live_server_url) -> None:
    response = page.goto("/")
    assert response is not None and response.ok
    csp = response.headers["content-security-policy"]
    assert "worker-src 'self'" in csp and "manifest-src 'self'" in csp
    _worker_active(page)
    assert page.evaluate("() => document.documentElement.dataset.serviceWorkerScope") == (
        f"{live_server_url}/"
    )
    registration = page.evaluate(
        """async () => {
            const r = await navigator.serviceWorker.getRegistration("/");
            return { scope: r.scope, script: r.active.scriptURL, state: r.active.state };
        }"""
    )
    assert registration == {
        "scope": f"{live_server_url}/",
        "script": f"{live_server_url}/sw.js",
        "state": "activated",
    }
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{live_server_url}/manifest.webmanifest"
    assert manifest["errors"] == []
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []


def test_offline_a_page_shows_the_offline_page_and_no_private_page_is_kept(
    page, live_server_url
) -> None:
    get_user_model().objects.create_user(username="meera", password=PASSWORD)
    page.goto("/")
    _worker_active(page)
    login(page, "meera", PASSWORD)
    page.goto("/wallet/")
    page.goto("/accounts/profile/")
    kept = page.evaluate(
        """async () => {
            const urls = [];
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
            }
            return urls.sort();
        }"""
    )
    assert "/offline/" in kept
    assert all(path == "/offline/" or path.startswith("/static/") for path in kept), kept
    page.context.set_offline(True)
    page.goto("/wallet/")
    assert page.locator("h1").first.inner_text() == "You are offline"
    assert "meera" not in page.content()
    page.context.set_offline(False)


# The browser's own subscribe needs a real push service (Google's, for Chromium), which a test
# cannot reach: the page's PushManager.subscribe is replaced by one that answers as a browser
# does, so the page's own code (static/js/push.js) is what is tested.
FAKE_SUBSCRIBE = """
window.__subscribeCalls = 0;
PushManager.prototype.subscribe = async function (options) {
  window.__subscribeCalls += 1;
  window.__subscribeKey = Array.from(new Uint8Array(options.applicationServerKey)).length;
  const json = {
    endpoint: "https://fcm.googleapis.com/fcm/send/test-" + Date.now(),
    expirationTime: null,
    keys: {
      p256dh: "%(p256dh)s",
      auth: "%(auth)s",
    },
  };
  return { endpoint: json.endpoint, toJSON: function () { return json; } };
};
"""


def test_the_profile_asks_permission_only_on_the_button_and_posts_the_subscription(
    transactional_db,
) -> None:
    public, private = vapid_keys_new()
    get_user_model().objects.create_user(username="meera", password=PASSWORD)
    env = server_env(VAPID_PUBLIC_KEY=public, VAPID_PRIVATE_KEY=private)
    with running_daphne(env) as url, _persistent_page(url) as page:
        keys = BrowserKeys()
        page.context.add_init_script(FAKE_SUBSCRIBE % {"p256dh": keys.p256dh, "auth": keys.auth})
        page.goto("/")
        _worker_active(page)
        login(page, "meera", PASSWORD)
        page.goto("/accounts/profile/")
        page.wait_for_function("() => document.getElementById('push-settings').dataset.pushState")
        # Nothing asked on load: the permission is still the browser's default.
        assert page.evaluate("() => Notification.permission") == "default"
        assert page.evaluate("() => window.__subscribeCalls") == 0
        assert page.locator("#push-on").is_visible()
        assert not page.locator("#push-off").is_visible()
        page.context.grant_permissions(["notifications"])
        page.click("#push-on")
        page.wait_for_function(
            "() => document.getElementById('push-settings').dataset.pushState === 'on'"
        )
        assert page.evaluate("() => window.__subscribeKey") == 65
        assert page.locator("#push-off").is_visible()
        assert not page.locator("#push-on").is_visible()
        assert page.locator("#push-result").inner_text() == "Notifications are on in this browser."
        saved = PushSubscription.objects.get(user__username="meera")
        assert saved.endpoint.startswith("https://fcm.googleapis.com/fcm/send/test-")
        assert (saved.p256dh, saved.auth) == (keys.p256dh, keys.auth)
