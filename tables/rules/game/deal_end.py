"""How a deal ends and what follows: the meld window after a valid show, scoring, the pool's
eliminations, rejoin and split offers, the deals and points settlements, the break between
deals and the end of the game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .. import scoring
from ..errors import Refusal, RulesError
from ..melds import count_points
from .actions import Rejoin, SplitAccept, SplitDecline, SubmitMeld
from .events import (
    BreakStarted,
    DealEnded,
    Eliminated,
    GameEnded,
    MeldSubmitted,
    PointsSettled,
    Rejoined,
    RejoinOffered,
    SplitAccepted,
    SplitDeclined,
    SplitOffered,
    TieBreaker,
)
from .state import (
    DealResult,
    EventLog,
    GameResult,
    GameState,
    RejoinOffer,
    SeatResult,
    SplitOffer,
    current_deal,
    playing_hand,
    prize_of,
    require,
    same_cards,
    seats_in,
    with_hand,
    with_player,
)


def _submit_meld(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, SubmitMeld)
    require(state.phase == "meld", Refusal.NO_MELD_WINDOW)
    d = current_deal(state)
    hand = playing_hand(d, action.seat, Refusal.NOT_MELDING)
    require(not hand.submitted, Refusal.ALREADY_SUBMITTED)
    require(same_cards(action.groups, hand.cards), Refusal.GROUPS_NOT_YOUR_CARDS)
    d = with_hand(d, replace(hand, groups=action.groups, submitted=True))
    log.add(MeldSubmitted(seat=action.seat))
    state = replace(state, deal=d)
    return maybe_end_meld(state, now, log)


def maybe_end_meld(state: GameState, now: float, log: EventLog) -> GameState:
    d = current_deal(state)
    if all(h.submitted for h in d.hands if h.status == "playing"):
        assert d.declarer is not None
        return end_deal(state, d.declarer, "show", now, log)
    return state


def _rejoin(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, Rejoin)
    require(state.phase == "rejoin" and state.rejoin is not None, Refusal.NO_REJOIN)
    offer = state.rejoin
    assert offer is not None
    require(action.seat in offer.seats, Refusal.MAY_NOT_REJOIN, seat=action.seat)
    player = state.player(action.seat)
    player = replace(
        player,
        status="in",
        total=offer.total,
        rejoins=player.rejoins + 1,
        paid_entries=player.paid_entries + 1,
    )
    state = with_player(state, player)
    log.add(Rejoined(seat=action.seat, amount=offer.amount, total=offer.total))
    remaining = tuple(s for s in offer.seats if s != action.seat)
    state = replace(state, rejoin=replace(offer, seats=remaining))
    if not remaining:
        return after_rejoin(state, now, log)
    return state


def _split_answer(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, (SplitAccept, SplitDecline))
    require(state.phase == "split" and state.split is not None, Refusal.NO_SPLIT)
    offer = state.split
    assert offer is not None
    require(action.seat in offer.seats, Refusal.NOT_IN_SPLIT, seat=action.seat)
    require(action.seat not in offer.accepted, Refusal.ALREADY_ACCEPTED)
    if isinstance(action, SplitDecline):
        log.add(SplitDeclined(seat=action.seat))
        return withdraw_split(state, now, log)
    log.add(SplitAccepted(seat=action.seat))
    offer = replace(offer, accepted=(*offer.accepted, action.seat))
    state = replace(state, split=offer)
    if set(offer.accepted) == set(offer.seats):
        return end_game(state, "manual_split", dict(offer.amounts), now, log)
    return state


def withdraw_split(state: GameState, now: float, log: EventLog) -> GameState:
    state = replace(state, split=None, split_declined_at=state.deal_number)
    return start_break(state, now, log)


def end_deal(
    state: GameState, winner: int | None, reason: str, now: float, log: EventLog
) -> GameState:
    d = current_deal(state)
    settings = state.settings
    results: list[SeatResult] = []
    for hand in d.hands:
        if reason == "exhausted":
            points, outcome = 0, "exhausted"
        elif hand.seat == winner:
            points, outcome = 0, "won"
        elif hand.score is not None:
            points, outcome = hand.score, hand.status
        else:
            count = count_points(hand.groups, d.cut_card, settings=settings.meld)
            had_turn = hand.turns > 0
            points = scoring.loser_score(count, settings, had_first_turn=had_turn)
            outcome = "counted" if had_turn else "deal_show"
        results.append(
            SeatResult(seat=hand.seat, points=points, outcome=outcome, groups=hand.groups)
        )
    result = DealResult(
        number=d.number,
        winner=winner,
        reason=reason,
        tiebreak=d.tiebreak,
        cut_card=d.cut_card,
        finish_card=d.finish_card,
        results=tuple(results),
    )
    scores = {r.seat: r.points for r in results}
    state = replace(
        state,
        deal=None,
        history=(*state.history, result),
        deadline=None,
        deadline_kind=None,
    )
    if settings.is_pool:
        return _pool_after_deal(state, result, scores, now, log)
    if settings.is_deals:
        return _deals_after_deal(state, result, scores, now, log)
    return _points_after_deal(state, result, scores, now, log)


def _pool_after_deal(
    state: GameState, result: DealResult, scores: dict[int, int], now: float, log: EventLog
) -> GameState:
    settings = state.settings
    totals = {p.seat: p.total for p in state.players}
    update = scoring.add_pool_scores(totals, scores, settings)
    players = []
    newly_out: list[int] = []
    for p in state.players:
        new_total = update.totals[p.seat]
        status = p.status
        if status == "in" and scoring.is_eliminated(new_total, settings):
            status = "eliminated"
            newly_out.append(p.seat)
        players.append(replace(p, total=new_total, status=status))
    state = replace(state, players=tuple(players), eliminations=state.eliminations + len(newly_out))
    log.add(
        DealEnded(
            number=result.number,
            winner=result.winner,
            reason=result.reason,
            scores=scores,
            totals=dict(update.totals),
        )
    )
    for seat in newly_out:
        log.add(Eliminated(seat=seat, total=update.totals[seat]))
    in_seats = seats_in(state)
    if len(in_seats) < 2:
        return conclude_if_alone(state, now, log)
    totals_in = [state.player(s).total for s in in_seats]
    eligible = tuple(s for s in newly_out if state.player(s).rejoins < settings.rejoins_per_player)
    if eligible and scoring.rejoin_open(totals_in, settings):
        offer = RejoinOffer(
            seats=eligible, total=scoring.rejoin_total(totals_in), amount=settings.entry_fee
        )
        deadline = now + settings.rejoin_window_s
        log.add(
            RejoinOffered(seats=eligible, total=offer.total, amount=offer.amount, deadline=deadline)
        )
        return replace(
            state, phase="rejoin", rejoin=offer, deadline=deadline, deadline_kind="rejoin"
        )
    return after_rejoin(state, now, log)


def after_rejoin(state: GameState, now: float, log: EventLog) -> GameState:
    """Pool, after any rejoin window: auto split, manual split offer, or the break."""
    settings = state.settings
    state = replace(state, rejoin=None)
    in_seats = seats_in(state)
    if len(in_seats) < 2:
        return conclude_if_alone(state, now, log)
    totals_in = [state.player(s).total for s in in_seats]
    started_with = len(state.seats)
    rejoined = any(p.rejoins > 0 for p in state.players)
    drops = {s: scoring.drops_available(state.player(s).total, settings) for s in in_seats}
    prize = prize_of(state)
    if scoring.auto_split_applies(
        totals_in,
        started_with=started_with,
        someone_rejoined=rejoined,
        any_eliminated=state.eliminations > 0,
        settings=settings,
    ):
        amounts = scoring.split_amounts(prize.net, drops, weighting="equal")
        return end_game(state, "auto_split", amounts, now, log)
    if state.deal_number > state.split_declined_at and scoring.manual_split_eligible(
        totals_in,
        started_with=started_with,
        any_eliminated=state.eliminations > 0,
        rejoin_is_open=False,
        settings=settings,
    ):
        amounts = scoring.split_amounts(prize.net, drops, weighting=settings.split_weighting)
        seats = tuple(in_seats)
        deadline = now + settings.split_window_s
        offer = SplitOffer(seats=seats, amounts=tuple(sorted(amounts.items())))
        log.add(SplitOffered(seats=seats, amounts=amounts, deadline=deadline))
        return replace(state, phase="split", split=offer, deadline=deadline, deadline_kind="split")
    return start_break(state, now, log)


def _deals_after_deal(
    state: GameState, result: DealResult, scores: dict[int, int], now: float, log: EventLog
) -> GameState:
    chips = scoring.deals_transfer({p.seat: p.chips for p in state.players}, result.winner, scores)
    state = replace(state, players=tuple(replace(p, chips=chips[p.seat]) for p in state.players))
    log.add(
        DealEnded(
            number=result.number,
            winner=result.winner,
            reason=result.reason,
            scores=scores,
            chips=chips,
        )
    )
    in_seats = seats_in(state)
    if len(in_seats) < 2:
        return conclude_if_alone(state, now, log)
    regular = sum(1 for r in state.history if not r.tiebreak)
    if regular < state.settings.deals_count:
        return start_break(state, now, log)
    leaders = scoring.deals_leaders({s: chips[s] for s in in_seats})
    if len(leaders) == 1:
        return end_game(state, "winner", winner_takes_all(state, leaders[0]), now, log)
    if not state.settings.play_off_ties:  # a tournament's round table: the tie stays
        return end_game(state, "winner", shared_prize(state, leaders), now, log)
    log.add(TieBreaker(seats=leaders))
    return start_break(replace(state, tiebreak_seats=leaders), now, log)


def _points_after_deal(
    state: GameState, result: DealResult, scores: dict[int, int], now: float, log: EventLog
) -> GameState:
    log.add(
        DealEnded(number=result.number, winner=result.winner, reason=result.reason, scores=scores)
    )
    settlement = scoring.points_settlement(scores, result.winner, state.settings)
    log.add(PointsSettled(nets=dict(settlement.nets), fee=settlement.fee))
    winners = (result.winner,) if result.winner is not None else ()
    game_result = GameResult(
        reason="points", winners=winners, payouts=(), fee=settlement.fee, gross=0
    )
    log.add(GameEnded(reason="points", winners=winners, payouts={}, fee=0, gross=0))
    return replace(state, phase="ended", result=game_result, deadline=None, deadline_kind=None)


def start_break(state: GameState, now: float, log: EventLog) -> GameState:
    deadline = now + state.settings.break_s
    log.add(BreakStarted(deadline=deadline))
    return replace(state, phase="break", deadline=deadline, deadline_kind="break")


def shared_prize(state: GameState, winners: tuple[int, ...]) -> dict[int, int]:
    """The prize shared equally by ``winners`` (a unit left over to the first seats)."""
    net = prize_of(state).net
    each, left = divmod(net, len(winners))
    return {seat: each + (1 if i < left else 0) for i, seat in enumerate(sorted(winners))}


def winner_takes_all(state: GameState, winner: int) -> dict[int, int]:
    return {winner: prize_of(state).net}


def conclude_if_alone(state: GameState, now: float, log: EventLog) -> GameState:
    """Fewer than two players are still in the game: the last one wins the prize."""
    in_seats = seats_in(state)
    if state.settings.is_points:
        if len(in_seats) < 2 and state.phase == "awaiting_deal" and state.deal_number == 0:
            log.add(GameEnded(reason="no_deal", winners=(), payouts={}, fee=0, gross=0))
            result = GameResult(reason="no_deal", winners=(), payouts=(), fee=0, gross=0)
            return replace(state, phase="ended", result=result, deadline=None, deadline_kind=None)
        return state
    if len(in_seats) == 1:
        return end_game(state, "winner", winner_takes_all(state, in_seats[0]), now, log)
    if not in_seats:
        raise RulesError(Refusal.NO_PLAYER_LEFT)
    return state


def end_game(
    state: GameState, reason: str, payouts: Mapping[int, int], now: float, log: EventLog
) -> GameState:
    prize = prize_of(state)
    fee = prize.fee
    if sum(payouts.values()) + fee != prize.gross:
        raise RulesError(Refusal.PAYOUTS_NOT_POT)
    winners = tuple(sorted(payouts))
    result = GameResult(
        reason=reason,
        winners=winners,
        payouts=tuple(sorted(payouts.items())),
        fee=fee,
        gross=prize.gross,
    )
    log.add(
        GameEnded(
            reason=reason,
            winners=winners,
            payouts=dict(sorted(payouts.items())),
            fee=fee,
            gross=prize.gross,
        )
    )
    return replace(
        state,
        phase="ended",
        result=result,
        deadline=None,
        deadline_kind=None,
        rejoin=None,
        split=None,
        tiebreak_seats=(),
    )


HANDLERS: dict[type, Any] = {
    SubmitMeld: _submit_meld,
    Rejoin: _rejoin,
    SplitAccept: _split_answer,
    SplitDecline: _split_answer,
}
