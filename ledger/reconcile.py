"""Reconciliation: prove the ledger is whole, or name every discrepancy.

``reconcile_run()`` runs the ledger's own checks and then every registered one; the management
command ``reconcile_ledger`` prints the result and exits non-zero on any discrepancy.

Ledger-only checks (always run):

* ``currency_sums``: the entries of each currency sum to zero;
* ``transactions_balanced``: every transaction has two or more entries summing to zero, all in
  the transaction's currency and its accounts' currency;
* ``cached_balances``: every account's cached balance equals the sum of its entries;
* ``running_balances``: every entry's ``balance_after`` equals the running sum of its account;
* ``non_negative``: no player wallet and no pot below zero;
* ``closed_pots_empty``: a pot closed by a payout, settlement or cancellation holds nothing;
* ``reversals_mirror``: every reversal is the exact opposite of the transaction it reverses;
* ``provider_clearing``: the clearing account is minus the sum of the paid deposits, each paid
  deposit has its one deposit transaction of its amount, and no clearing posting lacks a paid
  deposit;
* ``pending_withdrawals``: the pending-withdrawals account holds exactly the pending requests,
  and every request has its hold (and its payout or return once decided) of its amount.

Game checks need facts the ledger does not own. The tables app supplies them without the ledger
importing it: in its ``AppConfig.ready()`` it registers a provider of ``PotFacts``::

    from ledger.reconcile import PotFacts, pot_facts_provider_register

    def game_pot_facts():
        for game in Game.objects.filter(...):
            yield PotFacts(ref=game.pot_ref, seat_user_ids=(...), finished=..., cancelled=...)

    pot_facts_provider_register(name="tables", provider=game_pot_facts)

and the ledger checks, for each fact: ``game_pots_empty`` (a finished or cancelled game's pot is
0), ``entry_fees`` (every seat paid exactly one unreversed entry fee) and ``game_closings``
(a finished game has exactly one unreversed payout or settlement; a cancelled one none). Any
other check can be added with ``reconcile_check_register(name=..., check=...)``: a callable
returning an iterable of ``Discrepancy``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import cast

from django.db.models import Count, F, Q, Sum, Window
from django.db.models.functions import Coalesce
from django.dispatch import Signal

from .currencies import format_amount
from .models import NON_NEGATIVE_KINDS, Account, AccountKind, Entry, Transaction, TransactionKind
from .payments.models import Deposit, DepositStatus, Withdrawal
from .payments.selectors import deposits_paid_total, withdrawals_pending_total
from .selectors import closing_counts, entry_fee_counts, pot_balances


@dataclass(frozen=True)
class Discrepancy:
    check: str
    message: str

    def __str__(self) -> str:
        return f"[{self.check}] {self.message}"


@dataclass(frozen=True)
class PotFacts:
    """What the game owner knows about one pot: its reference, the users who held a seat in the
    game (one entry fee each), and whether the game finished (paid out or settled) or was
    cancelled (refunded). A game still waiting or running has both flags False."""

    ref: str
    seat_user_ids: tuple[int, ...]
    finished: bool = False
    cancelled: bool = False


@dataclass(frozen=True)
class ReconcileReport:
    checks: tuple[str, ...]
    discrepancies: tuple[Discrepancy, ...]

    @property
    def ok(self) -> bool:
        return not self.discrepancies


ReconcileCheck = Callable[[], Iterable[Discrepancy]]
PotFactsProvider = Callable[[], Iterable[PotFacts]]

# The registered checks and providers are the receivers of two Django signals (the project's one
# observer mechanism), each answering its name and its callable; a name registered again
# replaces the earlier one.
reconcile_check_signal = Signal()
pot_facts_signal = Signal()


def _register(signal: Signal, name: str, answer: ReconcileCheck | PotFactsProvider) -> None:
    signal.disconnect(dispatch_uid=name)

    def receiver(sender: object, **kwargs: object) -> tuple[str, object]:
        return name, answer

    signal.connect(receiver, weak=False, dispatch_uid=name)


def _registered(signal: Signal) -> list[tuple[str, Callable[[], object]]]:
    return [cast("tuple[str, Callable[[], object]]", answer) for _, answer in signal.send(None)]


def reconcile_check_register(*, name: str, check: ReconcileCheck) -> None:
    """Add (or replace) a named check run by ``reconcile_run``."""
    _register(reconcile_check_signal, name, check)


def reconcile_check_unregister(*, name: str) -> None:
    reconcile_check_signal.disconnect(dispatch_uid=name)


def pot_facts_provider_register(*, name: str, provider: PotFactsProvider) -> None:
    """Add (or replace) a named source of ``PotFacts`` for the game checks."""
    _register(pot_facts_signal, name, provider)


def pot_facts_provider_unregister(*, name: str) -> None:
    pot_facts_signal.disconnect(dispatch_uid=name)


# --- ledger-only checks ------------------------------------------------------------------------


def check_currency_sums() -> Iterator[Discrepancy]:
    rows = Entry.objects.values_list("currency").annotate(total=Sum("amount")).order_by()
    for currency, total in rows:
        if total:
            yield Discrepancy(
                "currency_sums",
                f"{currency} entries sum to {format_amount(total, currency)}, not zero",
            )


def check_transactions_balanced() -> Iterator[Discrepancy]:
    rows = (
        Transaction.objects.annotate(
            total=Coalesce(Sum("entries__amount"), 0), legs=Count("entries")
        )
        .filter(Q(legs__lt=2) | ~Q(total=0))
        .values_list("pk", "idempotency_key", "legs", "total")
    )
    for pk, key, legs, total in rows:
        yield Discrepancy(
            "transactions_balanced",
            f"transaction {pk} [{key}] has {legs} entries summing to {total}",
        )
    mismatched = Entry.objects.filter(
        ~Q(currency=F("account__currency")) | ~Q(currency=F("transaction__currency"))
    ).values_list("pk", "transaction_id", "account_id")
    for pk, tx_id, account_id in mismatched:
        yield Discrepancy(
            "transactions_balanced",
            f"entry {pk} of transaction {tx_id} on account {account_id} mixes currencies",
        )


def check_cached_balances() -> Iterator[Discrepancy]:
    rows = (
        Account.objects.annotate(total=Coalesce(Sum("entries__amount"), 0))
        .exclude(balance=F("total"))
        .values_list("pk", "kind", "ref", "user_id", "currency", "balance", "total")
    )
    for pk, kind, ref, user_id, currency, balance, total in rows:
        label = ref or (f"user {user_id}" if user_id else kind)
        yield Discrepancy(
            "cached_balances",
            f"account {pk} ({kind} {label} {currency}) caches {balance} but its entries sum "
            f"to {total}",
        )


def check_running_balances() -> Iterator[Discrepancy]:
    running = (
        Entry.objects.annotate(
            running=Window(Sum("amount"), partition_by=[F("account_id")], order_by=F("id").asc())
        )
        .exclude(balance_after=F("running"))
        .values_list("pk", "account_id", "balance_after", "running")
    )
    for pk, account_id, balance_after, total in running:
        yield Discrepancy(
            "running_balances",
            f"entry {pk} on account {account_id} records balance_after {balance_after}, "
            f"the running sum is {total}",
        )


def check_non_negative() -> Iterator[Discrepancy]:
    rows = Account.objects.filter(kind__in=NON_NEGATIVE_KINDS, balance__lt=0).values_list(
        "pk", "kind", "ref", "user_id", "currency", "balance"
    )
    for pk, kind, ref, user_id, currency, balance in rows:
        who = ref or f"user {user_id}"
        yield Discrepancy(
            "non_negative",
            f"{kind} {who} (account {pk}) is negative: {format_amount(balance, currency)}",
        )


def check_closed_pots_empty() -> Iterator[Discrepancy]:
    rows = Account.objects.filter(kind=AccountKind.POT, closed_at__isnull=False).exclude(balance=0)
    for pot in rows:
        yield Discrepancy(
            "closed_pots_empty",
            f"pot {pot.ref} is closed but holds {format_amount(pot.balance, pot.currency)}",
        )


def check_reversals_mirror() -> Iterator[Discrepancy]:
    reversals = Transaction.objects.filter(kind=TransactionKind.REVERSAL).values_list(
        "pk", "reverses_id"
    )
    pairs = list(reversals)
    ids = {pk for pair in pairs for pk in pair if pk is not None}
    legs: dict[int, dict[int, int]] = defaultdict(dict)
    for tx_id, account_id, amount in Entry.objects.filter(transaction_id__in=ids).values_list(
        "transaction_id", "account_id", "amount"
    ):
        legs[tx_id][account_id] = amount
    for pk, original in pairs:
        if original is None:
            yield Discrepancy("reversals_mirror", f"reversal {pk} names no original")
            continue
        expected = {account: -amount for account, amount in legs[original].items()}
        if legs[pk] != expected:
            yield Discrepancy(
                "reversals_mirror",
                f"reversal {pk} does not mirror transaction {original}",
            )


def check_provider_clearing() -> Iterator[Discrepancy]:
    paid_total = deposits_paid_total()
    clearing = Account.objects.filter(kind=AccountKind.CLEARING, currency="cash").first()
    balance = clearing.balance if clearing is not None else 0
    if balance != -paid_total:
        yield Discrepancy(
            "provider_clearing",
            f"the clearing account holds {format_amount(balance, 'cash')}, paid deposits total "
            f"{format_amount(paid_total, 'cash')} (expected the opposite)",
        )
    credited = dict(
        Entry.objects.filter(account__kind=AccountKind.CLEARING).values_list(
            "transaction_id", "amount"
        )
    )
    for reference, amount, tx_id in Deposit.objects.filter(status=DepositStatus.PAID).values_list(
        "reference", "amount", "transaction_id"
    ):
        if credited.pop(tx_id, None) != -amount:
            yield Discrepancy(
                "provider_clearing", f"paid deposit {reference} has no credit of its amount"
            )
    for tx_id in credited:
        yield Discrepancy(
            "provider_clearing", f"transaction {tx_id} moved clearing money for no paid deposit"
        )


def check_pending_withdrawals() -> Iterator[Discrepancy]:
    pending_total = withdrawals_pending_total()
    account = Account.objects.filter(kind=AccountKind.PENDING_PAYOUTS, currency="cash").first()
    balance = account.balance if account is not None else 0
    if balance != pending_total:
        yield Discrepancy(
            "pending_withdrawals",
            f"the pending-withdrawals account holds {format_amount(balance, 'cash')}, pending "
            f"requests total {format_amount(pending_total, 'cash')}",
        )
    legs: dict[str, int] = dict(
        Entry.objects.filter(account__kind=AccountKind.PENDING_PAYOUTS).values_list(
            "transaction__idempotency_key", "amount"
        )
    )
    for pk, amount, status in Withdrawal.objects.values_list("pk", "amount", "status"):
        if legs.get(f"withdrawal:{pk}:hold") != amount:
            yield Discrepancy("pending_withdrawals", f"withdrawal {pk} has no hold of its amount")
        released = {
            step: legs[f"withdrawal:{pk}:{step}"]
            for step in ("approve", "reject")
            if f"withdrawal:{pk}:{step}" in legs
        }
        expected = {"approved": {"approve": -amount}, "rejected": {"reject": -amount}}
        if released != expected.get(status, {}):
            yield Discrepancy(
                "pending_withdrawals",
                f"withdrawal {pk} is {status} but the ledger released {released or 'nothing'}",
            )


LEDGER_CHECKS: dict[str, ReconcileCheck] = {
    "currency_sums": check_currency_sums,
    "transactions_balanced": check_transactions_balanced,
    "cached_balances": check_cached_balances,
    "running_balances": check_running_balances,
    "non_negative": check_non_negative,
    "closed_pots_empty": check_closed_pots_empty,
    "reversals_mirror": check_reversals_mirror,
    "provider_clearing": check_provider_clearing,
    "pending_withdrawals": check_pending_withdrawals,
}


# --- game checks from registered facts ---------------------------------------------------------


def check_pot_facts(facts: Iterable[PotFacts]) -> Iterator[Discrepancy]:
    facts = list(facts)
    refs = [fact.ref for fact in facts]
    balances = pot_balances(refs=refs)
    closings = closing_counts(refs=refs)
    for fact in facts:
        balance = balances.get(fact.ref, 0)
        if (fact.finished or fact.cancelled) and balance != 0:
            state = "cancelled" if fact.cancelled else "finished"
            yield Discrepancy(
                "game_pots_empty", f"pot {fact.ref} of a {state} game holds {balance}"
            )
        fees = entry_fee_counts(ref=fact.ref)
        for user_id in fact.seat_user_ids:
            paid = fees.get(user_id, 0)
            if paid != 1:
                yield Discrepancy(
                    "entry_fees",
                    f"{fact.ref}: seat of user {user_id} has {paid} entry fees, expected 1",
                )
        closed = closings.get(fact.ref, 0)
        if fact.finished and not fact.cancelled and closed != 1:
            yield Discrepancy(
                "game_closings",
                f"{fact.ref}: finished game has {closed} payouts/settlements, expected 1",
            )
        if fact.cancelled and closed != 0:
            yield Discrepancy(
                "game_closings",
                f"{fact.ref}: cancelled game has {closed} payouts/settlements, expected 0",
            )


def reconcile_run() -> ReconcileReport:
    """Run every check; return the names run and the discrepancies found."""
    names: list[str] = []
    found: list[Discrepancy] = []
    checks = {**LEDGER_CHECKS, **dict(_registered(reconcile_check_signal))}
    for name, check in checks.items():
        names.append(name)
        found.extend(cast("Iterable[Discrepancy]", check()))
    for name, provider in _registered(pot_facts_signal):
        names.append(f"pot_facts:{name}")
        found.extend(check_pot_facts(cast("Iterable[PotFacts]", provider())))
    return ReconcileReport(checks=tuple(names), discrepancies=tuple(found))
