"""The Friends page: find players by name, send, accept or refuse a friend request, remove a
friend, block and unblock. Thin: every write is a service of ``services.py``.

Every action is a POST form (CSRF) answered by a redirect back to the page (the search kept);
a refusal (a double click, a forged or unknown id) answers the page with its words and 400, or
404 for a player or request that is not there, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User

from . import selectors, services
from .errors import FriendRefusal, FriendRefused

PAGE = "friends/friends.html"
RESULTS = "friends/friends.html#search-results"
# The largest id a database row may have (a bigger number is no row, not a fault).
ID_MAX = 2**63 - 1


def _back(request: AuthenticatedHttpRequest) -> HttpResponse:
    """To the Friends page, with the search the form came from."""
    query = {
        key: value
        for key in ("q", "page")
        if (value := selectors.search_clean(request.POST.get(key, "")))
    }
    url = reverse("friends")
    return redirect(f"{url}?{urlencode(query)}" if query else url)


def _context(request: AuthenticatedHttpRequest, *, text: object, page: object) -> dict[str, Any]:
    result = selectors.players_search(user=request.user, text=text, page=page)
    return {
        "found": result.page,
        "items": result.items,
        "q": result.text,
        "too_short": bool(str(text or "").strip()) and not result.text,
        "search_min": selectors.SEARCH_MIN_CHARS,
    }


def _page(request: AuthenticatedHttpRequest, *, status: int = 200) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    context = _context(request, text=source.get("q", ""), page=source.get("page", 1))
    context.update(
        friends=selectors.friends_of(user=request.user),
        requests_in=selectors.requests_in(user=request.user),
        requests_out=selectors.requests_out(user=request.user),
        blocked=selectors.blocked_by(user=request.user),
    )
    return render(request, PAGE, context, status=status)


@login_required
@require_GET
def friends(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The page; ``?partial=results`` (the search box, as the player types): the results."""
    if request.GET.get("partial") == "results":
        context = _context(request, text=request.GET.get("q", ""), page=request.GET.get("page", 1))
        return render(request, RESULTS, context)
    return _page(request)


def _answered(
    request: AuthenticatedHttpRequest,
    act: Callable[[], User],
    words: str,
    *,
    level: int = messages.INFO,
) -> HttpResponse:
    """Run ``act``, which returns the other player, and answer: back to the page with ``words``
    naming that player (``%(name)s``), or the page with the refusal and its status."""
    try:
        other = act()
    except FriendRefused as exc:
        messages.error(request, str(exc))
        return _page(request, status=exc.status)
    messages.add_message(request, level, words % {"name": other.public_name})
    return _back(request)


def _player(request: AuthenticatedHttpRequest) -> User:
    """The player a form names (``player``: an id), or a refusal."""
    raw = str(request.POST.get("player", ""))
    if not (raw.isascii() and raw.isdigit() and 0 < int(raw) <= ID_MAX):
        raise FriendRefused(FriendRefusal.NO_SUCH_PLAYER)
    found = User.objects.filter(pk=int(raw)).first()
    if found is None:
        raise FriendRefused(FriendRefusal.NO_SUCH_PLAYER)
    return found


def _on_player(
    request: AuthenticatedHttpRequest,
    act: Callable[[User], object],
    words: str,
    *,
    level: int = messages.INFO,
) -> HttpResponse:
    """``act`` on the player the form names, answered as ``_answered`` does."""

    def on_player() -> User:
        other = _player(request)
        act(other)
        return other

    return _answered(request, on_player, words, level=level)


@login_required
@require_POST
def request_send(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _on_player(
        request,
        lambda other: services.friend_request_send(sender=request.user, receiver=other),
        _("Friend request sent to %(name)s."),
        level=messages.SUCCESS,
    )


def _request_id(value: int) -> int:
    if value > ID_MAX:
        raise FriendRefused(FriendRefusal.NO_SUCH_REQUEST)
    return value


@login_required
@require_POST
def request_accept(request: AuthenticatedHttpRequest, request_id: int) -> HttpResponse:
    def accept() -> User:
        friendship = services.friend_request_accept(
            user=request.user, request_id=_request_id(request_id)
        )
        if friendship.user_low.pk == request.user.pk:
            return friendship.user_high
        return friendship.user_low

    return _answered(
        request, accept, _("You and %(name)s are friends now."), level=messages.SUCCESS
    )


@login_required
@require_POST
def request_refuse(request: AuthenticatedHttpRequest, request_id: int) -> HttpResponse:
    return _answered(
        request,
        lambda: (
            services.friend_request_refuse(
                user=request.user, request_id=_request_id(request_id)
            ).sender
        ),
        _("You refused the friend request of %(name)s."),
    )


@login_required
@require_POST
def request_cancel(request: AuthenticatedHttpRequest, request_id: int) -> HttpResponse:
    return _answered(
        request,
        lambda: (
            services.friend_request_cancel(
                user=request.user, request_id=_request_id(request_id)
            ).receiver
        ),
        _("You withdrew your friend request to %(name)s."),
    )


@login_required
@require_POST
def friend_remove(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _on_player(
        request,
        lambda friend: services.friend_remove(user=request.user, friend=friend),
        _("%(name)s is no longer your friend."),
    )


@login_required
@require_POST
def block(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _on_player(
        request,
        lambda other: services.player_block(blocker=request.user, blocked=other),
        _(
            "You blocked %(name)s: no friend requests or invites between you, and Play now "
            "seats you apart."
        ),
    )


@login_required
@require_POST
def unblock(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _on_player(
        request,
        lambda other: services.player_unblock(blocker=request.user, blocked=other),
        _("You unblocked %(name)s."),
    )
