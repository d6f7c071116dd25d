"""The pair signals report: pairs of players who often sit together, with how often one
dropped or lost big to the other and the money that flowed between them. Flags only (as codes
with their figures; ``tables.support.presenters.signal_flags`` puts them in words); it judges
nothing."""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any

from django.db.models import Prefetch

from tables.models import Deal, Game, GameStatus, Seat
from tables.support.replay import amounts_by_seat

__all__ = ["BIG_LOSS_POINTS", "pair_signals"]

BIG_LOSS_POINTS = 60
"""A deal score at or above this counts as a big loss in ``pair_signals``."""


def pair_signals(*, since: datetime | None = None, min_games: int = 2) -> list[dict[str, Any]]:
    """Pairs of players who sat in the same finished games (at least ``min_games``), with how
    often each dropped or lost big (``BIG_LOSS_POINTS``) in a deal the other won, and the chips
    that flowed between them (in a game where one lost money and the other won, the smaller of
    the two amounts). Flags only; it judges nothing.

    Each row: ``a``/``b`` (user ids, ``a < b``), names, ``games``, ``deals``, ``a_drops``,
    ``b_drops`` (drops while the other was in the deal), ``a_big_losses_to_b``,
    ``b_big_losses_to_a``, ``flow_a_to_b``, ``flow_b_to_a``, ``currency``-keyed totals are not
    mixed (practice games are left out), ``deal_ids`` and ``flags``: ``(kind, side)`` pairs,
    ``("drops", side)`` (that side dropped in at least half of the deals, twice or more),
    ``("big_losses", side)`` (lost big to the other twice or more) and ``("one_way", "")``
    (the money flowed one way: what came back is at most a quarter)."""
    games = Game.objects.filter(status=GameStatus.FINISHED).exclude(currency="practice")
    if since is not None:
        games = games.filter(ended_at__gte=since)
    games = games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.filter(played=True).select_related("user"))
    )
    deal_ids = {
        (g, n): pk
        for g, n, pk in Deal.objects.filter(game__in=games).values_list("game_id", "number", "pk")
    }
    pairs: dict[tuple[int, int], dict[str, Any]] = {}
    for game in games:
        seats = {s.seat_no: s for s in game.seats.all()}
        paid = {n: int(s.entry_paid) for n, s in seats.items()}
        payouts = amounts_by_seat(((game.result or {}).get("settlement") or {}).get("payouts"))
        net = {n: payouts.get(n, 0) - paid[n] for n in seats}
        history = (game.state or {}).get("history") or []
        for x, y in itertools.combinations(sorted(seats), 2):
            ux, uy = seats[x].user, seats[y].user
            if ux.pk == uy.pk:
                continue
            (sa, a), (sb, b) = sorted(((x, ux), (y, uy)), key=lambda p: p[1].pk)
            row = pairs.setdefault(
                (a.pk, b.pk),
                {
                    "a": a.pk,
                    "b": b.pk,
                    "a_name": a.username,
                    "b_name": b.username,
                    "games": 0,
                    "deals": 0,
                    "a_drops": 0,
                    "b_drops": 0,
                    "a_big_losses_to_b": 0,
                    "b_big_losses_to_a": 0,
                    "flow_a_to_b": 0,
                    "flow_b_to_a": 0,
                    "deal_ids": [],
                },
            )
            row["games"] += 1
            if net[sa] < 0 < net[sb]:
                row["flow_a_to_b"] += min(-net[sa], net[sb])
            elif net[sb] < 0 < net[sa]:
                row["flow_b_to_a"] += min(-net[sb], net[sa])
            for entry in history:
                results = {int(r["seat"]): r for r in entry.get("results", [])}
                if sa not in results or sb not in results:
                    continue
                row["deals"] += 1
                pk = deal_ids.get((game.pk, int(entry.get("number", 0))))
                if pk is not None:
                    row["deal_ids"].append(pk)
                winner = entry.get("winner")
                for me, other, drops, big in (
                    (sa, sb, "a_drops", "a_big_losses_to_b"),
                    (sb, sa, "b_drops", "b_big_losses_to_a"),
                ):
                    if results[me].get("outcome") == "dropped":
                        row[drops] += 1
                    if winner == other and int(results[me].get("points", 0)) >= BIG_LOSS_POINTS:
                        row[big] += 1
    rows = []
    for row in pairs.values():
        if row["games"] < min_games:
            continue
        flags: list[tuple[str, str]] = []
        deals = max(row["deals"], 1)
        for side, them in (("a", "b"), ("b", "a")):
            if row[f"{side}_drops"] * 2 >= deals and row[f"{side}_drops"] >= 2:
                flags.append(("drops", side))
            if row[f"{side}_big_losses_to_{them}"] >= 2:
                flags.append(("big_losses", side))
        one_way = max(row["flow_a_to_b"], row["flow_b_to_a"])
        back = min(row["flow_a_to_b"], row["flow_b_to_a"])
        if one_way > 0 and back * 4 <= one_way:
            flags.append(("one_way", ""))
        row["flags"] = flags
        row["deal_ids"] = sorted(set(row["deal_ids"]), reverse=True)
        rows.append(row)
    return rows
