"""Computer players at practice tables: their user accounts, what they choose (pure, from the
engine's view of their seat: ``tables.rules.game.bot``, three strengths picked per template)
and playing it through the pipeline."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import cast

from django.contrib.auth import get_user_model

from accounts.models import User
from tables.models import BotProfile, GameStatus, Move
from tables.rules.engine_view import JsonObject
from tables.rules.errors import RulesError
from tables.rules.game.bot import STRENGTHS, Strength
from tables.rules.variants import EngineState, ServerEngine
from tables.services._context import Ctx, bot_seats, now_or_clock, open_deal
from tables.services._pipeline import apply_action, continue_play, game_write
from tables.services._saved import moves_flush

logger = logging.getLogger(__name__)

BOT_USERNAME_PREFIX = "bot-"


def bot_users_ensure(*, count: int) -> list[User]:
    """The first ``count`` computer players (created on first use, unusable passwords)."""
    user_model = get_user_model()
    bots: list[User] = []
    for n in range(1, count + 1):
        user, created = user_model.objects.get_or_create(
            username=f"{BOT_USERNAME_PREFIX}{n}", defaults={"display_name": f"Bot {n}"}
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        BotProfile.objects.get_or_create(user=user)
        bots.append(user)
    return bots


def bot_choose(
    *,
    engine: ServerEngine,
    state: EngineState,
    seat: int,
    strength: Strength = "medium",
    events: Iterable[JsonObject] = (),
    seed: int = 0,
) -> JsonObject | None:
    """The action (as engine JSON, without the seat) a computer player takes now, or ``None``.

    13-card games: ``tables.rules.game.bot`` decides for the ``strength`` (easy, medium, hard)
    from the seat's ``SeatView`` only: the engine's view of that seat and the deal's public
    record built from ``events`` (the deal's logged events; a closed pick's card is never
    read). Classic: ``tables.rules.classic.classic_bot_decide`` for the strength, from the
    seat's own view."""
    return engine.bot_action(state, seat, strength=strength, events=events, seed=seed)


def _deal_events(ctx: Ctx) -> list[JsonObject]:
    """The events logged since the current deal was dealt (what the table has seen of it; the
    bot reads only its public part, ``public_record``)."""
    deal = open_deal(ctx)
    if deal is None:
        return []
    moves_flush(ctx)  # the moves this write recorded, read back with the others
    rows = Move.objects.filter(game=ctx.game, version__gt=deal.version_before).order_by("version")
    return [event for events in rows.values_list("events", flat=True) for event in events]


def bot_strength_of(ctx: Ctx) -> Strength:
    """The table's level (a private table's host's choice), else its template's."""
    strength = ctx.table.bot_strength or getattr(ctx.table.template, "bot_strength", "medium")
    return cast(Strength, strength if strength in STRENGTHS else "medium")


def bots_play(ctx: Ctx) -> int:
    """Every computer player with something to do does it (a whole turn: pick, then declare or
    discard). Returns the number of actions taken."""
    played = 0
    seats = ctx.played_seats()
    strength = bot_strength_of(ctx)
    for seat_no in bot_seats(ctx):
        for _ in range(12):  # a whole turn: pick, lay down / lay off (classic), then discard
            if ctx.game.status != GameStatus.RUNNING or ctx.deal_due(ctx.now):
                break
            choice = bot_choose(
                engine=ctx.engine,
                state=ctx.running_state(),
                seat=seat_no,
                strength=strength,
                events=_deal_events(ctx) if strength == "hard" else (),
                seed=ctx.game.pk * 100_003 + ctx.game.version * 7 + seat_no,
            )
            if choice is None:
                break
            try:
                action = ctx.engine.action_from_json({**choice, "seat": seat_no})
                apply_action(ctx, action, actor=seats[seat_no].user)
            except RulesError:
                logger.exception("computer player at seat %s chose an illegal move", seat_no)
                break
            played += 1
            if choice["type"] not in ("pick_closed", "pick_open", "lay_down", "lay_off"):
                break
        continue_play(ctx)
    return played


def bots_act(*, game_id: int, now: float | None = None) -> int:
    """Let the computer players of ``game_id`` act now (normally their think-time deadline does
    this through ``timer_fire``). Returns the number of actions they took."""
    now = now_or_clock(now)

    def body(ctx: Ctx) -> int:
        if ctx.game.status != GameStatus.RUNNING:
            return 0
        played = bots_play(ctx)
        return played

    return game_write(game_id=game_id, now=now, body=body, save=False)
