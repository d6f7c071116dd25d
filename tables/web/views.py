"""Player-facing pages of the tables: the lobby, a table, and the action endpoint.

Thin: every write goes through ``tables.services``; every page is rendered per viewer from
the engine's per-seat view, so no hidden card ever reaches a browser."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from accounts.http import AuthenticatedHttpRequest
from ledger import selectors as ledger_selectors
from ledger.currencies import money_games_on
from tables import presenters, selectors, services
from tables.live import presence, viewer
from tables.models import Table, TableTemplate
from tables.services.friends import table_friend_invite
from tables.web import acting, friends, hooks
from tables.web.messages import refusal_text, refusal_words

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django_htmx.middleware import HtmxDetails

    from accounts.models import User


class HtmxRequest(HttpRequest):
    """A request as django-htmx's middleware leaves every one: with ``htmx`` (for annotations)."""

    htmx: HtmxDetails


class SignedInHtmxRequest(AuthenticatedHttpRequest):
    """A signed-in player's request, with django-htmx's ``htmx`` (for annotations)."""

    htmx: HtmxDetails


def _stake_words(template: TableTemplate) -> str:
    """``₹10.00`` or ``₹0.50 / point``: what a seat of ``template`` costs, in money words."""
    if template.variant == "points":
        return _("%(amount)s / point") % {
            "amount": presenters.money(template.point_value, template.currency)
        }
    return presenters.money(template.entry_fee, template.currency)


def _template_rows(user: User | AnonymousUser) -> list[dict[str, object]]:
    """Lobby rows, one per kind of table: "Pool 101 · ₹10.00 · 6 seats", people seated, games
    running, and whether the viewer already sits at one of its tables."""
    mine = {t.template_id: t for t in selectors.tables_of_user(user=user)}
    rows = []
    for row in selectors.lobby_templates(money_games=money_games_on()):
        template = row["template"]
        rows.append(
            {
                **row,
                "name": template.display_name(),  # the Hindi name for Hindi readers
                "variant_label": presenters.variant_label(row["variant"]),
                "stake_display": _stake_words(template),
                "my_table": mine.get(row["id"]),
            }
        )
    return rows


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    context = {
        "templates": _template_rows(request.user),
        "my_tables": selectors.tables_of_user(user=request.user),
    }
    if request.GET.get("partial") != "lobby-tables":
        context.update(friends.lobby_context(request.user))  # friends online, their invites
    if request.user.is_authenticated and request.GET.get("partial") != "lobby-tables":
        context["practice"] = ledger_selectors.practice_chips_summary(user=request.user)
    if request.GET.get("partial") == "lobby-tables":
        return render(request, "tables/lobby.html#lobby-tables", context)
    return render(request, "tables/lobby.html", context)


def _words(exc: Exception) -> str:
    """A refusal in the player's language and words (translated by its code)."""
    return refusal_words(refusal_text(exc))


def _refused(request: HttpRequest, exc: Exception) -> HttpResponse:
    messages.error(request, _words(exc))
    return redirect("lobby")


@login_required
@require_POST
def template_play(request: AuthenticatedHttpRequest, template_id: int) -> HttpResponse:
    """Play now: a seat at an open table of the template (a new table when all are busy)."""
    template = get_object_or_404(TableTemplate, pk=template_id)
    try:
        seat = services.template_play_now(template=template, user=request.user)
    except acting.REFUSALS as exc:
        return _refused(request, exc)
    return redirect("table", table_id=seat.table_id)


@login_required
@require_POST
def private_create(request: AuthenticatedHttpRequest, template_id: int) -> HttpResponse:
    """A private table from a practice template; the host lands on it with the invite code.
    ``casual`` ("1"): the host chose that its games are not rated."""
    template = get_object_or_404(TableTemplate, pk=template_id)
    casual = request.POST.get("casual", "")[:4] == "1"
    try:
        table = services.table_private_create(template=template, user=request.user, casual=casual)
    except acting.REFUSALS as exc:
        return _refused(request, exc)
    messages.success(
        request,
        _("Your private table is open: invite friends with the code %(code)s.")
        % {"code": table.invite_code},
    )
    return redirect("table", table_id=table.pk)


