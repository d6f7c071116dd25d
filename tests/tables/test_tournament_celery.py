"""The director driven by a real Celery worker on Redis (TIMERS_BACKEND "celery"): the last
registration of a sit & go queues the director's task, the worker starts the tournament and
seats its table; running the task again changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from test_celery_timers import wait_for
from tourney_kit import deals_template

from rummy_site.celery import app
from tables.tournaments import services as tourney
from tables.tournaments.models import Round, RoundGame, Tournament
from tables.tournaments.tasks import tournament_advance

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(settings: Any) -> Iterator[Any]:
    settings.TIMERS_BACKEND = "celery"
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w


def test_the_worker_starts_a_full_sit_and_go(worker: Any, players: list[Any]) -> None:
    t = tourney.tournament_create_sit_and_go(
        name="Celery", template=deals_template(), entry_fee=1_000, players_min=2, players_max=2
    )
    tourney.tournament_register(tournament=t, user=players[0])
    tourney.tournament_register(tournament=t, user=players[1])
    started = wait_for(lambda: Tournament.objects.get(pk=t.pk).status == "running", 15)
    assert started, "the worker did not start the tournament"
    assert wait_for(lambda: RoundGame.objects.filter(table__round__tournament=t).exists(), 5)
    assert tournament_advance.apply(args=(t.pk,)).get() == 0  # nothing more is due
    assert Round.objects.filter(tournament=t).count() == 1
    assert RoundGame.objects.filter(table__round__tournament=t).count() == 1
    staff = players[5]
    staff.is_staff = True
    staff.save()
    tourney.tournament_cancel(tournament=t, staff_user=staff, reason="test over")
