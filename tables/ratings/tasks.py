"""Celery tasks of the ratings. They only call the services.

* ``game_rate(game_id)``: queued when a game ends (after its commit); rerun-safe: a game is
  rated once, whatever runs it again;
* ``ratings_sweep()``: run periodically by Celery beat; rates every ended game left unrated (a
  task lost with its worker).
"""

from __future__ import annotations

from celery import shared_task

from tables.ratings import services


@shared_task(name="tables.ratings.tasks.game_rate", ignore_result=True)
def game_rate(game_id: int) -> str:
    return services.game_rate(game_id=game_id)


@shared_task(name="tables.ratings.tasks.ratings_sweep", ignore_result=True)
def ratings_sweep() -> dict[str, int]:
    return services.games_unrated_rate()
