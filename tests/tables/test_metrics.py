"""What the observers of the write path record (rummy_site/observers.py, rummy_site/metrics.py):
a committed move is counted by action, its push fan-out timed and one structured event logged
with the table, the game and the version; a refused move counts nothing; the act endpoint's
latency is timed by action and outcome; ledger postings count on commit only; a timer's
lateness is measured from its deadline."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import transaction
from prometheus_client import REGISTRY
from tables_testkit import TableDriver, fund

from rummy_site import observers
from tables import services
from tables.rules.errors import InvalidMove


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def t(showable_three: TableDriver) -> TableDriver:
    return showable_three


def test_a_committed_move_is_counted_timed_and_logged(
    t: TableDriver, django_capture_on_commit_callbacks: Any, caplog: pytest.LogCaptureFixture
) -> None:
    picks = sample("rummy_moves_total", action="pick_closed")
    pushes = sample("rummy_push_fanout_seconds_count")
    caplog.set_level(logging.INFO, logger="rummy.events")
    with django_capture_on_commit_callbacks(execute=True):
        game = t.act(1, "pick_closed")
    assert sample("rummy_moves_total", action="pick_closed") == picks + 1
    assert sample("rummy_push_fanout_seconds_count") == pushes + 1
    [event] = [r for r in caplog.records if r.name == "rummy.events"]
    assert event.getMessage() == "game_committed"
    assert (event.table, event.game, event.version) == (t.table.pk, game.pk, game.version)  # type: ignore[attr-defined]
    assert event.actions == ["pick_closed"]  # type: ignore[attr-defined]
    assert event.from_version == game.version - 1  # type: ignore[attr-defined]


def test_a_refused_move_counts_nothing(
    t: TableDriver, django_capture_on_commit_callbacks: Any
) -> None:
    before = sample("rummy_moves_total", action="discard")
    pushes = sample("rummy_push_fanout_seconds_count")
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(InvalidMove):
        services.game_act(
            game_id=t.game().pk,
            user=t.users[2],  # not seat 2's turn
            action="discard",
            payload={"card": "AS"},
            expected_version=t.game().version,
        )
    assert sample("rummy_moves_total", action="discard") == before
    assert sample("rummy_push_fanout_seconds_count") == pushes


def test_the_act_endpoint_is_timed_by_action_and_outcome(t: TableDriver, client: Any) -> None:
    client.force_login(t.users[1])
    ok = sample("rummy_move_latency_seconds_count", action="pick_closed", outcome="ok")
    refused = sample("rummy_move_latency_seconds_count", action="pick_closed", outcome="refused")
    url = f"/tables/{t.table.pk}/act"
    stale = client.post(url, {"action": "pick_closed", "version": "0"}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 409
    fresh = client.post(
        url, {"action": "pick_closed", "version": str(t.game().version)}, HTTP_HX_REQUEST="true"
    )
    assert fresh.status_code == 200
    assert sample("rummy_move_latency_seconds_count", action="pick_closed", outcome="ok") == ok + 1
    assert (
        sample("rummy_move_latency_seconds_count", action="pick_closed", outcome="refused")
        == refused + 1
    )


def test_ledger_postings_count_when_they_commit(
    player: Any, django_capture_on_commit_callbacks: Any
) -> None:
    before = sum(
        sample("rummy_ledger_postings_total", kind=kind, currency="cash")
        for kind in ("adjustment", "deposit")
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                fund(player, 500)
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
    assert callbacks == []  # the rolled-back posting announces nothing
    entries = sample("rummy_ledger_entries_total")
    with django_capture_on_commit_callbacks(execute=True):
        fund(player, 500)
    after = sum(
        sample("rummy_ledger_postings_total", kind=kind, currency="cash")
        for kind in ("adjustment", "deposit")
    )
    assert after == before + 1
    assert sample("rummy_ledger_entries_total") == entries + 2  # two legs


def test_a_timer_is_measured_from_its_deadline(caplog: pytest.LogCaptureFixture) -> None:
    """Celery's task object is stood in for: its name and its request's ETA (the deadline)."""
    before = sample("rummy_timer_late_seconds_count", result="fired")
    late = sample("rummy_timer_late_seconds_sum", result="fired")
    eta = (datetime.now(UTC) - timedelta(seconds=1.5)).isoformat()
    task = SimpleNamespace(name=observers.TIMEOUT_TASK, request=SimpleNamespace(eta=eta))
    caplog.set_level(logging.INFO, logger="rummy.events")
    observers.on_task_prerun(task=task)
    observers.on_task_postrun(task=task, retval="fired", args=(7, 12))
    assert sample("rummy_timer_late_seconds_count", result="fired") == before + 1
    assert 1.4 < sample("rummy_timer_late_seconds_sum", result="fired") - late < 5
    [event] = [r for r in caplog.records if r.name == "rummy.events"]
    assert (event.game, event.version, event.result) == (7, 12, "fired")  # type: ignore[attr-defined]
