"""Writes to the ledger: every movement of money goes through these functions.

All functions are keyword-only and return the ``Transaction`` they posted (or, for a replay, the
one posted the first time). Amounts are ``int`` minor units. Each posting:

1. validates its arguments (``InvalidAmount``, ``InvalidCurrency``, ``InvalidReference``...);
2. in one database transaction (``retry_on_conflict``: serialization failures and deadlocks are
   retried, never surfaced), finds or creates the accounts it touches and locks them all with
   ``SELECT ... FOR UPDATE`` in primary-key order;
3. looks up its idempotency key: the same key with the same request returns the original
   transaction; the same key with a different request raises ``IdempotencyConflict``;
4. checks the business rules under the lock (funds, pot state) and writes one ``Transaction``
   and its balanced ``Entry`` rows. The database adds each entry to its account's cached balance,
   refuses a negative wallet or pot, and refuses to commit an unbalanced transaction.

A refused operation raises a ``LedgerError`` subclass and changes nothing. Called inside an
enclosing ``atomic`` block (a game action), a posting runs in a savepoint of that transaction;
the caller should wrap its whole unit of work in ``retry_on_conflict``.

Idempotency keys name the domain event: ``entry:game:12:seat:3``, ``rejoin:game:12:seat:3:1``,
``refund:game:12:seat:3``, ``settle:game:12``, ``cancel:game:12``, ``reverse:tx:881``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Sum
from django.utils import timezone

from accounts.models import User

from .currencies import CURRENCY_INFO, format_amount
from .db import retry_on_conflict
from .errors import (
    AlreadyReversed,
    CurrencyMismatch,
    EmptyTransaction,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidCurrency,
    InvalidReference,
    LedgerError,
    NotReversible,
    PotClosed,
    PotNotEmpty,
    ReasonRequired,
    RefundExceedsStake,
    StaffRequired,
    UnbalancedTransaction,
    UnknownUser,
)
from .models import Account, AccountKind, Entry, Transaction, TransactionKind

__all__ = [
    "MAX_AMOUNT",
    "accounts_lock",
    "pot_cancel_refund",
    "pot_hold_entry",
    "pot_hold_rejoin",
    "pot_payout",
    "pot_refund_entry",
    "pot_settle",
    "retry_on_conflict",
    "transaction_reverse",
    "wallet_adjust",
    "wallet_deposit",
    "wallet_get_or_create",
    "wallet_withdraw",
]

# Largest single amount accepted (10^15 minor units = ₹10 lakh crore): far above any real
# movement, far below the 64-bit limit of the balance columns.
MAX_AMOUNT = 10**15
MAX_KEY_LENGTH = 200
MAX_REF_LENGTH = 64
REF_PATTERN = re.compile(r"^[a-z][a-z0-9_-]*:[A-Za-z0-9._:-]+$")


# --- argument checks ------------------------------------------------------------------------


def _check_amount(value: object, *, allow_zero: bool = False, signed: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAmount("Amounts must be whole numbers of minor units.", amount=repr(value))
    if value == 0 and not allow_zero:
        raise InvalidAmount("The amount cannot be zero.", amount=value)
    if value < 0 and not signed:
        raise InvalidAmount("The amount cannot be negative.", amount=value)
    if abs(value) > MAX_AMOUNT:
        raise InvalidAmount("The amount is too large.", amount=value)
    return value


def _check_currency(currency: object) -> str:
    if not isinstance(currency, str) or currency not in CURRENCY_INFO:
        raise InvalidCurrency(f"Unknown currency {currency!r}.", currency=repr(currency))
    return currency


def _check_ref(ref: object, *, required: bool) -> str:
    if ref == "" and not required:
        return ""
    if not isinstance(ref, str) or len(ref) > MAX_REF_LENGTH or not REF_PATTERN.fullmatch(ref):
        raise InvalidReference(
            f"Invalid reference {ref!r}: expected a form like 'game:12'.", ref=repr(ref)
        )
    return ref


def _check_key(key: object) -> str:
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_KEY_LENGTH:
        raise InvalidReference(
            "Every posting needs an idempotency key of 1 to 200 characters.", key=repr(key)
        )
    return key


def _check_reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ReasonRequired("A reason is required for this operation.")
    return reason.strip()


def _check_staff(staff_user: object) -> User:
    if not isinstance(staff_user, User) or not staff_user.is_staff or not staff_user.is_active:
        raise StaffRequired("Only an active staff member can do this.")
    return staff_user


def _check_user(user: object) -> User:
    if not isinstance(user, User) or user.pk is None:
        raise UnknownUser("No such player.")
    return user


def _fingerprint(op: str, **fields: Any) -> str:
    """Digest of the request (not of its computed legs): a replay is recognised by what was
    asked, even when the state it acted on has moved since."""
    payload = json.dumps({"op": op, **fields}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


# --- accounts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ident:
    """The identity of an account a posting needs (found or created on demand)."""

    kind: str
    currency: str
    user_id: int | None = None
    ref: str = ""

    @classmethod
    def wallet(cls, user_id: int, currency: str) -> _Ident:
        return cls(AccountKind.WALLET, currency, user_id=user_id)

    @classmethod
    def pot(cls, ref: str, currency: str) -> _Ident:
        return cls(AccountKind.POT, currency, ref=ref)

    @classmethod
    def house(cls, kind: str, currency: str) -> _Ident:
        return cls(kind, currency)

    @property
    def identity(self) -> tuple[Any, ...]:
        # A pot is one per reference whatever its currency, so asking for "game:12" in the
        # other currency finds it and is refused (CurrencyMismatch) instead of splitting a game.
        if self.kind == AccountKind.POT:
            return (self.kind, self.ref)
        if self.kind == AccountKind.WALLET:
            return (self.kind, self.user_id, self.currency)
        return (self.kind, self.currency)

    @property
    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition (and parameters) matching this account."""
        if self.kind == AccountKind.POT:
            return "(kind = %s AND ref = %s)", [self.kind, self.ref]
        if self.kind == AccountKind.WALLET:
            return "(kind = %s AND user_id = %s AND currency = %s)", [
                self.kind,
                self.user_id,
                self.currency,
            ]
        return "(kind = %s AND currency = %s)", [self.kind, self.currency]

    @property
    def lookup(self) -> dict[str, Any]:
        if self.kind == AccountKind.POT:
            return {"kind": self.kind, "ref": self.ref}
        if self.kind == AccountKind.WALLET:
            return {"kind": self.kind, "user_id": self.user_id, "currency": self.currency}
        return {"kind": self.kind, "currency": self.currency}

    @property
    def sort_key(self) -> tuple[str, str, int, str]:
        return (self.kind, self.currency, self.user_id or 0, self.ref)


