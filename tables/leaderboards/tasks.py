"""Celery tasks of the leaderboards. They only call the services.

* ``leaderboards_sweep()``: run by Celery beat (``rummy_site.settings``): gives the points of
  finished tournaments not given yet and closes every season that has ended (its rewards paid
  once through the ledger, the next season opened).
"""

from __future__ import annotations

from celery import shared_task

from tables.leaderboards import services


@shared_task(name="tables.leaderboards.tasks.leaderboards_sweep", ignore_result=True)
def leaderboards_sweep() -> dict[str, int]:
    return services.leaderboards_sweep()
