"""The tables' part of the ledger reconciliation.

The ledger checks game pots from facts that only the tables know (``ledger.reconcile``): for each
game, its pot reference, the users who held a seat (one unreversed entry fee each), and whether
it finished (exactly one payout or settlement, pot at 0) or was cancelled (refunded, pot at 0).
``register()`` adds this app's provider of those facts and one check of its own; call it once at
start-up (``TablesConfig.ready()``). ``reconcile()`` registers and runs the whole reconciliation.

A player may leave a waiting game (the entry is refunded) and sit down again before it starts,
paying a second entry fee. Such a player is left out of the ledger's one-entry-fee check and
checked by ``check_seat_entries`` instead: for every user and game, the entry fees paid minus
the entries refunded on leaving equal the seats the user still held when the game started (or
was cancelled), that is 1, or 0 for a player who left for good.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ledger.models import AccountKind, Entry, TransactionKind
from ledger.reconcile import (
    Discrepancy,
    PotFacts,
    ReconcileReport,
    pot_facts_provider_register,
    reconcile_check_register,
    reconcile_run,
)
from tables.models import Game, GameStatus, Seat

PROVIDER_NAME = "tables"
CHECK_NAME = "tables_seat_entries"


def _seats_by_game() -> tuple[dict[int, list[int]], set[tuple[int, int]]]:
    """(game id -> users of seats held to the start or the end, {(game, user) with a seat given
    up before the start})."""
    held: dict[int, list[int]] = {}
    refunded: set[tuple[int, int]] = set()
    rows = (
        Seat.objects.filter(game__stake__gt=0)
        .order_by("game_id", "seat_no", "pk")
        .values_list("game_id", "user_id", "refunded")
    )
    for game_id, user_id, was_refunded in rows:
        if was_refunded:
            refunded.add((game_id, user_id))
        else:
            held.setdefault(game_id, []).append(user_id)
    return held, refunded


def game_pot_facts() -> Iterator[PotFacts]:
    """One ``PotFacts`` per game that took money: the users who held a seat without ever giving
    one up before the start, and the game's ending."""
    held, refunded = _seats_by_game()
    for game_id, status in (
        Game.objects.filter(stake__gt=0).order_by("pk").values_list("pk", "status")
    ):
        yield PotFacts(
            ref=f"game:{game_id}",
            seat_user_ids=tuple(u for u in held.get(game_id, ()) if (game_id, u) not in refunded),
            finished=status == GameStatus.FINISHED,
            cancelled=status == GameStatus.CANCELLED,
        )


def check_seat_entries() -> Iterator[Discrepancy]:
    """Entry fees minus leave refunds, per game and user, equal the seats held (0 or 1), for
    every game of this app."""
    held, refunded = _seats_by_game()
    expected: Counter[tuple[str, int]] = Counter()
    for game_id, users in held.items():
        for user_id in users:
            expected[(f"game:{game_id}", user_id)] += 1
    for game_id, user_id in refunded:
        expected[(f"game:{game_id}", user_id)] += 0
    paid: Counter[tuple[str, int]] = Counter()
    rows = (
        Entry.objects.filter(
            account__kind=AccountKind.WALLET,
            transaction__ref__startswith="game:",
            transaction__reversed_by__isnull=True,
        )
        .filter(
            transaction__kind__in=[TransactionKind.ENTRY_FEE, TransactionKind.REFUND],
        )
        .values_list(
            "transaction__ref",
            "account__user_id",
            "transaction__kind",
            "transaction__idempotency_key",
        )
    )
    games = {f"game:{pk}" for pk in Game.objects.filter(stake__gt=0).values_list("pk", flat=True)}
    for ref, user_id, kind, key in rows:
        if ref not in games:  # a pot of no game here: not this check's business
            continue
        if kind == TransactionKind.ENTRY_FEE:
            paid[(ref, user_id)] += 1
        elif key.startswith(f"refund:{ref}:"):
            paid[(ref, user_id)] -= 1
    for pair in sorted(set(expected) | set(paid)):
        if paid[pair] != expected[pair]:
            ref, user_id = pair
            yield Discrepancy(
                CHECK_NAME,
                f"{ref}: user {user_id} has {paid[pair]} entry fees net of leave refunds, "
                f"expected {expected[pair]}",
            )


def register() -> None:
    """Give the ledger's reconciliation the game facts and the seat check (idempotent)."""
    pot_facts_provider_register(name=PROVIDER_NAME, provider=game_pot_facts)
    reconcile_check_register(name=CHECK_NAME, check=check_seat_entries)


def reconcile() -> ReconcileReport:
    """Run the whole ledger reconciliation, game checks included."""
    register()
    return reconcile_run()