def _identity_of(account: Account) -> tuple[Any, ...]:
    if account.kind == AccountKind.POT:
        return (account.kind, account.ref)
    if account.kind == AccountKind.WALLET:
        return (account.kind, account.user_id, account.currency)
    return (account.kind, account.currency)


def _lock_idents(idents: Iterable[_Ident]) -> dict[_Ident, Account]:
    """Find (creating when missing) and lock the accounts, in primary-key order.

    Existing accounts are locked by one ``SELECT ... ORDER BY id FOR UPDATE``, so two postings
    touching the same accounts always queue in the same order and cannot deadlock. Missing ones
    are created in a fixed order (their identities sorted); an insert race on the same account
    resolves through its unique constraint. Raises ``CurrencyMismatch`` for a pot that exists in
    the other currency and ``UnknownUser`` for a wallet of a user that does not exist."""
    wanted = list(dict.fromkeys(idents))
    by_identity = {_identity_of(account): account for account in _select_for_update(wanted)}
    missing = sorted((i for i in wanted if i.identity not in by_identity), key=lambda i: i.sort_key)
    relock: list[Account] = []
    for ident in missing:
        if ident.kind == AccountKind.WALLET and not User.objects.filter(pk=ident.user_id).exists():
            raise UnknownUser(f"No player with id {ident.user_id}.", user_id=ident.user_id)
        account, created = Account.objects.get_or_create(
            **ident.lookup, defaults={"currency": ident.currency}
        )
        by_identity[ident.identity] = account
        if not created:
            relock.append(account)
    if relock:
        # Created concurrently by a transaction that has committed since: lock it now.
        for account in accounts_lock(accounts=relock):
            by_identity[_identity_of(account)] = account
    result: dict[_Ident, Account] = {}
    for ident in wanted:
        account = by_identity[ident.identity]
        if account.currency != ident.currency:
            raise CurrencyMismatch(
                f"{ident.ref or 'This account'} is played in "
                f"{CURRENCY_INFO[account.currency].label.lower()}, not "
                f"{CURRENCY_INFO[ident.currency].label.lower()}.",
                account=account.pk,
                currency=ident.currency,
            )
        result[ident] = account
    return result


