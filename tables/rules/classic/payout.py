"""The ring game's payout (RULES.md section 8)."""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import Refusal, RulesError
from .settings import BPS


def ring_payout(
    totals: Mapping[int, int],
    prize: int,
    *,
    gap_limit: int = 80,
    share_bps: int = 2500,
) -> dict[int, int]:
    """Split ``prize`` (minor units) among the seats of ``totals`` (penalty totals) per RULES.md
    section 8. Returns every seat's amount (0 included); the amounts sum to ``prize``.

    The lowest total is 1st. Each other seat whose gap (its total - 1st's) is less than
    ``gap_limit`` gets ``floor(prize * share_bps/10000 * (gap_limit - gap) / S)``, S being the
    sum of ``gap_limit - gap`` over those seats; 1st takes the rest (all of it when nobody
    qualifies).
    Seats with equal totals share equally what their places pay; the units that do not divide
    go one each to the tied seats in ascending seat number. (1st is the lowest seat number among
    the lowest totals, which only matters before the tie is shared.)"""
    if not totals:
        raise RulesError(Refusal.PAYOUT_NEEDS_SEAT)
    if not isinstance(prize, int) or isinstance(prize, bool) or prize < 0:
        raise RulesError(Refusal.SETTING_INTEGER_AT_LEAST, name="prize", low=0)
    order = sorted(totals, key=lambda seat: (totals[seat], seat))
    best = totals[order[0]]
    weights = {
        seat: gap_limit - (totals[seat] - best)
        for seat in order[1:]
        if totals[seat] - best < gap_limit
    }
    weight_sum = sum(weights.values())
    place: dict[int, int] = dict.fromkeys(order, 0)
    for seat, weight in weights.items():
        place[seat] = prize * share_bps * weight // (BPS * weight_sum)
    place[order[0]] = prize - sum(place.values())
    payout: dict[int, int] = {}
    for total in sorted(set(totals.values())):
        tied = sorted(seat for seat in order if totals[seat] == total)
        pool = sum(place[seat] for seat in tied)
        share, left = divmod(pool, len(tied))
        for index, seat in enumerate(tied):
            payout[seat] = share + (1 if index < left else 0)
    return payout