@login_required
@require_POST
def join_by_code(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Join a private table by its invite code (the lobby's form)."""
    code = request.POST.get("code", "")[:40]
    try:
        seat = services.table_join_by_code(code=code, user=request.user)
    except acting.REFUSALS as exc:
        return _refused(request, exc)
    return redirect("table", table_id=seat.table_id)


INVITES_KEY = "table_invites"


def _invite_remember(request: HttpRequest, table: Table) -> None:
    """The invite the visitor followed, kept in the session so the table's Join button works."""
    invites = dict(request.session.get(INVITES_KEY, {}))
    invites[str(table.pk)] = table.invite_token
    request.session[INVITES_KEY] = dict(list(invites.items())[-20:])


@require_GET
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """An invite link (its unguessable token): the private table's page, where the friend
    presses Join. Every wrong link is answered the same way."""
    try:
        table = services.table_by_token(token[:80])
    except services.TableError as exc:
        return _refused(request, exc)
    _invite_remember(request, table)
    return redirect("table", table_id=table.pk)


@login_required
@require_POST
def private_start(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """The host starts a private table: computer players take the empty seats."""
    table = _table_or_404(table_id)
    try:
        strength = str(request.POST.get("strength", ""))[:16]
        services.table_private_start(table=table, user=request.user, strength=strength)
    except acting.REFUSALS as exc:
        messages.error(request, _words(exc))
    return redirect("table", table_id=table.pk)


def _table_or_404(table_id: int) -> Table:
    return get_object_or_404(Table.objects.select_related("template"), pk=table_id)


def _viewer_context(request: HttpRequest, table_id: int, *, error: str = "") -> dict[str, object]:
    """The whole table for the viewer (404 for an unknown table)."""
    try:
        return viewer.table_context(table=table_id, user=request.user, error=error)
    except Table.DoesNotExist as exc:
        raise Http404 from exc


def _seat_answer(request: HttpRequest, table_id: int, *, error: str, status: int) -> HttpResponse:
    """The viewer's own fragment, its parts swapped out of band (an action's answer)."""
    try:
        context = viewer.seat_answer_context(table=table_id, user=request.user, error=error)
    except Table.DoesNotExist as exc:
        raise Http404 from exc
    # Only the parts, out of band, whatever the request asked to swap.
    return reswap(render(request, viewer.SEAT_PARTIAL, context, status=status), "none")


@require_GET
def table_detail(request: HtmxRequest, table_id: int) -> HttpResponse:
    context = _viewer_context(request, table_id)
    if request.htmx:
        return render(request, viewer.TABLE_PARTIAL, context)
    _page_extras(request, context)
    return render(request, "tables/table.html", context)


def _page_extras(request: HttpRequest, context: dict[str, object]) -> None:
    """What the full page adds to the table: the hooks' (a tournament's way back to it) and, for
    the host of a private table, their friends to invite; from the table's row as read."""
    table = cast("Table", context["table_row"])
    context.update(hooks.table_page_context(table))
    context.update(friends.table_invite_context(request.user, table))


@login_required
@require_POST
def table_invite_friend(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """The host of a private table invites a friend (``friend``: their id) in one click. A
    refusal (not the host, not a friend, blocked, a forged id) answers the table's page with
    its words and 400 (404 for no such table or player) and changes nothing."""
    try:
        invite, created = table_friend_invite(
            table_id=table_id, host=request.user, friend_id=request.POST.get("friend", "")[:20]
        )
    except acting.REFUSALS as exc:
        messages.error(request, _words(exc))
        gone = isinstance(exc, services.NotFound) or getattr(exc, "status", 400) == 404
        context = _viewer_context(request, table_id)  # no such table: 404
        _page_extras(request, context)
        return render(request, "tables/table.html", context, status=404 if gone else 400)
    name = invite.friend.public_name
    if created:
        messages.success(
            request, _("%(name)s is invited: the invite shows in their lobby.") % {"name": name}
        )
    else:
        messages.info(request, _("%(name)s is invited already.") % {"name": name})
    return redirect("table", table_id=table_id)


@require_GET
def table_view(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table partial alone: what a client re-fetches after a push or a reconnect."""
    return render(request, viewer.TABLE_PARTIAL, _viewer_context(request, table_id))


@login_required
@require_POST
def table_join(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(table_id)
    invite = request.session.get(INVITES_KEY, {}).get(str(table.pk))
    try:
        services.table_join(table=table, user=request.user, invite=invite)
    except acting.REFUSALS as exc:
        messages.error(request, _words(exc))
        return redirect("lobby")
    return redirect("table", table_id=table.pk)


@login_required
@require_POST
def table_leave(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(table_id)
    try:
        services.table_leave(table=table, user=request.user)
    except acting.REFUSALS as exc:
        messages.error(request, _words(exc))
        return redirect("table", table_id=table.pk)
    messages.success(request, _("You left the table."))
    return redirect("lobby")


@login_required
@require_POST
def table_act(request: SignedInHtmxRequest, table_id: int) -> HttpResponse:
    """One player action (``acting.table_act``, as the table's socket does). Success answers
    nothing when the player has a socket open (the push brings the fresh fragment to every tab
    of the player), else the player's fresh fragment; a refusal answers the fragment with the
    reason and changes nothing; a stale page gets the whole table."""
    error = ""
    status = 200
    stale = False
    try:
        fields = acting.action_fields(
            (key, value) for key, values in request.POST.lists() for value in values
        )
        acting.table_act(table_id=table_id, user=request.user, fields=fields)
    except Table.DoesNotExist as exc:
        raise Http404 from exc
    except acting.REFUSALS as exc:
        refused = acting.refusal_of(exc)
        error, status, stale = refused.text, refused.status, refused.code == "stale"
    if not request.htmx:
        if error:
            messages.error(request, refusal_words(error))
        return redirect("table", table_id=table_id)
    whole = stale or request.POST.get("action") == "leave"
    if not whole and not error and presence.open_count(table_id=table_id, user_id=request.user.pk):
        return HttpResponse(status=204)  # the push brings the mover's fragment to every tab
    if whole:
        # The page is behind (or the player left): the whole table, in place of the page's.
        response = render(
            request, viewer.TABLE_PARTIAL, _viewer_context(request, table_id, error=error)
        )
        response.status_code = status
        return reswap(retarget(response, "#table-root"), "outerHTML")
    return _seat_answer(request, table_id, error=error, status=status)
