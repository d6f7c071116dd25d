"""The ratings in words: a family's name, a rating and its change ("Rating 1520 (+14)"), the
profile's section and the chart of a rating over time (points for an SVG the template
draws, as My games' statistics chart)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from tables.presenters.chart import line_plot
from tables.ratings import selectors
from tables.ratings.models import Family
from tables.ratings.selectors import ChangeRead

__all__ = ["FAMILY_LABELS", "change_words", "chart", "profile_context"]

FAMILY_LABELS: dict[str, Any] = {
    Family.POOL: pgettext_lazy("variant", "Pool"),
    Family.DEALS: pgettext_lazy("variant", "Deals"),
    Family.POINTS: pgettext_lazy("variant", "Points"),
    Family.CLASSIC: pgettext_lazy("variant", "Classic 10-card"),
}


def change_words(change: ChangeRead) -> str:
    """``Rating 1520 (+14)``; ``1500?`` while provisional."""
    return gettext("Rating %(rating)s (%(change)s)") % {
        "rating": change.figure,
        "change": change.delta_text,
    }


def chart(changes: Sequence[ChangeRead]) -> dict[str, Any] | None:
    """A rating over its games as an SVG polyline (600 x 200 view box), from the rating before
    the first change to each change's rating. ``None`` without a change."""
    if not changes:
        return None
    plot = line_plot([changes[0].before, *(c.after for c in changes)])
    dots = [
        {
            "x": plot.xs[i + 1],
            "y": plot.y(c.after),
            "label": gettext("Game %(n)s: %(words)s") % {"n": i + 1, "words": change_words(c)}
            if c.game_id is not None
            else gettext("Reset by staff: %(rating)s") % {"rating": c.figure},
        }
        for i, c in enumerate(changes)
    ]
    return {
        "width": plot.width,
        "height": plot.height,
        "polyline": plot.polyline,
        "dots": dots,
        "high": plot.high,
        "low": plot.low,
        "last": changes[-1].figure,
        "games": len(changes),
    }


def profile_context(*, user_id: int) -> dict[str, Any]:
    """The profile's ratings section: each family's rating with its chart."""
    families = []
    for rating in selectors.ratings_of_player(user_id=user_id):
        families.append(
            {
                "label": FAMILY_LABELS.get(rating.family, rating.family),
                "family": rating.family,
                "figure": rating.figure,
                "provisional": rating.provisional,
                "games": rating.games,
                "chart": chart(selectors.rating_history(user_id=user_id, family=rating.family)),
            }
        )
    return {"ratings": families, "provisional_games": selectors.provisional_games()}
