"""Celery tasks of tournaments. They only call the director.

* ``tournament_advance(tournament_id)``: queued when a registration or a table's game ending
  makes a tournament due;
* ``tournaments_sweep()``: run periodically by Celery beat; advances every tournament due (a
  scheduled start, a break over, a lost wake-up after a worker restart);
* ``tournament_reminders()``: run by Celery beat; the five-minute warnings (``reminders``).
"""

from __future__ import annotations

from celery import shared_task

from tables.tournaments import director, reminders


@shared_task(name="tables.tournaments.tasks.tournament_advance", ignore_result=True)
def tournament_advance(tournament_id: int) -> int:
    return director.tournament_advance(tournament_id=tournament_id)


@shared_task(name="tables.tournaments.tasks.tournaments_sweep", ignore_result=True)
def tournaments_sweep() -> int:
    return director.tournaments_sweep()


@shared_task(name="tables.tournaments.tasks.tournament_reminders", ignore_result=True)
def tournament_reminders() -> int:
    return reminders.tournament_reminders_send()
