"""Scores and money of the 13-card games (RULES.md sections 3 to 7), as pure functions.

Every number comes from a ``GameSettings``. Money is in integer minor units; every amount that
is split is split exactly (the parts always add up to the whole).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import InvalidSettings, Refusal, RulesError
from .settings import GameSettings

__all__ = [
    "PointsSettlement",
    "PoolUpdate",
    "Prize",
    "add_pool_scores",
    "auto_split_applies",
    "cancel_refunds",
    "capped_count",
    "deal_show_score",
    "deals_leaders",
    "deals_transfer",
    "drop_score",
    "drops_available",
    "is_eliminated",
    "loser_score",
    "manual_split_eligible",
    "missed_turns_score",
    "platform_fee",
    "points_settlement",
    "prize_pool",
    "rejoin_open",
    "rejoin_total",
    "split_amounts",
    "wrong_show_score",
]

BPS_DENOMINATOR = 10_000


# ---------------------------------------------------------------------------- one deal


def drop_score(settings: GameSettings, *, first: bool) -> int:
    """First drop on the player's first turn, middle drop on a later turn."""
    return settings.first_drop if first else settings.middle_drop


def capped_count(count: int, settings: GameSettings) -> int:
    """A loser's count capped at the full count (80 by default)."""
    if count < 0:
        raise RulesError(Refusal.COUNT_NEGATIVE)
    return min(count, settings.full_count)


def wrong_show_score(settings: GameSettings) -> int:
    return settings.wrong_show


def missed_turns_score(settings: GameSettings, *, drops_allowed: bool, count: int) -> int:
    """Out after the missed-turns limit: the middle-drop score where drops are allowed,
    otherwise the hand count capped at the full count (RULES.md section 4 and its note)."""
    if drops_allowed:
        return settings.middle_drop
    return capped_count(count, settings)


