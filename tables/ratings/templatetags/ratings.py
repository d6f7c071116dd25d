"""Template tags of the ratings, for the pages of other parts (no import of ``tables.ratings``
by them: a template loads ``ratings``):

* ``{% seat_ratings t as badges %}``: the rating beside each person's name at a table (``t``:
  the felt), ``{user id: "1520"}``; one cache read a render, none in a push, which read the
  badges with what it pushed (``felt_badge_keys``, the context's ``cache_read``);
* ``{% result_ratings t as lines %}``: each person's rating and its change in a finished
  game's result (one statement, when the game is over);
* ``{% game_rating_changes user rows as changes %}``: a player's change per game (My games'
  rows; one statement);
* ``{{ mapping|rating_of:key }}``: a value of a mapping by key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.template.context import Context

from tables.models import GameStatus
from tables.ratings import selectors
from tables.ratings.presenters import change_words

register = template.Library()


def _people(t: Any) -> list[tuple[int, int, str]]:
    """(seat, user id, name) of the people around the felt ``t`` (no computer players)."""
    people = {p.seat: (p.seat, p.user_id, p.name) for p in getattr(t, "players", ()) or ()}
    for s in getattr(t, "seats", ()) or ():
        people.setdefault(s.seat, (s.seat, s.user_id, s.name))
    bots = {p.seat for p in getattr(t, "players", ()) or () if p.is_bot}
    bots |= {s.seat for s in getattr(t, "seats", ()) or () if s.is_bot}
    return [people[s] for s in sorted(people) if s not in bots and people[s][1]]


@register.simple_tag(takes_context=True)
def seat_ratings(context: Context, t: Any) -> dict[int, str]:
    people = _people(t)
    if not people:
        return {}
    read = context.get("cache_read")  # a push read the badges already
    user_ids = [u for _s, u, _n in people]
    return selectors.seat_badges(user_ids=user_ids, variant=str(t.variant), read=read)


@register.simple_tag
def result_ratings(t: Any) -> list[dict[str, Any]]:
    game = getattr(t, "game", None)
    if game is None or game.status != GameStatus.FINISHED:
        return []
    changes = selectors.game_changes(game_id=game.pk)
    return [
        {"seat": seat, "name": name, "words": change_words(changes[user_id])}
        for seat, user_id, name in _people(t)
        if user_id in changes
    ]


@register.simple_tag
def game_rating_changes(user: Any, rows: Iterable[Any]) -> dict[int, str]:
    """``rows``: games, or My games' rows (``{"game": ...}``)."""
    if not getattr(user, "is_authenticated", False):
        return {}
    ids = [r["game"].pk if isinstance(r, Mapping) else r.pk for r in rows]
    changes = selectors.changes_of_games(user_id=user.pk, game_ids=ids)
    return {game_id: change_words(c) for game_id, c in changes.items()}


@register.filter
def rating_of(mapping: Mapping[Any, Any] | None, key: Any) -> Any:
    if not mapping:
        return ""
    return mapping.get(key, "")
