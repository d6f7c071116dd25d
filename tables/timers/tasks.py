"""Celery tasks of the tables. They only call services.

* ``game_timeout(game_id, version)``: scheduled on commit with the deadline as its ETA (when
  ``TIMERS_BACKEND == "celery"``); fires the timer if the game is still at ``version``.
* ``timers_sweep()``: run periodically by Celery beat (``CELERY_BEAT_SCHEDULE``); fires every
  overdue deadline, e.g. after a restart or a lost task.
"""

from __future__ import annotations

from celery import shared_task

from tables import services


@shared_task(name="tables.tasks.game_timeout", ignore_result=True)
def game_timeout(game_id: int, version: int) -> str:
    result = services.timer_fire(game_id=game_id, version=version)
    if result == services.TimerResult.EARLY:
        # The task ran before the deadline (clock skew): try again at the stored deadline.
        services.timer_reschedule(game_id=game_id, version=version)
    return result


@shared_task(name="tables.tasks.timers_sweep", ignore_result=True)
def timers_sweep() -> int:
    return services.timers_sweep()
