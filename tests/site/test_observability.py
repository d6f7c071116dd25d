"""Observability settings and endpoints: /metrics answers the monitoring network and staff
only, with the deposit and withdrawal states; DATABASE_PGBOUNCER=1 turns off what PgBouncer's
transaction mode cannot carry; LOG_FORMAT=json writes one JSON object a line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ledger.payments.models import Deposit, Withdrawal

ROOT = Path(__file__).resolve().parents[2]


def _settings_in_a_fresh_process(code: str, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "LOG_FORMAT")}
    environ.update(env, DJANGO_SETTINGS_MODULE="rummy_site.settings")
    script = "import django; django.setup()\nfrom django.conf import settings\n" + code
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return result.stdout


def test_pgbouncer_mode_turns_off_prepared_statements_and_server_side_cursors() -> None:
    show = (
        "d = settings.DATABASES['default']\n"
        "print(repr(d['OPTIONS'].get('prepare_threshold', 'unset')),"
        " d.get('DISABLE_SERVER_SIDE_CURSORS', False), d['OPTIONS']['pool']['max_size'])"
    )
    url = "postgres://rummy@127.0.0.1:6432/rummy"
    through = _settings_in_a_fresh_process(show, DATABASE_URL=url, DATABASE_PGBOUNCER="1")
    direct = _settings_in_a_fresh_process(show, DATABASE_URL=url)
    assert through.split() == ["None", "True", "10"]  # the pool (to PgBouncer) stays
    assert direct.split() == ["'unset'", "False", "10"]


def test_json_logs_are_one_object_a_line_with_the_event_fields() -> None:
    emit = (
        "import logging\n"
        "logging.getLogger('rummy.events').info('game_committed',"
        " extra={'table': 3, 'game': 9, 'version': 41})"
    )
    environ = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    environ.update(DJANGO_SETTINGS_MODULE="rummy_site.settings", LOG_FORMAT="json")
    script = "import django; django.setup()\n" + emit
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=environ, capture_output=True, text=True
    )
    [line] = [x for x in result.stderr.splitlines() if x.strip()]
    event = json.loads(line)
    assert event["message"] == "game_committed"
    assert (event["table"], event["game"], event["version"]) == (3, 9, 41)
    assert event["logger"] == "rummy.events"
    assert event["level"] == "INFO"


def test_metrics_answer_the_monitoring_network_and_staff_only(
    client: Any, user_factory: Callable[..., Any]
) -> None:
    player = user_factory()
    Deposit.objects.create(user=player, provider="sandbox", reference="r-1", amount=100)
    Deposit.objects.create(user=player, provider="sandbox", reference="r-2", amount=100)
    Withdrawal.objects.create(user=player, amount=100)
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.7").status_code == 404
    client.force_login(player)
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.7").status_code == 404
    client.force_login(user_factory(is_staff=True))
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.7").status_code == 200
    client.logout()
    answer = client.get("/metrics", REMOTE_ADDR="127.0.0.1")
    assert answer.status_code == 200
    text = answer.content.decode()
    assert 'rummy_deposits{state="pending"} 2.0' in text
    assert 'rummy_deposits{state="paid"} 0.0' in text
    assert 'rummy_withdrawals{state="pending"} 1.0' in text
    assert "rummy_moves_total" in text
