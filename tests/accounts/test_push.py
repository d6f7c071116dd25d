"""Web Push (issue 35, docs/push.md): notices reach a push service signed (VAPID) and encrypted
(aes128gcm) from the task, after the commit; nothing goes to a kind switched off or a
self-excluded player; a gone subscription is dropped; the page's subscription is read strictly;
the manifest, the service worker and the offline page are served as browsers need them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from py_vapid import Vapid

from accounts import services as account_services
from accounts.friends import services as friends
from accounts.push.management.commands.make_vapid_keys import vapid_keys_new
from accounts.push.models import PushKind, PushSent, PushSubscription
from accounts.push.services import push_notify, push_preferences_set
from accounts.push.tasks import push_send
from tests.accounts.push_kit import (
    BrowserKeys,
    PushService,
    deliveries_finish,
    push_service_running,
    subscribe,
    vapid_check,
)


@pytest.fixture
def push_service(settings: Any) -> Iterator[PushService]:
    yield from push_service_running(settings)


NOTICE = {"title": "T", "body": "B", "url": "/", "kind": PushKind.YOUR_TURN}


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db(transaction=True)
def test_a_notice_goes_after_the_commit_signed_and_encrypted_to_every_browser(
    push_service: PushService, user_factory: Any
) -> None:
    player = user_factory()
    subscribe(push_service, player, "phone")
    subscribe(push_service, player, "laptop")
    with transaction.atomic():
        queued = push_notify(
            user_id=player.pk,
            kind=PushKind.TOURNAMENT_STARTING,
            title="Sunday Cup starts soon",
            body="Your tournament starts at 18:00: be at your table.",
            url="/tournaments/7/",
        )
        assert queued
        assert not push_service.arrived.wait(0.3), "sent before the commit"
    deliveries_finish()
    assert sorted(r.path for r in push_service.received) == ["/push/laptop", "/push/phone"]
    for request in push_service.received:
        assert request.vapid_ok, request.claims
        assert request.claims["aud"] == f"http://127.0.0.1:{push_service.port}"
        assert request.headers["content-encoding"] == "aes128gcm"
        assert request.payload == {
            "title": "Sunday Cup starts soon",
            "body": "Your tournament starts at 18:00: be at your table.",
            "url": "/tournaments/7/",
            "kind": "tournament_starting",
        }
    assert all(s.last_used is not None for s in PushSubscription.objects.filter(user=player))


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_change_queues_no_notice(
    push_service: PushService, user_factory: Any
) -> None:
    player = user_factory()
    subscribe(push_service, player, "phone")
    with pytest.raises(RuntimeError), transaction.atomic():
        push_notify(user_id=player.pk, kind=PushKind.YOUR_TURN, title="T", body="B", url="/")
        raise RuntimeError("the change failed")
    deliveries_finish()
    assert push_service.received == []


def test_a_kind_switched_off_gets_nothing_and_the_others_still_go(
    push_service: PushService, user_factory: Any
) -> None:
    player = user_factory()
    subscribe(push_service, player, "phone")
    push_preferences_set(
        user=player,
        tournament_starting=True,
        your_turn=False,
        friend_invite=True,
        friend_request=True,
    )
    assert push_send(player.pk, PushKind.YOUR_TURN, NOTICE) == 0
    assert push_service.received == []
    assert push_send(player.pk, PushKind.FRIEND_REQUEST, NOTICE) == 1
    assert [r.payload["title"] for r in push_service.received if r.payload] == ["T"]


def test_a_self_excluded_player_gets_nothing(push_service: PushService, user_factory: Any) -> None:
    excluded, other = user_factory(), user_factory()
    subscribe(push_service, excluded, "excluded")
    subscribe(push_service, other, "other")
    account_services.self_exclusion_start(user=excluded, period="7d")
    for kind in PushKind.values:
        assert push_send(excluded.pk, kind, NOTICE) == 0
    assert push_service.received == []
    assert push_send(other.pk, PushKind.YOUR_TURN, NOTICE) == 1
    assert [r.path for r in push_service.received] == ["/push/other"]


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_dropped(
    push_service: PushService, user_factory: Any, status: int
) -> None:
    player = user_factory()
    subscribe(push_service, player, "old")
    push_service.status = status
    assert push_send(player.pk, PushKind.YOUR_TURN, NOTICE) == 0
    assert len(push_service.received) == 1
    assert not PushSubscription.objects.filter(user=player).exists()


def test_a_push_service_failing_keeps_the_subscription(
    push_service: PushService, user_factory: Any
) -> None:
    player = user_factory()
    subscribe(push_service, player, "busy")
    push_service.status = 503
    assert push_send(player.pk, PushKind.YOUR_TURN, NOTICE) == 0
    assert PushSubscription.objects.filter(user=player).count() == 1


def test_a_once_only_notice_is_queued_once(push_service: PushService, user_factory: Any) -> None:
    player = user_factory()
    sent = [
        push_notify(
            user_id=player.pk,
            kind=PushKind.TOURNAMENT_STARTING,
            title="T",
            body="B",
            url="/",
            once_key="tournament-starting:1",
        )
        for _ in range(3)
    ]
    assert sent == [True, False, False]
    assert PushSent.objects.filter(user=player, key="tournament-starting:1").count() == 1


def test_without_vapid_keys_nothing_is_queued_and_the_profile_says_so(
    settings: Any, user_factory: Any
) -> None:
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    player = user_factory()
    assert not push_notify(user_id=player.pk, kind=PushKind.YOUR_TURN, title="T", body="", url="/")
    page = _client(player).get("/accounts/profile/")
    assert "Notifications are not set up on this site yet." in page.content.decode()
    assert 'id="push-on"' not in page.content.decode()


def test_the_profile_offers_the_button_and_saves_the_kinds(
    push_service: PushService, user_factory: Any
) -> None:
    player = user_factory()
    client = _client(player)
    html = client.get("/accounts/profile/").content.decode()
    assert 'id="push-on"' in html and "Turn on notifications" in html
    assert f'data-key="{push_service.public_key}"' in html
    assert "js/push.js" in html
    answer = client.post(
        "/accounts/push/preferences/", {"tournament_starting": "on", "friend_request": "on"}
    )
    assert answer.status_code == 302
    assert push_send(player.pk, PushKind.FRIEND_INVITE, NOTICE) == 0  # no browser yet
    wanted = client.get("/accounts/profile/").context["push"]["form"].initial
    assert wanted == {
        "tournament_starting": True,
        "your_turn": False,
        "friend_invite": False,
        "friend_request": True,
    }


# --- the page's subscription ----------------------------------------------------------------


def _subscription(service: PushService, name: str = "phone") -> dict[str, Any]:
    keys = BrowserKeys()
    return {
        "endpoint": f"http://127.0.0.1:{service.port}/push/{name}",
        "expirationTime": None,
        "keys": {"p256dh": keys.p256dh, "auth": keys.auth},
    }


def test_the_page_subscribes_and_unsubscribes(push_service: PushService, user_factory: Any) -> None:
    player = user_factory()
    client = _client(player)
    body = _subscription(push_service)
    answer = client.post("/accounts/push/subscribe/", body, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["ok"] is True
    assert PushSubscription.objects.get(user=player).endpoint == body["endpoint"]
    # Another player cannot forget it.
    other = _client(user_factory())
    gone = {"endpoint": body["endpoint"]}
    other.post("/accounts/push/unsubscribe/", gone, content_type="application/json")
    assert PushSubscription.objects.filter(user=player).count() == 1
    answer = client.post("/accounts/push/unsubscribe/", gone, content_type="application/json")
    assert answer.status_code == 200
    assert not PushSubscription.objects.exists()


def _bad_bodies(service: PushService) -> list[tuple[str, bytes]]:
    good = _subscription(service)
    keys = good["keys"]

    def body(**changes: Any) -> bytes:
        return json.dumps({**good, **changes}).encode()

    return [
        ("not json", b"{endpoint: nope"),
        ("not an object", b'["http://127.0.0.1/push/a"]'),
        ("oversize", body(endpoint=good["endpoint"] + "x" * 5000)),
        ("deeply nested", b"[" * 2000 + b"]" * 2000),
        ("nested endpoint", body(endpoint={"url": good["endpoint"]})),
        ("number endpoint", body(endpoint=12)),
        ("nested key", body(keys={**keys, "p256dh": {"x": keys["p256dh"]}})),
        ("keys a list", body(keys=[keys["p256dh"], keys["auth"]])),
        ("unknown field", body(extra="1")),
        ("unknown key", body(keys={**keys, "other": "1"})),
        ("expiry text", body(expirationTime="soon")),
        ("no endpoint", json.dumps({"keys": keys}).encode()),
        ("not a push service", body(endpoint="https://evil.example.com/push/a")),
        ("not a url", body(endpoint="javascript:alert(1)")),
        ("key not base64url", body(keys={**keys, "p256dh": "!!!" + keys["p256dh"][3:]})),
        ("key not on the curve", body(keys={**keys, "p256dh": "BA" + "A" * 85})),
        ("auth too short", body(keys={**keys, "auth": keys["auth"][:10]})),
        ("invalid utf-8", b'{"endpoint": "\xff"}'),
    ]


def test_the_subscribe_endpoint_refuses_every_malformed_body_with_words(
    push_service: PushService, user_factory: Any
) -> None:
    player = user_factory()
    client = _client(player)
    for what, raw in _bad_bodies(push_service):
        answer = client.post("/accounts/push/subscribe/", raw, content_type="application/json")
        assert answer.status_code == 400, (what, answer.content)
        assert answer.json()["error"], what
    assert not PushSubscription.objects.exists()


def test_plain_http_endpoints_are_refused_unless_allowed(
    push_service: PushService, settings: Any, user_factory: Any
) -> None:
    settings.PUSH_ENDPOINT_HTTP = False
    client = _client(user_factory())
    answer = client.post(
        "/accounts/push/subscribe/", _subscription(push_service), content_type="application/json"
    )
    assert answer.status_code == 400
    assert "endpoint" in answer.json()["fields"]
    assert not PushSubscription.objects.exists()


def test_subscribing_needs_a_login(push_service: PushService, db: Any) -> None:
    answer = Client().post(
        "/accounts/push/subscribe/", _subscription(push_service), content_type="application/json"
    )
    assert answer.status_code == 403
    assert not PushSubscription.objects.exists()


# --- friends ----------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_friend_request_and_an_invite_reach_the_player_asked(
    push_service: PushService, user_factory: Any
) -> None:
    """Through the friends' own services, which send their signals after the commit."""
    asker = user_factory(display_name="Asha")
    asked = user_factory(language="hi")
    subscribe(push_service, asked, "asked")
    request = friends.friend_request_send(sender=asker, receiver=asked)
    friends.friend_request_accept(user=asked, request_id=request.pk)
    invite = {"host": asker, "friend": asked, "table_id": 9, "table_name": "Asha's table"}
    friends.friend_invite_send(**invite, invite_url="/invite/abc/")
    friends.friend_invite_send(**invite, invite_url="/invite/abc/")  # the same: nothing new
    deliveries_finish()
    payloads = sorted(
        (r.payload for r in push_service.received if r.payload), key=lambda p: p["kind"]
    )
    assert [p["kind"] for p in payloads] == ["friend_invite", "friend_request"]
    assert payloads[0]["url"] == "/invite/abc/"
    assert payloads[1]["url"] == "/accounts/friends/"
    assert all("Asha" in p["body"] for p in payloads)
    assert payloads[1]["title"] == "दोस्ती का अनुरोध"  # in the asked player's Hindi


