"""Pushes to the browsers watching a table.

After a change commits, every seat is pushed its own view: the table partial rendered for that
player from the state the change already holds (no query, no re-fetch), sent to that player's
own group, so no card of another player ever enters it. Other logged-in watchers get the
public view (no hand) in the table's public group, which seated players ignore. Each push
carries the version it moves the page from and to: a page that does not show the ``from``
version missed something and re-fetches its view over HTTP, as it does after a reconnect.

Each seat's view is rendered in that player's language and time zone (``User.language``, the
header switcher's saved choice; the site's default when the player has none), so two players
at one table read it each in their own language. The public view is rendered in the site's
default language; a watcher reading another language is told the version only and re-fetches
its view over HTTP, in its own language (``consumers.TableConsumer.table_public``).

Call ``table_push`` from ``transaction.on_commit``.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

logger = logging.getLogger(__name__)

TABLE_PARTIAL = "tables/table.html#table"


def table_group(table_id: int) -> str:
    """Every logged-in socket watching the table: public views only."""
    return f"table-{table_id}"


def seat_group(table_id: int, user_id: int) -> str:
    """One player's sockets at one table: that player's own view."""
    return f"table-{table_id}-user-{user_id}"


def lobby_group() -> str:
    return "lobby"


@dataclass(frozen=True)
class TableMoved:
    """What a committed change leaves: the rows and the decoded state, as the change held them."""

    table: Any
    game: Any
    seats: tuple[Any, ...]
    state: Any
    from_version: int
    money_moved: bool = False
    deal: Any = None  # the game's newest deal (``UNKNOWN_DEAL``: the change did not load it)
    moves: tuple[dict[str, Any], ...] = ()  # the moves the change recorded, oldest first


UNKNOWN_DEAL = object()


class _PushRequest:
    """What the table partial reads of a request when it is pushed: an htmx swap."""

    htmx = True
    path = ""


def render_view(moved: TableMoved, user: Any | None, *, now: float) -> str:
    """The table partial as ``user`` sees it (``None``: a spectator's public view), in that
    player's language and time zone (the site's defaults for the public view)."""
    from accounts.middleware import player_language, player_time_zone

    if user is None:
        with translation.override(settings.LANGUAGE_CODE):
            return _render_view(moved, None, now=now)
    with translation.override(player_language(user)), timezone.override(player_time_zone(user)):
        return _render_view(moved, user, now=now)


def _render_view(moved: TableMoved, user: Any | None, *, now: float) -> str:
    from ledger.selectors import wallet_balances_for_header

    from . import presenters, selectors

    data = selectors.table_view_data(
        table=moved.table,
        game=moved.game,
        seats=moved.seats,
        user=user,
        state=moved.state,
        deal=moved.deal,
        moves=moved.moves,
        moves_partial=True,
    )
    context: dict[str, Any] = {
        "t": presenters.present_table(data=data, user=user, now=now),
        "user": user,
    }
    if user is not None and moved.money_moved:
        context["request"] = _PushRequest()
        context["header_balances"] = wallet_balances_for_header(user=user)
    return render_to_string(TABLE_PARTIAL, context)


def table_push(moved: TableMoved) -> None:
    """Push every seat its own view of ``moved`` and the public view to the other watchers."""
    layer = get_channel_layer()
    if layer is None:
        return
    table_id = moved.table.pk
    version = moved.game.version
    now = time.time()
    try:
        if moved.deal is UNKNOWN_DEAL:
            from .selectors import newest_deal

            moved = replace(moved, deal=newest_deal(moved.game))
        # The players the view shows at the table (as ``selectors.table_view_data`` does): a
        # person who left a waiting game before it started watches like anyone else.
        seated = {
            s.user_id: s.user
            for s in moved.seats
            if not s.is_bot and (s.played or s.left_at is None)
        }
        frame = {"from_version": moved.from_version, "version": version}
        send = async_to_sync(layer.group_send)
        for user_id, user in seated.items():
            html = render_view(moved, user, now=now)
            send(seat_group(table_id, user_id), {"type": "table.view", "html": html, **frame})
        public = render_view(moved, None, now=now)
        send(
            table_group(table_id),
            {
                "type": "table.public",
                "html": public,
                "seated": sorted(seated),
                "language": settings.LANGUAGE_CODE,
                **frame,
            },
        )
        send(lobby_group(), {"type": "lobby.update"})
    except Exception:  # a push is best effort: clients re-fetch on reconnect
        logger.exception("push failed for table %s v%s", table_id, version)
