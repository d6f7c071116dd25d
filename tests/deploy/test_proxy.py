"""Through the proxy (deploy/nginx.conf.template, Debian's nginx) in front of live web
processes run as deploy/up runs them: the health check, the WebSocket upgrade with a logged-in
table socket, static files from disk, /metrics refused from outside, the client address the
app sees, and a web process stopped mid-traffic with no request lost."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import threading
import time
from typing import cast

import httpx
import pytest
import websockets
from django.test import Client

from tests.deploy.conftest import SECRET
from tests.deploy.proxy import running_nginx, running_web

pytestmark = [pytest.mark.deploy]
CLIENT_ADDRESS = "127.0.0.2"


def _table_and_session(user_factory):
    from tables.models import TableTemplate
    from tables.services import table_create

    template = TableTemplate.objects.create(
        name="Proxy test", variant="pool101", seats_min=2, seats_max=2, entry_fee=100
    )
    table = table_create(template=template)
    client = Client()
    client.force_login(user_factory())
    return table, client.cookies["sessionid"].value


def test_health_websocket_static_and_metrics_through_the_proxy(
    transactional_db, user_factory, tmp_path, static_root, web_env
):
    table, session = _table_and_session(user_factory)
    with (
        running_web(web_env, tmp_path / "web.log") as (web_port, _proc),
        running_nginx([web_port], tmp_path / "run", static_root, SECRET) as proxy,
    ):
        health = httpx.get(f"http://{proxy}/healthz", timeout=10)
        assert health.status_code == 200
        assert health.headers["server"] == "nginx"
        assert health.json()["status"] == "ok"

        async def table_socket() -> str:
            async with websockets.connect(
                f"ws://{proxy}/ws/tables/{table.pk}/",
                additional_headers={"Cookie": f"sessionid={session}", "Origin": f"http://{proxy}"},
            ) as ws:
                return str(await asyncio.wait_for(ws.recv(), timeout=10))

        first = asyncio.run(table_socket())
        hello = json.loads(first)  # the consumer's hello: the current version
        assert hello["t"] == "sync" and isinstance(hello["v"], int)

        static = httpx.get(f"http://{proxy}/static/js/probe.js", timeout=10)
        assert static.status_code == 200
        assert static.text == "// served by nginx\n"
        assert "content-security-policy" not in static.headers  # not through Django

        assert httpx.get(f"http://{proxy}/metrics", timeout=10).status_code == 404
        direct = httpx.get(f"http://127.0.0.1:{web_port}/metrics", timeout=10)
        assert direct.status_code == 200
        assert "rummy_open_sockets" in direct.text
        assert "rummy_deposits{" in direct.text


def test_the_app_sees_the_client_address_nginx_saw_not_a_forged_one(
    transactional_db, tmp_path, static_root, web_env
):
    from axes.models import AccessAttempt

    _outside_a_window_edge(group="login", key="ip:127.0.0.1", margin_s=30)
    with (
        running_web(web_env, tmp_path / "web.log") as (web_port, _proc),
        running_nginx([web_port], tmp_path / "run", static_root, SECRET) as proxy,
        httpx.Client(
            base_url=f"http://{proxy}",
            timeout=10,
            # The client comes from 127.0.0.2; nginx itself reaches the app from 127.0.0.1.
            transport=httpx.HTTPTransport(local_address=CLIENT_ADDRESS),
        ) as client,
    ):
        page = client.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert token, page.text[:500]
        answer = client.post(
            "/accounts/login/",
            data={"username": "nobody-here", "password": "wrong", "csrfmiddlewaretoken": token[1]},
            headers={"X-Forwarded-For": "203.0.113.9"},  # forged by the client
        )
        assert answer.status_code == 200
    addresses = set(AccessAttempt.objects.values_list("ip_address", flat=True))
    # The address nginx saw (its X-Forwarded-For, trusted from the one proxy hop), neither the
    # proxy's own (the peer the app sees) nor the one the client forged.
    assert addresses == {CLIENT_ADDRESS}


def _outside_a_window_edge(*, group: str, key: str, margin_s: int) -> None:
    """django-ratelimit counts in fixed windows whose edges it places by the key
    (``_get_window``): 40 posts that straddle an edge are counted in two windows, and the
    limit would seem to lift. Wait out an edge of ``group``'s limit (``RATE_LIMITS``) that
    falls within the next ``margin_s``."""
    from django.conf import settings
    from django_ratelimit.core import _get_window, _split_rate

    limits = cast("list[tuple[str, str]]", settings.RATE_LIMITS[group]["limits"])
    ((_kind, rate),) = limits
    _count, period_s = _split_rate(rate)
    left = _get_window(key, period_s) - time.time()
    if left < margin_s:
        time.sleep(max(left, 0) + 1)


def test_a_process_on_the_host_cannot_choose_its_address_straight_to_a_web_process(
    transactional_db, tmp_path, static_root, web_env
):
    """A process of the proxy's host talks to a daphne directly (its peer address is the
    trusted 127.0.0.1) and rotates a forged X-Forwarded-For: without the proxy's secret the
    header is ignored, every attempt is counted at 127.0.0.1, and the log-in limit (30 in
    10 minutes an address) stops it. Through nginx, the address nginx saw still counts."""
    from axes.models import AccessAttempt

    _outside_a_window_edge(group="login", key="ip:127.0.0.1", margin_s=30)
    with (
        running_web(web_env, tmp_path / "web.log") as (web_port, _proc),
        httpx.Client(base_url=f"http://127.0.0.1:{web_port}", timeout=10) as direct,
    ):
        page = direct.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert token, page.text[:500]
        statuses = []
        for n in range(40):
            answer = direct.post(
                "/accounts/login/",
                data={
                    "username": f"nobody-{n}",
                    "password": "wrong",
                    "csrfmiddlewaretoken": token[1],
                },
                headers={
                    "X-Forwarded-For": f"203.0.113.{n + 1}",
                    "X-Proxy-Secret": "a guess",
                },
            )
            statuses.append(answer.status_code)
    assert statuses[:30] == [200] * 30
    assert set(statuses[30:]) == {429}
    addresses = set(AccessAttempt.objects.values_list("ip_address", flat=True))
    assert addresses == {"127.0.0.1"}


def test_a_web_process_stopped_mid_traffic_loses_no_request(
    transactional_db, tmp_path, static_root, web_env
):
    with (
        running_web(web_env, tmp_path / "web1.log") as (port1, proc1),
        running_web(web_env, tmp_path / "web2.log") as (port2, _proc2),
        running_nginx([port1, port2], tmp_path / "run", static_root, SECRET) as proxy,
    ):
        statuses: list[int] = []
        stop = threading.Event()

        def traffic() -> None:
            with httpx.Client(base_url=f"http://{proxy}", timeout=10) as client:
                while not stop.is_set():
                    try:
                        statuses.append(client.get("/healthz").status_code)
                    except httpx.HTTPError:
                        statuses.append(-1)

        worker = threading.Thread(target=traffic)
        worker.start()
        time.sleep(1.0)
        proc1.send_signal(signal.SIGTERM)
        assert proc1.wait(timeout=15) == 0
        time.sleep(1.0)
        stop.set()
        worker.join(timeout=15)
    assert len(statuses) > 20
    assert set(statuses) == {200}
