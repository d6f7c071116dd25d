"""Waking a tournament's director (after a registration or a table's game ending)."""

from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings as django_settings

from tables.services._context import now_or_clock, to_dt
from tables.tournaments.models import LIVE_STATUSES, Tournament
from tables.tournaments.push import tournament_push

logger = logging.getLogger(__name__)

ADVANCE_TASK = "tables.tournaments.tasks.tournament_advance"


def tournament_wake(*, tournament_id: int) -> None:
    """Make the tournament due now (after a registration or a table's game ending): the next
    sweep advances it, and with Celery a task is queued at once."""
    Tournament.objects.filter(pk=tournament_id, status__in=LIVE_STATUSES).update(
        next_step_at=to_dt(now_or_clock(None))
    )
    tournament_push(tournament_id)
    if django_settings.TIMERS_BACKEND == "celery":
        try:
            current_app.tasks[ADVANCE_TASK].apply_async(args=(tournament_id,))
        except Exception:  # a broker outage: the sweep advances it later
            logger.exception("could not queue the director of tournament %s", tournament_id)
