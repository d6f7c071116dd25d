"""How the leaderboards hear of the ratings and the tournaments (Django signals, the project's
one observer mechanism), registered in ``LeaderboardsConfig.ready()``; neither app imports
this one:

* a rating change written (``tables.ratings.signals.rating_changed``, sent by the ratings'
  service inside the rating's transaction) is counted in its week's and seasons' standings
  (``services.standings_add``), so a game rated once is counted once; a failure there is
  logged and leaves the rating alone (``manage.py leaderboards_rebuild`` counts a window
  afresh);
* a finished tournament (``tables.tournaments.signals.tournament_finished``, sent by the
  director after the commit) has its points given (``services.tournament_points_award``, once
  whatever calls it again);
* the embedded timer loop runs the sweep (finished tournaments missed, seasons ended) about
  once a minute when Celery beat does not (``tables.timers.loop``).
"""

from __future__ import annotations

import logging
import time

from django.db import transaction

from tables.leaderboards import services
from tables.ratings.models import RatingChange
from tables.ratings.signals import rating_changed
from tables.timers.loop import loop_sweep_register
from tables.tournaments.signals import tournament_finished

logger = logging.getLogger(__name__)

LOOP_EVERY_S = 60.0
_last_loop = [0.0]


def rating_heard(sender: object, *, change: RatingChange, **kwargs: object) -> None:
    if change.game_id is None:  # a staff reset: no game to count
        return
    try:
        with transaction.atomic():  # a savepoint: a failure here leaves the rating's work
            services.standings_add(change=change)
    except Exception:
        logger.exception("standings of rating change %s not counted", change.pk)


def tournament_heard(sender: object, *, tournament_id: int, **kwargs: object) -> None:
    try:
        services.tournament_points_award(tournament_id=tournament_id)
    except Exception:  # the sweep gives them later
        logger.exception("points of tournament %s not given", tournament_id)


def loop_sweep() -> None:
    """The embedded loop's tick: the sweep at most once a ``LOOP_EVERY_S``."""
    now = time.monotonic()
    if now - _last_loop[0] < LOOP_EVERY_S:
        return
    _last_loop[0] = now
    services.leaderboards_sweep()


def register() -> None:
    rating_changed.connect(
        rating_heard, weak=False, dispatch_uid="tables.leaderboards.hooks.rating_heard"
    )
    tournament_finished.connect(
        tournament_heard, weak=False, dispatch_uid="tables.leaderboards.hooks.tournament_heard"
    )
    loop_sweep_register("leaderboards", loop_sweep)
