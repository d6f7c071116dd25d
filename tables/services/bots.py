"""Computer players at practice tables: their user accounts, what they choose (pure, from the
engine's view of their seat) and playing it through the pipeline."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model

from ..models import BotProfile, GameStatus
from ..rules.classic import TableMeld, bot_meld_action
from ..rules.errors import RulesError
from ..rules.evaluate import best_discard, evaluate_hand
from ..rules.melds import is_joker
from ._context import Ctx, bot_seats, now_or_clock
from ._pipeline import apply_action, continue_play, game_write

logger = logging.getLogger(__name__)

BOT_USERNAME_PREFIX = "bot-"


def bot_users_ensure(*, count: int) -> list[Any]:
    """The first ``count`` computer players (created on first use, unusable passwords)."""
    user_model = get_user_model()
    bots: list[Any] = []
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


def bot_choose(*, engine: Any, state: Any, seat: int) -> dict[str, Any] | None:
    """The action (as engine JSON, without the seat) a computer player takes now, or ``None``.

    13-card games: pick the open card when it lowers the hand's best count, else the closed
    deck; drop on the first turn only when the hand is hopeless (no joker, and even its best
    arrangement counts the full count); after picking, declare when the
    hand can be shown, else throw the card whose loss leaves the lowest count; in a meld window
    submit the best arrangement; accept a split; never rejoin. Classic: draw from the stock, lay
    down the melds it holds and lay off what fits (highest penalty first, keeping a card to
    throw), then throw the highest card."""
    view = engine.view(state, seat)
    if engine.name == "classic":
        allowed_classic = set(view.get("allowed", ()))
        hand = (view.get("hand") or {}).get("cards") or []
        if "pick_closed" in allowed_classic:
            return {"type": "pick_closed"}
        if "pick_open" in allowed_classic:
            return {"type": "pick_open"}
        if "lay_down" in allowed_classic and hand:
            table_melds = [
                TableMeld.from_json(m) for m in (view.get("deal") or {}).get("melds", [])
            ]
            move = bot_meld_action(hand, table_melds, state.settings)
            if move is not None and move[0] == "lay_down":
                return {"type": "lay_down", "melds": [[c.code for c in move[1]]]}
            if move is not None and "lay_off" in allowed_classic:
                card, meld_id = move[1]
                return {"type": "lay_off", "cards": [card.code], "meld_id": meld_id}
        if "discard" in allowed_classic and hand:
            picked = (view.get("deal") or {}).get("picked_open_card")
            candidates = [c for c in hand if c != picked] or hand
            return {"type": "discard", "card": max(candidates, key=_classic_order)}
        return None
    allowed = set(view.get("allowed", ()))
    hand_view = view.get("hand") or {}
    deal_view = view.get("deal") or {}
    cards: list[str] = list(hand_view.get("cards", []))
    cut = deal_view.get("cut_joker")
    meld = getattr(state.settings, "meld", None)
    if "pick_closed" in allowed:
        current = evaluate_hand(cards, cut, settings=meld)
        me = next(p for p in view["players"] if p["seat"] == seat)
        hopeless = current.points >= state.settings.full_count and not any(
            is_joker(card, cut) for card in cards
        )
        if "drop" in allowed and me.get("turns", 0) == 0 and hopeless:
            return {"type": "drop"}
        top = deal_view.get("open_top")
        if "pick_open" in allowed and top:
            choice = best_discard([*cards, top], cut, settings=meld)
            if choice.card.code != top and choice.evaluation.points < current.points:
                return {"type": "pick_open"}
        return {"type": "pick_closed"}
    if "discard" in allowed:
        choice = best_discard(cards, cut, settings=meld)
        picked = hand_view.get("picked")
        evaluation = choice.evaluation
        if evaluation.can_declare and "declare" in allowed:
            return {
                "type": "declare",
                "finish_card": choice.card.code,
                "groups": [[c.code for c in g] for g in evaluation.groups],
            }
        card = choice.card.code
        if deal_view.get("picked_open_card") and card == picked and len(cards) > 1:
            card = next(c for c in sorted(cards, reverse=True) if c != picked)
        return {"type": "discard", "card": card}
    if "submit_meld" in allowed:
        evaluation = evaluate_hand(cards, cut, settings=meld)
        groups = [[c.code for c in g] for g in evaluation.groups]
        if evaluation.ungrouped:
            groups.append([c.code for c in evaluation.ungrouped])
        return {"type": "submit_meld", "groups": groups}
    if "split_accept" in allowed:
        return {"type": "split_accept"}
    return None


def _classic_order(code: str) -> tuple[int, str]:
    """Highest-scoring card first (A 11, court cards 10, others at face) for a classic bot."""
    rank = code[:-1]
    value = 11 if rank == "A" else 10 if rank in ("J", "Q", "K") else int(rank)
    return value, code


def bots_play(ctx: Ctx) -> int:
    """Every computer player with something to do does it (a whole turn: pick, then declare or
    discard). Returns the number of actions taken."""
    played = 0
    seats = ctx.played_seats()
    for seat_no in bot_seats(ctx):
        for _ in range(12):  # a whole turn: pick, lay down / lay off (classic), then discard
            if ctx.game.status != GameStatus.RUNNING or ctx.engine.deal_due(ctx.state, ctx.now):
                break
            choice = bot_choose(engine=ctx.engine, state=ctx.state, seat=seat_no)
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

    def body(ctx: Ctx) -> Any:
        if ctx.game.status != GameStatus.RUNNING:
            return 0
        played = bots_play(ctx)
        return played

    return game_write(game_id=game_id, now=now, body=body, save=False)
