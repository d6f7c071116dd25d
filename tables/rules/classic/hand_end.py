"""The end of a hand (scoring, the break) and of the ring game (the payout)."""

from __future__ import annotations

from dataclasses import replace

from ..game.events import BreakStarted, DealEnded, GameEnded
from ..scoring import prize_pool
from .events import HandsShown
from .melds import hand_points
from .payout import ring_payout
from .state import HandResult, Turn, next_seat


def end_hand(work: Turn, *, winner: int | None, reason: str) -> None:
    """Score the hand. ``reason``: "went_out", "rummy" (losers add the bonus), "last_player"
    (everyone else is out of the hand) or "exhausted" (no winner, nobody adds anything)."""
    state = work.state
    settings = work.settings
    rummy = reason == "rummy"
    scores: dict[int, int] = {}
    for player in state.players:
        if not player.hand and player.seat != winner:
            continue  # not dealt in this hand (left before it)
        if winner is None or player.seat == winner:
            scores[player.seat] = 0
        else:
            bonus = settings.rummy_bonus if rummy else 0
            scores[player.seat] = hand_points(player.hand, settings) + bonus
    players = tuple(
        replace(p, total=p.total + scores.get(p.seat, 0), in_hand=False) for p in state.players
    )
    result = HandResult(state.hand_no, winner, reason, tuple(sorted(scores.items())))
    work.set(
        players=players,
        results=(*state.results, result),
        turn=None,
        picked=False,
        picked_card=None,
        picked_from=None,
        turn_melded=False,
        turn_started=None,
    )
    work.events.append(
        HandsShown(state.hand_no, {p.seat: p.hand for p in players if p.seat in scores})
    )
    work.events.append(
        DealEnded(
            number=state.hand_no,
            winner=winner,
            reason=reason,
            scores=dict(sorted(scores.items())),
            totals={p.seat: p.total for p in players},
        )
    )
    staying = [p.seat for p in players if not p.left]
    if state.hand_no >= settings.hands or len(staying) < 2:
        end_game(work)
        return
    starter = next_seat(work.state, state.starter, eligible=staying)
    assert starter is not None
    deadline = work.now + settings.break_s
    work.set(phase="break", starter=starter, deadline=deadline, deadline_kind="break")
    work.events.append(BreakStarted(deadline))


def end_game(work: Turn) -> None:
    state = work.state
    settings = work.settings
    pool = prize_pool(settings.entry_fee, len(state.seats), settings.platform_fee_bps)
    placed = {p.seat: p.total for p in state.players if not p.left}
    split = ring_payout(
        placed,
        pool.net,
        gap_limit=settings.payout_gap_limit,
        share_bps=settings.runner_up_share_bps,
    )
    payouts = {seat: amount for seat, amount in sorted(split.items()) if amount > 0}
    work.set(
        phase="ended",
        turn=None,
        picked=False,
        picked_card=None,
        picked_from=None,
        turn_melded=False,
        turn_started=None,
        deadline=None,
        deadline_kind=None,
        players=tuple(replace(p, in_hand=False) for p in state.players),
        payouts=tuple(payouts.items()),
        fee=pool.fee,
        prize=pool.net,
    )
    work.events.append(
        GameEnded(
            reason="ring",
            winners=tuple(payouts),
            payouts=payouts,
            fee=pool.fee,
            gross=pool.gross,
        )
    )
