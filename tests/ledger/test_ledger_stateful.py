"""Stateful property test: random sequences of table money events against a plain-Python model.

Players join (entry fee), leave before the start (refund), games start, players drop (no money),
rejoin (rejoin fee), games are paid out, settled (points) or cancelled (refund of everything),
requests are replayed (same key, same or different content) and staff reverse transactions. The
model predicts every outcome, including the typed refusal, and after every step the database must
agree with it and reconcile cleanly."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from accounts.models import User
from ledger import selectors, services
from ledger.errors import (
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
    PotClosed,
    RefundExceedsStake,
    UnbalancedTransaction,
)
from ledger.models import Account, Transaction
from ledger.reconcile import reconcile_run

PLAYERS = 3
TABLES = 2
FEES = (100, 250)
FEE_PERCENT = 10

Legs = dict[tuple[str, int], int]


@dataclass
class Posted:
    """A successful posting: how to replay it and what it moved (model account -> amount)."""

    call: Any
    kwargs: dict[str, Any]
    tx_id: int
    legs: Legs
    kind: str
    amount_arg: str | None = None


@dataclass
class Game:
    table: int
    ref: str
    pot: int = 0
    contrib: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    pot_exists: bool = False
    closed: bool = False
    closings: int = 0
    seated: set[int] = field(default_factory=set)
    started: bool = False

    @property
    def fee(self) -> int:
        return FEES[self.table]


@dataclass
class Model:
    wallet: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    games: list[Game] = field(default_factory=list)
    fees: int = 0

    def apply(self, legs: Legs) -> None:
        touched = [g for (kind, g) in legs if kind == "pot"]
        for (kind, i), amount in legs.items():
            if kind == "wallet":
                self.wallet[i] += amount
                for g in touched:
                    self.games[g].contrib[i] -= amount
            elif kind == "pot":
                self.games[i].pot += amount
                self.games[i].pot_exists = True
            elif kind == "fees":
                self.fees += amount

    def predict(self, legs: Legs) -> type[LedgerError] | None:
        """The refusal ``_write`` raises for these legs (None: it posts)."""
        for (kind, i), amount in legs.items():
            if kind == "wallet" and self.wallet[i] + amount < 0:
                return InsufficientFunds
            if kind == "pot" and self.games[i].pot + amount < 0:
                return UnbalancedTransaction
        return None


class LedgerMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.tag = uuid.uuid4().hex[:8]
        self.users = [User.objects.create(username=f"sm-{self.tag}-{i}") for i in range(PLAYERS)]
        self.staff = User.objects.create(username=f"sm-{self.tag}-staff", is_staff=True)
        self.m = Model()
        self.tables = [self.new_game(t) for t in range(TABLES)]
        self.posted: list[Posted] = []
        self.reversed: set[int] = set()
        self.counter = 0

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # --- helpers --------------------------------------------------------------------------------

    def new_game(self, table: int) -> int:
        self.m.games.append(Game(table=table, ref=f"game:{self.tag}-{len(self.m.games)}"))
        return len(self.m.games) - 1

    def key(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}:{self.counter}"

    def snapshot(self) -> tuple[Any, ...]:
        return (
            Transaction.objects.count(),
            sorted(Account.objects.values_list("pk", "balance", "closed_at")),
        )

    def post(
        self,
        call: Any,
        kwargs: dict[str, Any],
        legs: Legs,
        expected: type[LedgerError] | None,
        kind: str,
        amount_arg: str | None = None,
    ) -> Any:
        if expected is not None:
            before = self.snapshot()
            with pytest.raises(expected):
                call(**kwargs)
            assert self.snapshot() == before
            return None
        tx = call(**kwargs)
        self.m.apply(legs)
        self.posted.append(Posted(call, kwargs, tx.pk, legs, kind, amount_arg))
        return tx

    def pick(self, data: st.DataObject, options: list[Any]) -> Any:
        return data.draw(st.sampled_from(options)) if options else None

    def current(self) -> list[Game]:
        return [self.m.games[g] for g in self.tables]

    def can_leave(self) -> list[tuple[int, int]]:
        return [
            (g, p)
            for g in self.tables
            for p in sorted(self.m.games[g].seated)
            if not self.m.games[g].started
        ]

    def can_start(self) -> list[int]:
        return [
            g
            for g in self.tables
            if len(self.m.games[g].seated) >= 2
            and not self.m.games[g].started
            and not self.m.games[g].closed
        ]

    def can_drop(self) -> list[tuple[int, int]]:
        return [
            (g, p)
            for g in self.tables
            for p in sorted(self.m.games[g].seated)
            if self.m.games[g].started
        ]

    def can_rejoin(self) -> list[tuple[int, int]]:
        return [
            (g, p)
            for g in self.tables
            for p in range(PLAYERS)
            if self.m.games[g].started and p not in self.m.games[g].seated
        ]

    def can_settle(self) -> list[int]:
        return [
            g
            for g in self.tables
            if self.m.games[g].started and not self.m.games[g].closed and self.m.games[g].pot > 0
        ]

    def hold(self, call: Any, kind: str, g: int, p: int, prefix: str) -> Any:
        game = self.m.games[g]
        legs = {("wallet", p): -game.fee, ("pot", g): game.fee}
        expected = PotClosed if game.closed else self.m.predict(legs)
        kwargs = {
            "user": self.users[p],
            "currency": "cash",
            "pot_ref": game.ref,
            "amount": game.fee,
            "idempotency_key": self.key(f"{prefix}:{game.ref}:{p}"),
        }
        tx = self.post(call, kwargs, legs, expected, kind, "amount")
        if tx is not None:
            game.seated.add(p)
        return tx

    # --- rules ----------------------------------------------------------------------------------

    @initialize(amounts=st.lists(st.integers(0, 1500), min_size=PLAYERS, max_size=PLAYERS))
    def fund_players(self, amounts: list[int]) -> None:
        for p, amount in enumerate(amounts):
            if amount:
                self.deposit(p, amount)

    @rule(p=st.integers(0, PLAYERS - 1), amount=st.integers(1, 800))
    def deposit(self, p: int, amount: int) -> None:
        self.post(
            services.wallet_deposit,
            {
                "user": self.users[p],
                "currency": "cash",
                "amount": amount,
                "idempotency_key": self.key("deposit"),
            },
            {("wallet", p): amount},
            None,
            "deposit",
            "amount",
        )

    @rule(data=st.data(), how_many=st.integers(1, PLAYERS))
    def join(self, data: st.DataObject, how_many: int) -> None:
        """Players take seats at the tables' games before they start."""
        options = [
            (g, p)
            for g in self.tables
            for p in range(PLAYERS)
            if p not in self.m.games[g].seated and not self.m.games[g].started
        ]
        if not options:
            return
        chosen = data.draw(
            st.lists(st.sampled_from(options), min_size=1, max_size=how_many, unique=True)
        )
        for g, p in chosen:
            self.hold(services.pot_hold_entry, "entry_fee", g, p, prefix="entry")

    @precondition(lambda self: self.can_leave())
    @rule(data=st.data())
    def leave_before_start(self, data: st.DataObject) -> None:
        choice = self.pick(data, self.can_leave())
        if not choice:
            return
        g, p = choice
        game = self.m.games[g]
        legs = {("pot", g): -game.fee, ("wallet", p): game.fee}
        if game.closed:
            expected: type[LedgerError] | None = PotClosed
        elif game.contrib[p] < game.fee:
            expected = RefundExceedsStake
        else:
            expected = self.m.predict(legs)
        kwargs = {
            "user": self.users[p],
            "currency": "cash",
            "pot_ref": game.ref,
            "amount": game.fee,
            "idempotency_key": self.key(f"refund:{game.ref}:{p}"),
        }
        self.post(services.pot_refund_entry, kwargs, legs, expected, "refund", "amount")
        game.seated.discard(p)

    @precondition(lambda self: self.can_start())
    @rule(data=st.data())
    def start(self, data: st.DataObject) -> None:
        g = self.pick(data, self.can_start())
        if g is not None:
            self.m.games[g].started = True

    @precondition(lambda self: self.can_drop())
    @rule(data=st.data())
    def drop(self, data: st.DataObject) -> None:
        """Leaving a running game moves no money (nothing is refunded)."""
        choice = self.pick(data, self.can_drop())
        if choice:
            before = self.snapshot()
            self.m.games[choice[0]].seated.discard(choice[1])
            assert self.snapshot() == before

    @precondition(lambda self: self.can_rejoin())
    @rule(data=st.data())
    def rejoin(self, data: st.DataObject) -> None:
        choice = self.pick(data, self.can_rejoin())
        if choice:
            g, p = choice
            self.hold(services.pot_hold_rejoin, "rejoin_fee", g, p, prefix="rejoin")

    @precondition(lambda self: self.can_settle())
    @rule(data=st.data(), points=st.booleans())
    def settle(self, data: st.DataObject, points: bool) -> None:
        self.settle_game(data, self.pick(data, self.can_settle()), points)

    def settle_game(self, data: st.DataObject, g: int, points: bool) -> None:
        game = self.m.games[g]
        fee = game.pot * FEE_PERCENT // 100
        prize = game.pot - fee
        winners = data.draw(
            st.lists(st.integers(0, PLAYERS - 1), min_size=1, max_size=PLAYERS, unique=True)
        )
        cuts = sorted(
            data.draw(
                st.lists(
                    st.integers(0, prize), min_size=len(winners) - 1, max_size=len(winners) - 1
                )
            )
        )
        bounds = [0, *cuts, prize]
        shares = {w: bounds[i + 1] - bounds[i] for i, w in enumerate(winners)}
        call, arg, kind = (
            (services.pot_settle, "returns", "settlement")
            if points
            else (services.pot_payout, "payouts", "payout")
        )
        kwargs = {
            "pot_ref": game.ref,
            "currency": "cash",
            "fee": fee,
            arg: {self.users[w].pk: a for w, a in shares.items()},
            "idempotency_key": self.key(f"settle:{game.ref}"),
        }
        legs: Legs = {("pot", g): -game.pot, **{("wallet", w): a for w, a in shares.items() if a}}
        if fee:
            legs[("fees", 0)] = fee
        self.post(call, kwargs, legs, None, kind)
        game.closed = True
        game.closings += 1
        assert selectors.pot_balance(pot_ref=game.ref, currency="cash") == 0

    @precondition(lambda self: any(game.closed for game in self.m.games))
    @rule(data=st.data(), p=st.integers(0, PLAYERS - 1))
    def late_entry(self, data: st.DataObject, p: int) -> None:
        """Paying into a game that is over is refused."""
        g = self.pick(data, [g for g, game in enumerate(self.m.games) if game.closed])
        self.hold(services.pot_hold_entry, "entry_fee", g, p, prefix="late")

    @rule(data=st.data(), old=st.booleans())
    def cancel(self, data: st.DataObject, old: bool) -> None:
        """Cancel a table's game (or, sometimes, any earlier game)."""
        self.cancel_game(
            data.draw(st.sampled_from(range(len(self.m.games)) if old else self.tables))
        )

    def cancel_game(self, g: int) -> None:
        game = self.m.games[g]
        kwargs = {
            "pot_ref": game.ref,
            "currency": "cash",
            "idempotency_key": self.key(f"cancel:{game.ref}"),
        }
        before = self.snapshot()
        if not game.pot_exists:
            assert services.pot_cancel_refund(**kwargs) is None
            assert self.snapshot() == before
            return
        if game.pot == 0:
            if game.closings:
                with pytest.raises(PotClosed):
                    services.pot_cancel_refund(**kwargs)
                assert self.snapshot() == before
            else:
                assert services.pot_cancel_refund(**kwargs) is None
                game.closed = True
            return
        refunds = {p: c for p, c in enumerate(game.contrib) if c}
        if game.closed:
            expected: type[LedgerError] | None = PotClosed
        elif any(c < 0 for c in refunds.values()) or sum(refunds.values()) != game.pot:
            expected = UnbalancedTransaction
        else:
            expected = None
        legs = {("pot", g): -game.pot, **{("wallet", p): c for p, c in refunds.items()}}
        if self.post(services.pot_cancel_refund, kwargs, legs, expected, "refund") is not None:
            game.closed = True
            game.seated.clear()

    @rule(
        data=st.data(),
        table=st.integers(0, TABLES - 1),
        ending=st.sampled_from(["payout", "points", "cancel"]),
    )
    def play_through(self, data: st.DataObject, table: int, ending: str) -> None:
        """A whole game at one table: seats, leavers, start, drops, rejoins, then a payout, a
        points settlement or a cancellation."""
        if self.m.games[self.tables[table]].closed:
            self.tables[table] = self.new_game(table)
        g = self.tables[table]
        game = self.m.games[g]
        if not game.started:
            for p in range(PLAYERS):
                if p not in game.seated:
                    self.hold(services.pot_hold_entry, "entry_fee", g, p, prefix="entry")
            if len(game.seated) < 2:
                return
            game.started = True
        for _ in range(data.draw(st.integers(0, 3))):
            p = data.draw(st.integers(0, PLAYERS - 1))
            if p in game.seated:
                game.seated.discard(p)  # a drop: no money moves
            else:
                self.hold(services.pot_hold_rejoin, "rejoin_fee", g, p, prefix="rejoin")
        if ending == "cancel":
            self.cancel_game(g)
        elif game.pot > 0 and not game.closed:
            self.settle_game(data, g, ending == "points")

    @precondition(lambda self: any(self.m.games[g].closed for g in self.tables))
    @rule(table=st.integers(0, TABLES - 1))
    def next_game(self, table: int) -> None:
        """A table whose game is over opens a new game (a new pot)."""
        if self.m.games[self.tables[table]].closed:
            self.tables[table] = self.new_game(table)

    @precondition(lambda self: self.posted)
    @rule(data=st.data())
    def replay(self, data: st.DataObject) -> None:
        done = self.pick(data, self.posted)
        if done is None:
            return
        before = self.snapshot()
        tx = done.call(**done.kwargs)
        assert tx.pk == done.tx_id
        assert self.snapshot() == before

    @precondition(lambda self: self.posted)
    @rule(data=st.data())
    def replay_with_other_content(self, data: st.DataObject) -> None:
        done = self.pick(data, [d for d in self.posted if d.amount_arg])
        if done is None:
            return
        changed = {**done.kwargs, done.amount_arg: done.kwargs[done.amount_arg] + 1}
        before = self.snapshot()
        with pytest.raises(IdempotencyConflict):
            done.call(**changed)
        assert self.snapshot() == before

    @precondition(lambda self: self.posted)
    @rule(data=st.data())
    def reverse(self, data: st.DataObject) -> None:
        done = self.pick(
            data, [d for d in self.posted if d.kind != "reversal" and d.tx_id not in self.reversed]
        )
        if done is None:
            return
        legs = {k: -v for k, v in done.legs.items()}
        kwargs: dict[str, Any] = {
            "transaction": Transaction.objects.get(pk=done.tx_id),
            "reason": "test",
            "staff_user": self.staff,
            "idempotency_key": f"reverse:tx:{done.tx_id}",
        }
        if self.m.predict(legs) is not None:
            # Either refusal may come first when both a wallet and a pot would go negative.
            before = self.snapshot()
            with pytest.raises((InsufficientFunds, UnbalancedTransaction)):
                services.transaction_reverse(**kwargs)
            assert self.snapshot() == before
            return
        self.post(services.transaction_reverse, kwargs, legs, None, "reversal")
        self.reversed.add(done.tx_id)
        for kind, g in legs:
            if kind == "pot" and self.m.games[g].pot > 0:
                self.m.games[g].closed = False
            if kind == "pot" and done.kind in ("payout", "settlement"):
                self.m.games[g].closings -= 1

    # --- invariants -----------------------------------------------------------------------------

    @invariant()
    def database_agrees_with_the_model(self) -> None:
        for p, user in enumerate(self.users):
            assert selectors.wallet_balance(user=user, currency="cash") == self.m.wallet[p]
        for game in self.m.games:
            assert selectors.pot_balance(pot_ref=game.ref, currency="cash") == game.pot
            expected = {self.users[p].pk: c for p, c in enumerate(game.contrib) if c}
            assert selectors.pot_contributions(pot_ref=game.ref) == expected
            pot = Account.objects.filter(kind="pot", ref=game.ref).first()
            assert (pot is not None) == game.pot_exists
            if pot is not None:
                assert (pot.closed_at is not None) == game.closed
        fees = Account.objects.filter(kind="fees", currency="cash").first()
        assert (fees.balance if fees else 0) == self.m.fees

    @invariant()
    def ledger_reconciles(self) -> None:
        assert reconcile_run().discrepancies == ()
        assert all(b >= 0 for b in self.m.wallet)


@pytest.mark.django_db
def test_ledger_state_machine() -> None:
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(
            max_examples=20,
            stateful_step_count=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
