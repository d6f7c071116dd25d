"""How the ratings hang on the tables and the accounts (Django signals, the project's one
observer mechanism), registered in ``RatingsConfig.ready()``:

* a game's end (``tables.services.hooks.game_ended_listen``, after its commit) rates it: in a
  Celery task when Celery runs the timers, else here, in a transaction of its own;
* Play now asks how far each waiting table's people are from the player's rating
  (``tables.services.hooks.play_now_rank_register``);
* the profile page gets the player's ratings section (``accounts.hooks.page_section_register``);
* a push reads the felt's rating badges with what it pushed (``tables.live.realtime``
  ``felt_reads_register``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from celery import current_app
from django.conf import settings as django_settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from accounts.hooks import page_section_register
from tables.live.realtime import felt_reads_register
from tables.ratings import selectors, services
from tables.ratings.models import family_of
from tables.ratings.presenters import profile_context
from tables.rules.matchmaking import mean_distance
from tables.services import hooks

logger = logging.getLogger(__name__)

RATE_TASK = "tables.ratings.tasks.game_rate"


def game_ended(game: Any) -> None:
    """Rate the game that just ended (its transaction committed)."""
    if django_settings.TIMERS_BACKEND == "celery":
        try:
            current_app.tasks[RATE_TASK].apply_async(args=(game.pk,))
            return
        except Exception:  # a broker outage: rate it here (the sweep would, later)
            logger.exception("could not queue the rating of game %s", game.pk)
    services.game_rate(game_id=game.pk)


def play_now_distances(user: Any, template: Any, games: Mapping[int, int]) -> dict[int, float]:
    """How far each waiting table's seated people's mean rating is from the player's."""
    family = family_of(template.variant)
    people = selectors.seated_people(game_ids=games.values())
    by_table = {t: people.get(g, []) for t, g in games.items()}
    means = selectors.table_means(people_by_table={**by_table, 0: [user.pk]}, family=family)
    mine = means.pop(0)
    out: dict[int, float] = {}
    for table_id, mean in means.items():
        distance = mean_distance(mine, [mean])
        if distance is not None:
            out[table_id] = distance
    return out


def profile_section(request: HttpRequest) -> SafeString:
    """The ratings section of the player's profile page."""
    user_id = getattr(request.user, "pk", None)
    if user_id is None or not request.user.is_authenticated:
        return SafeString("")
    return render_to_string(
        "ratings/profile.html", profile_context(user_id=user_id), request=request
    )


def register() -> None:
    hooks.game_ended_listen(game_ended)
    hooks.play_now_rank_register(play_now_distances)
    page_section_register("profile", profile_section)
    felt_reads_register(selectors.felt_badge_keys)