def deal_show_score(count: int, settings: GameSettings) -> int:
    """A loser who had not had a first turn when the show came (RULES.md section 4, item 6).

    Rule "half": ⌊count / 2⌋ kept within ``deal_show_min``..``deal_show_max`` when the count is
    ``deal_show_min`` or more (a lower count, e.g. 0, stays as it is); rule "flat": a flat score.
    """
    if count < 0:
        raise RulesError(Refusal.COUNT_NEGATIVE)
    if settings.deal_show_rule == "flat":
        return settings.deal_show_flat
    if count < settings.deal_show_min:
        return count
    return max(settings.deal_show_min, min(count // 2, settings.deal_show_max))


def loser_score(count: int, settings: GameSettings, *, had_first_turn: bool) -> int:
    """What a loser of a valid show adds: the capped count, or the deal-show score."""
    if had_first_turn:
        return capped_count(count, settings)
    return deal_show_score(count, settings)


# ---------------------------------------------------------------------------- pool


@dataclass(frozen=True)
class PoolUpdate:
    """New pool totals after a deal and the seats whose total reached the limit."""

    totals: Mapping[int, int]
    eliminated: tuple[int, ...]


def is_eliminated(total: int, settings: GameSettings) -> bool:
    """Out at a total of the pool limit or more (exactly 101 is out, 100 is in)."""
    return total >= settings.pool_limit


def add_pool_scores(
    totals: Mapping[int, int], added: Mapping[int, int], settings: GameSettings
) -> PoolUpdate:
    """Add a deal's scores to the totals of the players in it; totals only grow."""
    unknown = set(added) - set(totals)
    if unknown:
        raise RulesError(Refusal.SCORES_WITHOUT_TOTAL, names=tuple(map(str, sorted(unknown))))
    new = dict(totals)
    eliminated: list[int] = []
    for seat, points in added.items():
        if points < 0:
            raise RulesError(Refusal.DEAL_SCORE_NEGATIVE)
        new[seat] = totals[seat] + points
        if is_eliminated(new[seat], settings) and not is_eliminated(totals[seat], settings):
            eliminated.append(seat)
    return PoolUpdate(new, tuple(sorted(eliminated)))


def drops_available(total: int, settings: GameSettings) -> int:
    """⌊(limit - 1 - total) / first drop⌋, never below 0 (total 60 in 101 pool → 2)."""
    if settings.first_drop <= 0:
        raise InvalidSettings(Refusal.FIRST_DROP_POSITIVE)
    return max(0, (settings.pool_limit - 1 - total) // settings.first_drop)


def rejoin_open(totals_in: Iterable[int], settings: GameSettings) -> bool:
    """Whether a rejoin may be offered: at least two players still in, and the highest of their
    totals (before anyone rejoins in this break) at most ``rejoin_max_total``."""
    values = list(totals_in)
    return len(values) >= 2 and max(values) <= settings.rejoin_max_total


def rejoin_total(totals_in: Iterable[int]) -> int:
    """A rejoined player's new total: the highest total of the players still in, plus 1."""
    values = list(totals_in)
    if not values:
        raise RulesError(Refusal.REJOIN_NEEDS_PLAYERS)
    return max(values) + 1


def auto_split_applies(
    totals_left: Iterable[int],
    *,
    started_with: int,
    someone_rejoined: bool,
    any_eliminated: bool,
    settings: GameSettings,
) -> bool:
    """RULES.md section 5, auto split: 2 left at a table that started with 3 or more, or 3 left
    at a table that started with more than 3 (or with 3 and someone rejoined); every one of them
    at ``auto_split_min_total`` or more; only after an elimination."""
    values = list(totals_left)
    if not settings.is_pool or not any_eliminated or started_with < 3:
        return False
    if len(values) == 2:
        pass
    elif len(values) == 3:
        if not (started_with > 3 or someone_rejoined):
            return False
    else:
        return False
    return all(total >= settings.auto_split_min_total for total in values)


def manual_split_eligible(
    totals_left: Iterable[int],
    *,
    started_with: int,
    any_eliminated: bool,
    rejoin_is_open: bool,
    settings: GameSettings,
) -> bool:
    """RULES.md section 5, manual split: 2 or 3 left at a table that started with 3 or more,
    after an elimination, no rejoin open, and the largest and smallest drops available differ
    by at most 2. (Call it only when no auto split applies.)"""
    values = list(totals_left)
    if not settings.is_pool or not any_eliminated or rejoin_is_open or started_with < 3:
        return False
    if len(values) not in (2, 3):
        return False
    drops = [drops_available(total, settings) for total in values]
    return max(drops) - min(drops) <= 2


def split_amounts(
    prize: int, drops: Mapping[int, int], *, weighting: str = "drops_plus_one"
) -> dict[int, int]:
    """Split ``prize`` among the seats of ``drops`` (seat → drops available), exactly.

    Weights: "drops_plus_one" → drops + 1 (drops 2 and 0 → 3 : 1); "drops" → drops (equal when
    all are 0); "equal" → 1 each. Each seat gets ⌊prize x weight / Σ weights⌋; leftover units go
    one each to the seats with more drops available first, then the lower seat number.
    """
    if prize < 0:
        raise RulesError(Refusal.PRIZE_NEGATIVE)
    if not drops:
        raise RulesError(Refusal.SPLIT_NEEDS_SEAT)
    if weighting == "drops_plus_one":
        weights = {seat: d + 1 for seat, d in drops.items()}
    elif weighting == "drops":
        weights = dict(drops)
        if sum(weights.values()) == 0:
            weights = {seat: 1 for seat in drops}
    elif weighting == "equal":
        weights = {seat: 1 for seat in drops}
    else:
        raise InvalidSettings(Refusal.UNKNOWN_SPLIT_WEIGHTING, value=repr(weighting))
    if any(w < 0 for w in weights.values()):
        raise RulesError(Refusal.DROPS_NEGATIVE)
    total_weight = sum(weights.values())
    amounts = {seat: prize * w // total_weight for seat, w in weights.items()}
    leftover = prize - sum(amounts.values())
    order = sorted(drops, key=lambda seat: (-drops[seat], seat))
    for i in range(leftover):
        amounts[order[i % len(order)]] += 1
    return amounts


# ---------------------------------------------------------------------------- money


@dataclass(frozen=True)
class Prize:
    """``gross`` = entry x paid entries, ``fee`` = ⌊gross x bps / 10000⌋, ``net`` = the prize."""

    gross: int
    fee: int
    net: int


def platform_fee(gross: int, bps: int) -> int:
    """⌊gross x bps / 10000⌋, in minor units."""
    if gross < 0 or not 0 <= bps <= BPS_DENOMINATOR:
        raise RulesError(Refusal.PLATFORM_FEE_RANGE)
    return gross * bps // BPS_DENOMINATOR


def prize_pool(entry_fee: int, paid_entries: int, fee_bps: int) -> Prize:
    """Prize = entry fee x paid entries (rejoins included) - the platform fee on all of them."""
    if entry_fee < 0 or paid_entries < 0:
        raise RulesError(Refusal.ENTRY_FEE_NEGATIVE)
    gross = entry_fee * paid_entries
    fee = platform_fee(gross, fee_bps)
    return Prize(gross, fee, gross - fee)


def cancel_refunds(paid_entries: Mapping[int, int], entry_fee: int) -> dict[int, int]:
    """A cancelled game refunds every paid entry (rejoins included); no fee is kept."""
    if entry_fee < 0 or any(n < 0 for n in paid_entries.values()):
        raise RulesError(Refusal.ENTRIES_NEGATIVE)
    return {seat: n * entry_fee for seat, n in paid_entries.items()}


# ---------------------------------------------------------------------------- deals


def deals_transfer(
    chips: Mapping[int, int], winner: int | None, points: Mapping[int, int]
) -> dict[int, int]:
    """After a deal the winner takes from each loser chips equal to that loser's points.
    With no winner (an exhausted deal) nothing moves."""
    new = dict(chips)
    if winner is None:
        return new
    if winner not in new:
        raise RulesError(Refusal.SEAT_NO_CHIPS, seat=winner)
    for seat, lost in points.items():
        if seat == winner:
            continue
        if lost < 0:
            raise RulesError(Refusal.DEAL_SCORE_NEGATIVE)
        new[seat] -= lost
        new[winner] += lost
    return new


def deals_leaders(chips: Mapping[int, int]) -> tuple[int, ...]:
    """The seats with the most chips; more than one means a tie-breaker deal among them."""
    if not chips:
        return ()
    top = max(chips.values())
    return tuple(sorted(seat for seat, value in chips.items() if value == top))


# ---------------------------------------------------------------------------- points


@dataclass(frozen=True)
class PointsSettlement:
    """Per-seat net amounts in minor units (the winner's is after the fee); they sum to -fee."""

    nets: Mapping[int, int]
    fee: int


def points_settlement(
    points: Mapping[int, int], winner: int | None, settings: GameSettings
) -> PointsSettlement:
    """Each loser pays points x point value to the winner; the fee is taken from the winner's
    gain. With no winner nobody pays."""
    if winner is None:
        return PointsSettlement({seat: 0 for seat in points}, 0)
    if winner not in points:
        raise RulesError(Refusal.WINNER_NO_SCORE, seat=winner)
    nets: dict[int, int] = {}
    gain = 0
    for seat, value in points.items():
        if seat == winner:
            continue
        if value < 0:
            raise RulesError(Refusal.DEAL_SCORE_NEGATIVE)
        nets[seat] = -value * settings.point_value
        gain += value * settings.point_value
    fee = platform_fee(gain, settings.platform_fee_bps)
    nets[winner] = gain - fee
    return PointsSettlement(dict(sorted(nets.items())), fee)
