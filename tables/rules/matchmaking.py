"""Play now's choice among the open tables of a kind (pure: no Django; the benchmark
``benchmarks/bench_matchmaking.py`` runs it as ``tables.services.matching`` does).

Today's rule, kept: the waiting table with the most players first (a player joining it starts
no later than at any other), then the older table. Ratings only reorder tables that rule
ranks equally (as many players seated): among them, the one whose seated people's mean
rating is nearest the player's comes first; a table with nothing known about its people
(empty, or only computer players) after those with.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["OpenTable", "mean_distance", "table_order"]


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A table Play now may seat the player at: its id (older tables have smaller ids), how
    many players sit at it, and how far its people's mean rating is from the player's
    (``None``: not known)."""

    table_id: int
    taken: int
    distance: float | None = None


def mean_distance(rating: float | None, seated: Sequence[float]) -> float | None:
    """How far the mean of ``seated`` ratings is from ``rating`` (``None`` when either is
    unknown)."""
    if rating is None or not seated:
        return None
    return abs(sum(seated) / len(seated) - rating)


def table_order(tables: Sequence[OpenTable]) -> list[int]:
    """The table ids in the order Play now tries them: the fullest first; among tables as
    full, the nearest in rating, then the older."""

    def key(t: OpenTable) -> tuple[int, float, int]:
        return (-t.taken, math.inf if t.distance is None else t.distance, t.table_id)

    return [t.table_id for t in sorted(tables, key=key)]