# --- the installable app ----------------------------------------------------------------------


def test_the_manifest_is_served_as_a_web_app_manifest(client: Client) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    assert manifest["theme_color"] == "#08543c" and manifest["background_color"] == "#f4f6f5"
    sizes = {(i["sizes"], i["purpose"]) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_the_service_worker_is_served_from_the_root_and_precaches_no_private_page(
    client: Client,
) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer["Cache-Control"]
    text = answer.content.decode()
    head = json.loads(text.split("const WORKER = ", 1)[1].split(";\n", 1)[0])
    assert head["offline"] == "/offline/"
    assert head["precache"][0] == "/offline/"
    assert all(p.startswith("/static/") for p in head["precache"][1:]), head
    assert 'addEventListener("push"' in text


def test_the_offline_page_is_in_both_languages_and_names_nobody(user_factory: Any) -> None:
    player = user_factory(display_name="Zubin Secret")
    html = _client(player).get("/offline/").content.decode()
    assert "You are offline" in html
    assert 'lang="hi"' in html and "ऑफ़लाइन" in html
    assert "Zubin Secret" not in html and player.username not in html


def test_make_vapid_keys_prints_a_pair_that_signs(db: Any) -> None:
    out = StringIO()
    call_command("make_vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    vapid = Vapid.from_string(lines["VAPID_PRIVATE_KEY"])
    token = vapid.sign({"sub": "mailto:a@example.com", "aud": "https://push.example.com"})
    ok, claims = vapid_check(
        token["Authorization"], lines["VAPID_PUBLIC_KEY"], "https://push.example.com"
    )
    assert ok and claims["sub"] == "mailto:a@example.com"


def _settings_load(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "rummy_site.settings", **env},
        capture_output=True,
        text=True,
        cwd=django_settings.BASE_DIR,
        timeout=60,
    )


def test_keys_that_are_not_a_vapid_pair_stop_the_start() -> None:
    public, private = vapid_keys_new()
    assert _settings_load(VAPID_PUBLIC_KEY=public, VAPID_PRIVATE_KEY=private).returncode == 0
    for pair in (
        {"VAPID_PUBLIC_KEY": public},
        {"VAPID_PUBLIC_KEY": "abc", "VAPID_PRIVATE_KEY": "d"},
    ):
        result = _settings_load(**pair)
        assert result.returncode != 0
        assert "VAPID_PRIVATE_KEY" in result.stderr


@pytest.mark.django_db(transaction=True)
def test_with_celery_a_real_worker_sends_the_notice(
    push_service: PushService, user_factory: Any, settings: Any
) -> None:
    """``TIMERS_BACKEND=celery``: the notice is a task on the broker (the in-memory one here),
    run by a real worker."""
    from celery.contrib.testing.worker import start_worker

    from rummy_site.celery import app

    settings.TIMERS_BACKEND = "celery"
    player = user_factory()
    subscribe(push_service, player, "phone")
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        with transaction.atomic():
            push_notify(
                user_id=player.pk, kind=PushKind.YOUR_TURN, title="Your turn", body="B", url="/"
            )
        assert push_service.arrived.wait(15), "the worker sent nothing"
    assert push_service.received[0].vapid_ok
    assert push_service.received[0].payload == {
        "title": "Your turn",
        "body": "B",
        "url": "/",
        "kind": "your_turn",
    }


def test_staff_read_subscriptions_and_set_preferences_in_the_admin(
    admin_client: Client, push_service: PushService, user_factory: Any
) -> None:
    player = user_factory()
    subscription = subscribe(push_service, player, "phone")
    push_preferences_set(
        user=player,
        tournament_starting=True,
        your_turn=False,
        friend_invite=True,
        friend_request=True,
    )
    listing = admin_client.get("/admin/push/pushsubscription/")
    assert listing.status_code == 200 and player.public_name in listing.content.decode()
    page = admin_client.get(f"/admin/push/pushsubscription/{subscription.pk}/change/")
    assert page.status_code == 200
    assert 'name="endpoint"' not in page.content.decode()  # read-only
    assert admin_client.get("/admin/push/pushsubscription/add/").status_code == 403
    assert admin_client.get("/admin/push/pushpreferences/").status_code == 200
    assert admin_client.get("/admin/push/pushsent/").status_code == 200
