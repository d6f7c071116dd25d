"""The leaderboards page (thin: the selectors read, the template draws).

``/leaderboards/?family=pool&period=all|season|week&kind=rating|points&friends=1&page=N``: an
htmx request (a tab, a page link) gets the board's part only. A family, period or kind not
offered, or a page that is not a number, is a 400 with words; a page past the last is a 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_htmx.middleware import HtmxDetails

from accounts.models import User
from tables.leaderboards import selectors
from tables.ratings.models import Family
from tables.ratings.presenters import FAMILY_LABELS

PAGE = "leaderboards/leaderboards.html"
BOARD = "leaderboards/leaderboards.html#board"


class HtmxRequest(HttpRequest):
    """A request as django-htmx's middleware leaves every one (for annotations)."""

    htmx: HtmxDetails
    user: User | AnonymousUser


def _choices() -> dict[str, list[tuple[str, str]]]:
    return {
        "families": [(f.value, str(FAMILY_LABELS[f])) for f in Family],
        "periods": [("all", _("All time")), ("season", _("This season")), ("week", _("This week"))],
        "kinds": [("rating", _("By rating")), ("points", _("By tournament points"))],
    }


def _refused(request: HtmxRequest, message: str, context: dict[str, Any]) -> HttpResponse:
    context.update(error=message, board=None)
    return render(request, PAGE, context, status=400)


@require_GET
def leaderboards(request: HtmxRequest) -> HttpResponse:
    family = request.GET.get("family") or Family.POOL.value
    period = request.GET.get("period") or "all"
    kind = request.GET.get("kind") or "rating"
    viewer = request.user if isinstance(request.user, User) else None
    friends = request.GET.get("friends") == "1" and viewer is not None
    context: dict[str, Any] = {
        **_choices(),
        "family": family,
        "period": period,
        "kind": kind,
        "friends": friends,
        "season": None,
    }
    if family not in Family.values or period not in selectors.PERIODS:
        return _refused(request, _("There is no such leaderboard."), context)
    if kind not in selectors.KINDS:
        return _refused(request, _("There is no such leaderboard."), context)
    try:
        number = selectors.page_number(request.GET.get("page"))
    except selectors.BadPage:
        return _refused(request, _("The page must be a whole number from 1."), context)
    except selectors.NoSuchPage as exc:
        raise Http404(_("This leaderboard has no such page.")) from exc
    try:
        board = selectors.board_page(
            family=family,
            period=period,
            kind=kind,
            number=number,
            language=get_language() or "en",
            friends_of=viewer if friends else None,
        )
    except selectors.NoSuchPage as exc:
        raise Http404(_("This leaderboard has no such page.")) from exc
    if period == "season":
        context["season"] = selectors.season_current(family=family)
    context.update(
        board=board,
        min_games=selectors.leaderboard_min_games(),
        window_min_games=selectors.window_min_games(),
    )
    # htmx's own requests get the board's part; its history restore (back to a page no longer in
    # its cache) needs the whole page.
    part = bool(request.htmx) and not request.htmx.history_restore_request
    response = render(request, BOARD if part else PAGE, context)
    patch_vary_headers(response, ["HX-Request"])
    return response