_ACCOUNT_COLUMNS = ("id", "kind", "currency", "user_id", "ref", "balance", "closed_at")


def _select_for_update(idents: list[_Ident]) -> list[Account]:
    """``SELECT ... WHERE <any of the identities> ORDER BY id FOR UPDATE``: the hot path of every
    posting, written as one plain statement (PostgreSQL locks the rows in the sorted order; on
    SQLite the whole database is already held for writing by the transaction)."""
    conditions, params = [], []
    for ident in idents:
        condition, values = ident.where
        conditions.append(condition)
        params.extend(values)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    sql = (
        f"SELECT {', '.join(_ACCOUNT_COLUMNS)} FROM ledger_account"
        f" WHERE {' OR '.join(conditions)} ORDER BY id{lock}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    closed_at = Account._meta.get_field("closed_at")
    converters = connection.ops.get_db_converters(closed_at.get_col(Account._meta.db_table))
    accounts = []
    for row in rows:
        values = list(row)
        for convert in converters:
            values[6] = convert(values[6], closed_at, connection)
        # ``created_at`` is left deferred (loaded on access).
        accounts.append(Account.from_db(connection.alias, list(_ACCOUNT_COLUMNS), values))
    return accounts


def accounts_lock(*, accounts: Iterable[Account]) -> list[Account]:
    """Lock the given accounts (``SELECT ... FOR UPDATE``) in primary-key order and return fresh
    copies of them (current balances). Must run inside a database transaction."""
    ids = sorted({account.pk for account in accounts})
    return list(Account.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


def wallet_get_or_create(*, user: User, currency: str) -> Account:
    """The player's wallet in that currency, created empty on first use."""
    _check_user(user)
    currency = _check_currency(currency)
    account, _ = Account.objects.get_or_create(
        kind=AccountKind.WALLET, user=user, currency=currency
    )
    return account


# --- posting ---------------------------------------------------------------------------------


def _replayed(key: str, fingerprint: str) -> Transaction | None:
    existing = Transaction.objects.filter(idempotency_key=key).first()
    if existing is None:
        return None
    if existing.fingerprint != fingerprint:
        raise IdempotencyConflict(
            "This request was already made with different details.",
            key=key,
            transaction=existing.pk,
        )
    return existing


@dataclass
class _Plan:
    """What a posting will write, decided under the lock."""

    kind: str
    currency: str
    legs: list[tuple[Account, int]]
    ref: str = ""
    memo: str = ""
    staff_user: User | None = None
    reverses: Transaction | None = None


def _checked_legs(plan: _Plan) -> list[tuple[Account, int]]:
    """Merge the legs per account and check them: two or more non-zero legs summing to zero,
    all in the plan's currency, no wallet or pot below zero. The accounts must be locked."""
    merged: dict[int, tuple[Account, int]] = {}
    for account, amount in plan.legs:
        previous = merged.get(account.pk, (account, 0))[1]
        merged[account.pk] = (account, previous + amount)
    final = [(account, amount) for account, amount in merged.values() if amount != 0]
    currency = plan.currency
    if len(final) < 2:
        raise EmptyTransaction("There is nothing to pay.")
    total = sum(amount for _, amount in final)
    if total != 0:
        raise UnbalancedTransaction(
            f"The payment does not balance (off by {format_amount(total, currency)}).",
            total=total,
        )
    for account, amount in final:
        if account.currency != currency:
            raise CurrencyMismatch(account=account.pk, currency=currency)
        after = account.balance + amount
        if after < 0 and account.kind == AccountKind.WALLET:
            raise InsufficientFunds(
                f"Not enough money in the wallet: it holds "
                f"{format_amount(account.balance, currency)} and this needs "
                f"{format_amount(-amount, currency)}.",
                balance=account.balance,
                required=-amount,
                user_id=account.user_id,
            )
        if after < 0 and account.kind == AccountKind.POT:
            raise UnbalancedTransaction(
                f"{account} holds only {format_amount(account.balance, currency)}.",
                balance=account.balance,
                required=-amount,
            )
    return final


_TRANSACTION_COLUMNS = (
    "kind, currency, idempotency_key, fingerprint, ref, memo, staff_user_id, reverses_id,"
    " created_at"
)
# PostgreSQL: the transaction and its entries in one statement (the entries join the inserted
# row, so none is written when the key is taken). Balance, leg count and currencies of the pair
# are checked by the deferred triggers at commit.
_INSERT_POSTING_PG_SQL = (
    "WITH tx AS (INSERT INTO ledger_transaction ("
    + _TRANSACTION_COLUMNS
    + ") VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
    " ON CONFLICT (idempotency_key) DO NOTHING RETURNING id)"
    " INSERT INTO ledger_entry (transaction_id, account_id, amount, currency, balance_after)"
    " SELECT tx.id, leg.account_id, leg.amount, leg.currency, leg.balance_after"
    " FROM tx CROSS JOIN (VALUES {legs}) AS leg (account_id, amount, currency, balance_after)"
    " RETURNING transaction_id"
)
_INSERT_TRANSACTION_SQL = (
    "INSERT INTO ledger_transaction (" + _TRANSACTION_COLUMNS + ")"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
    " ON CONFLICT (idempotency_key) DO NOTHING RETURNING id"
)
_INSERT_ENTRIES_SQL = (
    "INSERT INTO ledger_entry (transaction_id, account_id, amount, currency, balance_after)"
    " VALUES {legs}"
)


def _insert_posting(
    plan: _Plan, legs: list[tuple[Account, int]], key: str, fingerprint: str
) -> Transaction | None:
    """Insert the transaction and its entries unless the key is taken (then None, nothing
    written). The idempotency check costs nothing on the common path; a concurrent insert of
    the same key makes this one wait for it and then see it. One statement on PostgreSQL, two
    on SQLite."""
    tx = Transaction(
        kind=plan.kind,
        currency=plan.currency,
        idempotency_key=key,
        fingerprint=fingerprint,
        ref=plan.ref,
        memo=plan.memo,
        staff_user=plan.staff_user,
        reverses=plan.reverses,
    )
    tx_params = [
        tx.kind,
        tx.currency,
        key,
        fingerprint,
        tx.ref,
        tx.memo,
        tx.staff_user_id,
        tx.reverses_id,
        connection.ops.adapt_datetimefield_value(tx.created_at),
    ]
    leg_params: list[Any] = []
    for account, amount in legs:
        leg_params += [account.pk, amount, plan.currency, account.balance + amount]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            placeholders = ", ".join(["(%s::bigint, %s::bigint, %s, %s::bigint)"] * len(legs))
            cursor.execute(_INSERT_POSTING_PG_SQL.format(legs=placeholders), tx_params + leg_params)
            row = cursor.fetchone()
        else:
            cursor.execute(_INSERT_TRANSACTION_SQL, tx_params)
            row = cursor.fetchone()
            if row is not None:
                placeholders = ", ".join([f"({int(row[0])}, %s, %s, %s, %s)"] * len(legs))
                cursor.execute(_INSERT_ENTRIES_SQL.format(legs=placeholders), leg_params)
    if row is None:
        return None
    tx.pk = row[0]
    tx._state.adding = False
    tx._state.db = connection.alias
    return tx


def _post(*, key: str, fingerprint: str, plan: Callable[[], _Plan]) -> tuple[Transaction, bool]:
    """Post what ``plan()`` decides, or recognise a replay of ``key``. Returns the transaction
    and whether it is new. The accounts must already be locked.

    The key is looked up only when needed: a refusal from ``plan()`` or from the leg checks is
    first matched against an earlier posting of the same key (a replay returns the original even
    when the state has moved since), and an insert that finds the key taken returns the original
    (same request) or raises ``IdempotencyConflict`` (different request)."""
    try:
        decided = plan()
        legs = _checked_legs(decided)
    except LedgerError:
        if (replay := _replayed(key, fingerprint)) is not None:
            return replay, False
        raise
    tx = _insert_posting(decided, legs, key, fingerprint)
    if tx is None:
        replay = _replayed(key, fingerprint)
        if replay is None:  # pragma: no cover - the key cannot vanish from an append-only table
            raise IdempotencyConflict(key=key)
        return replay, False
    for account, amount in legs:
        account.balance += amount
    return tx, True


# --- wallets ---------------------------------------------------------------------------------


def _wallet_house_post(
    *,
    op: str,
    kind: str,
    house: str,
    user: User,
    currency: str,
    amount: int,
    key: str,
    ref: str,
    memo: str,
    staff: User | None = None,
    fingerprint_amount: int | None = None,
) -> Transaction:
    """One posting between a player's wallet and a house account: ``amount`` (signed) to the
    wallet, its opposite to the house. Arguments are already checked."""
    fp = _fingerprint(
        op,
        user=user.pk,
        currency=currency,
        amount=amount if fingerprint_amount is None else fingerprint_amount,
        ref=ref,
    )
    wallet_id = _Ident.wallet(user.pk, currency)
    house_id = _Ident.house(house, currency)
    accounts = _lock_idents([wallet_id, house_id])
    tx, _ = _post(
        key=key,
        fingerprint=fp,
        plan=lambda: _Plan(
            kind=kind,
            currency=currency,
            legs=[(accounts[wallet_id], amount), (accounts[house_id], -amount)],
            ref=ref,
            memo=memo,
            staff_user=staff,
        ),
    )
    return tx


@retry_on_conflict
def wallet_deposit(
    *,
    user: User,
    currency: str,
    amount: int,
    idempotency_key: str,
    memo: str = "",
    ref: str = "",
) -> Transaction:
    """Money in from outside (a payment, demo funding, a practice chip top-up): house deposits
    account -> the player's wallet."""
    _check_user(user)
    currency = _check_currency(currency)
    amount = _check_amount(amount)
    key = _check_key(idempotency_key)
    ref = _check_ref(ref, required=False)
    return _wallet_house_post(
        op="wallet_deposit",
        kind=TransactionKind.DEPOSIT,
        house=AccountKind.DEPOSITS,
        user=user,
        currency=currency,
        amount=amount,
        key=key,
        ref=ref,
        memo=memo or "Deposit",
    )


@retry_on_conflict
def wallet_withdraw(
    *,
    user: User,
    currency: str,
    amount: int,
    idempotency_key: str,
    memo: str = "",
    ref: str = "",
) -> Transaction:
    """Money out: the player's wallet -> house withdrawals account. ``InsufficientFunds`` if the
    wallet would go below zero; practice chips cannot be withdrawn (``InvalidCurrency``)."""
    _check_user(user)
    currency = _check_currency(currency)
    if not CURRENCY_INFO[currency].withdrawable:
        raise InvalidCurrency(
            f"{CURRENCY_INFO[currency].label} cannot be withdrawn.", currency=currency
        )
    amount = _check_amount(amount)
    key = _check_key(idempotency_key)
    ref = _check_ref(ref, required=False)
    return _wallet_house_post(
        op="wallet_withdraw",
        kind=TransactionKind.WITHDRAWAL,
        house=AccountKind.WITHDRAWALS,
        user=user,
        currency=currency,
        amount=-amount,
        key=key,
        ref=ref,
        memo=memo or "Withdrawal",
        fingerprint_amount=amount,
    )


@retry_on_conflict
def wallet_adjust(
    *,
    user: User,
    currency: str,
    amount: int,
    reason: str,
    staff_user: User,
    idempotency_key: str,
    ref: str = "",
) -> Transaction:
    """A staff credit (``amount > 0``) or debit (``amount < 0``) of a player's wallet against
    the house adjustments account, recorded with the staff member and the reason."""
    _check_user(user)
    currency = _check_currency(currency)
    amount = _check_amount(amount, signed=True)
    reason = _check_reason(reason)
    staff = _check_staff(staff_user)
    key = _check_key(idempotency_key)
    ref = _check_ref(ref, required=False)
    return _wallet_house_post(
        op="wallet_adjust",
        kind=TransactionKind.ADJUSTMENT,
        house=AccountKind.ADJUSTMENTS,
        user=user,
        currency=currency,
        amount=amount,
        key=key,
        ref=ref,
        memo=reason,
        staff=staff,
    )


# --- pots ------------------------------------------------------------------------------------


def _pot_hold(
    *, op: str, kind: str, user: User, currency: str, pot_ref: str, amount: int, key: str
) -> Transaction:
    _check_user(user)
    currency = _check_currency(currency)
    pot_ref = _check_ref(pot_ref, required=True)
    amount = _check_amount(amount)
    key = _check_key(key)
    fp = _fingerprint(op, user=user.pk, currency=currency, pot=pot_ref, amount=amount)
    wallet_id = _Ident.wallet(user.pk, currency)
    pot_id = _Ident.pot(pot_ref, currency)
    accounts = _lock_idents([wallet_id, pot_id])
    pot = accounts[pot_id]

    def plan() -> _Plan:
        if pot.closed_at is not None:
            raise PotClosed(pot_ref=pot_ref)
        return _Plan(
            kind=kind,
            currency=currency,
            legs=[(accounts[wallet_id], -amount), (pot, amount)],
            ref=pot_ref,
            memo=TransactionKind(kind).label,
        )

    tx, _ = _post(key=key, fingerprint=fp, plan=plan)
    return tx


@retry_on_conflict
def pot_hold_entry(
    *, user: User, currency: str, pot_ref: str, amount: int, idempotency_key: str
) -> Transaction:
    """Entry fee or points buy-in: the player's wallet -> the game's pot (created on first use,
    in that currency). ``InsufficientFunds`` if the wallet would go below zero, ``PotClosed``
    once the pot was paid out, settled or cancelled, ``CurrencyMismatch`` if the pot exists in
    the other currency. Key: ``entry:game:<id>:seat:<n>``."""
    return _pot_hold(
        op="pot_hold_entry",
        kind=TransactionKind.ENTRY_FEE,
        user=user,
        currency=currency,
        pot_ref=pot_ref,
        amount=amount,
        key=idempotency_key,
    )


@retry_on_conflict
def pot_hold_rejoin(
    *, user: User, currency: str, pot_ref: str, amount: int, idempotency_key: str
) -> Transaction:
    """A pool rejoin: the entry fee again, wallet -> pot, recorded as ``rejoin_fee``. Same
    checks as ``pot_hold_entry``. Key: ``rejoin:game:<id>:seat:<n>:<count>``."""
    return _pot_hold(
        op="pot_hold_rejoin",
        kind=TransactionKind.REJOIN_FEE,
        user=user,
        currency=currency,
        pot_ref=pot_ref,
        amount=amount,
        key=idempotency_key,
    )


def _contributions(pot: Account) -> dict[int, int]:
    """Net amount each user has paid into the pot (holds minus refunds and pot payouts)."""
    rows = (
        Entry.objects.filter(transaction__entries__account=pot, account__kind=AccountKind.WALLET)
        .values_list("account__user_id")
        .annotate(total=Sum("amount"))
    )
    return {user_id: -total for user_id, total in rows}


@retry_on_conflict
def pot_refund_entry(
    *, user: User, currency: str, pot_ref: str, amount: int, idempotency_key: str
) -> Transaction:
    """Give a player back (part of) what they paid into a pot that is still open: the pot -> the
    wallet, recorded as ``refund`` (leaving before the start). ``RefundExceedsStake`` if the
    player paid in less than ``amount``. Key: ``refund:game:<id>:seat:<n>``."""
    _check_user(user)
    currency = _check_currency(currency)
    pot_ref = _check_ref(pot_ref, required=True)
    amount = _check_amount(amount)
    key = _check_key(idempotency_key)
    fp = _fingerprint(
        "pot_refund_entry", user=user.pk, currency=currency, pot=pot_ref, amount=amount
    )
    wallet_id = _Ident.wallet(user.pk, currency)
    pot_id = _Ident.pot(pot_ref, currency)
    accounts = _lock_idents([wallet_id, pot_id])
    pot = accounts[pot_id]

    def plan() -> _Plan:
        if pot.closed_at is not None:
            raise PotClosed(pot_ref=pot_ref)
        stake = _contributions(pot).get(user.pk, 0)
        if amount > stake:
            raise RefundExceedsStake(
                f"Cannot refund {format_amount(amount, currency)}: "
                f"{format_amount(max(stake, 0), currency)} was paid into {pot_ref}.",
                stake=stake,
                amount=amount,
            )
        return _Plan(
            kind=TransactionKind.REFUND,
            currency=currency,
            legs=[(pot, -amount), (accounts[wallet_id], amount)],
            ref=pot_ref,
            memo="Entry refunded",
        )

    tx, _ = _post(key=key, fingerprint=fp, plan=plan)
    return tx


def _close_pot(pot: Account) -> None:
    now = timezone.now()
    Account.objects.filter(pk=pot.pk).update(closed_at=now)
    pot.closed_at = now


def _pot_pay(
    *,
    op: str,
    kind: str,
    pot_ref: str,
    currency: str,
    amounts: Mapping[int, int],
    fee: int,
    key: str,
) -> Transaction:
    currency = _check_currency(currency)
    pot_ref = _check_ref(pot_ref, required=True)
    key = _check_key(key)
    fee = _check_amount(fee, allow_zero=True)
    if not isinstance(amounts, Mapping):
        raise InvalidAmount("Payouts must map user ids to amounts.")
    clean: dict[int, int] = {}
    for user_id, amount in amounts.items():
        if isinstance(user_id, bool) or not isinstance(user_id, int):
            raise UnknownUser(f"Payouts are keyed by user id, not {user_id!r}.")
        clean[user_id] = _check_amount(amount, allow_zero=True)
    fp = _fingerprint(
        op,
        pot=pot_ref,
        currency=currency,
        amounts=sorted(clean.items()),
        fee=fee,
    )
    pot_id = _Ident.pot(pot_ref, currency)
    wallet_ids = {uid: _Ident.wallet(uid, currency) for uid, amt in clean.items() if amt > 0}
    fee_id = _Ident.house(AccountKind.FEES, currency)
    idents = [pot_id, *wallet_ids.values()] + ([fee_id] if fee > 0 else [])
    accounts = _lock_idents(idents)
    pot = accounts[pot_id]
    tx, new = _post(
        key=key,
        fingerprint=fp,
        plan=lambda: _pay_plan(
            kind=kind,
            pot=pot,
            currency=currency,
            pays=[(accounts[ident], clean[uid]) for uid, ident in wallet_ids.items()],
            fee_account=accounts[fee_id] if fee > 0 else None,
            fee=fee,
        ),
    )
    if new:
        _close_pot(pot)
    return tx


def _pay_plan(
    *,
    kind: str,
    pot: Account,
    currency: str,
    pays: list[tuple[Account, int]],
    fee_account: Account | None,
    fee: int,
) -> _Plan:
    pot_ref = pot.ref
    total = sum(amount for _, amount in pays) + fee
    if total < pot.balance:
        raise PotNotEmpty(
            f"The pot {pot_ref} holds {format_amount(pot.balance, currency)}; paying "
            f"{format_amount(total, currency)} would leave "
            f"{format_amount(pot.balance - total, currency)} behind.",
            pot_balance=pot.balance,
            total=total,
        )
    if total > pot.balance:
        raise UnbalancedTransaction(
            f"The pot {pot_ref} holds {format_amount(pot.balance, currency)}, less than the "
            f"{format_amount(total, currency)} to pay.",
            pot_balance=pot.balance,
            total=total,
        )
    legs = [(pot, -total), *pays]
    if fee_account is not None:
        legs.append((fee_account, fee))
    return _Plan(
        kind=kind, currency=currency, legs=legs, ref=pot_ref, memo=TransactionKind(kind).label
    )


@retry_on_conflict
def pot_payout(
    *,
    pot_ref: str,
    currency: str,
    payouts: Mapping[int, int],
    fee: int,
    idempotency_key: str,
) -> Transaction:
    """Pay out a finished game: ``payouts`` maps user id -> prize (one winner, or split shares)
    and ``fee`` goes to the house fee account. ``sum(payouts) + fee`` must equal the pot's
    balance exactly: less raises ``PotNotEmpty``, more ``UnbalancedTransaction``. The pot ends at
    0 and is closed. Key: ``settle:game:<id>``."""
    return _pot_pay(
        op="pot_payout",
        kind=TransactionKind.PAYOUT,
        pot_ref=pot_ref,
        currency=currency,
        amounts=payouts,
        fee=fee,
        key=idempotency_key,
    )


@retry_on_conflict
def pot_settle(
    *,
    pot_ref: str,
    currency: str,
    returns: Mapping[int, int],
    fee: int,
    idempotency_key: str,
) -> Transaction:
    """Settle a points game: ``returns`` maps user id -> what that player gets back from the pot
    (buy-in minus losses, or buy-in plus winnings minus the fee; 0 may be left out) and ``fee``
    goes to the house. Same exactness rule as ``pot_payout``; recorded as ``settlement``."""
    return _pot_pay(
        op="pot_settle",
        kind=TransactionKind.SETTLEMENT,
        pot_ref=pot_ref,
        currency=currency,
        amounts=returns,
        fee=fee,
        key=idempotency_key,
    )


@retry_on_conflict
def pot_cancel_refund(*, pot_ref: str, currency: str, idempotency_key: str) -> Transaction | None:
    """Cancel a game: give every player back exactly what they paid in (entries and rejoins,
    less any refund already made), no fee kept, in one ``refund`` transaction; the pot ends at 0
    and is closed. Returns ``None`` when nothing was paid in. ``PotClosed`` if the game was
    already paid out or settled. Key: ``cancel:game:<id>``."""
    currency = _check_currency(currency)
    pot_ref = _check_ref(pot_ref, required=True)
    key = _check_key(idempotency_key)
    fp = _fingerprint("pot_cancel_refund", pot=pot_ref, currency=currency)
    pot_id = _Ident.pot(pot_ref, currency)
    existing_pot = Account.objects.filter(**pot_id.lookup).first()
    if existing_pot is None:
        if (replay := _replayed(key, fp)) is not None:
            return replay
        return None
    contributions = _contributions(existing_pot)
    for _ in range(10):
        idents = [pot_id] + [_Ident.wallet(uid, currency) for uid, c in contributions.items() if c]
        accounts = _lock_idents(idents)
        if (replay := _replayed(key, fp)) is not None:
            return replay
        pot = accounts[pot_id]
        # The pot is locked now: no posting can change what was paid into it.
        contributions = _contributions(pot)
        locked_users = {ident.user_id for ident in accounts if ident.kind == AccountKind.WALLET}
        if {uid for uid, c in contributions.items() if c} <= locked_users:
            break
    else:  # pragma: no cover - needs ten interleaved new entries
        raise UnbalancedTransaction("The pot kept changing; try again.")
    if pot.balance == 0:
        closing = Transaction.objects.filter(
            ref=pot_ref,
            kind__in=[TransactionKind.PAYOUT, TransactionKind.SETTLEMENT],
            reversed_by__isnull=True,
        )
        if closing.exists():
            raise PotClosed("This game has already been paid out.", pot_ref=pot_ref)
        if pot.closed_at is None:
            _close_pot(pot)
        return None
    if pot.closed_at is not None:
        raise PotClosed(pot_ref=pot_ref)
    refunds = {uid: c for uid, c in contributions.items() if c}
    if any(c < 0 for c in refunds.values()) or sum(refunds.values()) != pot.balance:
        raise UnbalancedTransaction(
            f"The pot {pot_ref} does not match what the players paid in; staff must settle it.",
            pot_balance=pot.balance,
        )
    legs = [(pot, -pot.balance)]
    legs += [(accounts[_Ident.wallet(uid, currency)], c) for uid, c in refunds.items()]
    tx, new = _post(
        key=key,
        fingerprint=fp,
        plan=lambda: _Plan(
            kind=TransactionKind.REFUND,
            currency=currency,
            legs=legs,
            ref=pot_ref,
            memo="Game cancelled: every entry refunded",
        ),
    )
    if new:
        _close_pot(pot)
    return tx


# --- corrections -----------------------------------------------------------------------------


@retry_on_conflict
def transaction_reverse(
    *,
    transaction: Transaction,
    reason: str,
    staff_user: User,
    idempotency_key: str,
) -> Transaction:
    """Post the exact opposite of ``transaction`` (a ``reversal`` referencing it, same ``ref``).
    A transaction can be reversed once (``AlreadyReversed``, also a unique constraint); a
    reversal cannot itself be reversed (``NotReversible``: post an adjustment instead); a wallet
    that has spent the money cannot be taken below zero (``InsufficientFunds``). A pot that
    receives money back is reopened. Key: ``reverse:tx:<id>``."""
    reason = _check_reason(reason)
    staff = _check_staff(staff_user)
    key = _check_key(idempotency_key)
    if not isinstance(transaction, Transaction) or transaction.pk is None:
        raise NotReversible("No such transaction.")
    fp = _fingerprint("transaction_reverse", transaction=transaction.pk)
    original = Transaction.objects.get(pk=transaction.pk)
    entries = list(Entry.objects.filter(transaction=original).select_related("account"))
    locked = {a.pk: a for a in accounts_lock(accounts=[e.account for e in entries])}

    def plan() -> _Plan:
        if original.kind == TransactionKind.REVERSAL:
            raise NotReversible("A reversal cannot be reversed; post an adjustment instead.")
        if Transaction.objects.filter(reverses=original).exists():
            raise AlreadyReversed(transaction=original.pk)
        return _Plan(
            kind=TransactionKind.REVERSAL,
            currency=original.currency,
            legs=[(locked[e.account_id], -e.amount) for e in entries],
            ref=original.ref,
            memo=reason,
            staff_user=staff,
            reverses=original,
        )

    tx, new = _post(key=key, fingerprint=fp, plan=plan)
    if not new:
        return tx
    for account in locked.values():
        if account.kind == AccountKind.POT and account.closed_at and account.balance > 0:
            Account.objects.filter(pk=account.pk).update(closed_at=None)
            account.closed_at = None
    return tx
