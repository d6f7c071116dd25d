"""How the leaderboards hear of the ratings and the tournaments (Django signals, the project's
one observer mechanism), registered in ``LeaderboardsConfig.ready()``; neither app imports
this one:

* a rating change written (``post_save`` of ``RatingChange``, inside the rating's transaction)
  is counted in its week's and seasons' standings (``services.standings_add``), so a game
  rated once is counted once; a failure there is logged and leaves the rating alone
  (``manage.py leaderboards_rebuild`` counts a window afresh);
* a tournament saved as finished (``post_save`` of ``Tournament``) has its points given after
  the commit (``services.tournament_points_award``, once whatever calls it again);
* the embedded timer loop runs the sweep (finished tournaments missed, seasons ended) about
  once a minute when Celery beat does not (``tables.timers.loop``).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save

from tables.leaderboards import services
from tables.ratings.models import RatingChange
from tables.timers.loop import loop_sweep_register
from tables.tournaments.models import Tournament, TournamentStatus

logger = logging.getLogger(__name__)

LOOP_EVERY_S = 60.0
_last_loop = [0.0]


def rating_changed(sender: Any, instance: RatingChange, created: bool, **kwargs: Any) -> None:
    if not created or instance.game_id is None:
        return
    try:
        with transaction.atomic():  # a savepoint: a failure here leaves the rating's work
            services.standings_add(change=instance)
    except Exception:
        logger.exception("standings of rating change %s not counted", instance.pk)


def tournament_saved(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    if instance.status != TournamentStatus.FINISHED:
        return
    tournament_id = int(instance.pk)

    def award() -> None:
        try:
            services.tournament_points_award(tournament_id=tournament_id)
        except Exception:  # the sweep gives them later
            logger.exception("points of tournament %s not given", tournament_id)

    transaction.on_commit(award)


def loop_sweep() -> None:
    """The embedded loop's tick: the sweep at most once a ``LOOP_EVERY_S``."""
    now = time.monotonic()
    if now - _last_loop[0] < LOOP_EVERY_S:
        return
    _last_loop[0] = now
    services.leaderboards_sweep()


def register() -> None:
    post_save.connect(
        rating_changed,
        sender=RatingChange,
        weak=False,
        dispatch_uid="tables.leaderboards.hooks.rating_changed",
    )
    post_save.connect(
        tournament_saved,
        sender=Tournament,
        weak=False,
        dispatch_uid="tables.leaderboards.hooks.tournament_saved",
    )
    loop_sweep_register("leaderboards", loop_sweep)
