"""The posting core: finding, creating and locking the accounts a posting touches, the
idempotency check, and writing one balanced ``Transaction`` with its ``Entry`` rows.

Private to ``ledger.services``: the services in ``wallets``, ``pots`` and ``corrections`` lock
their accounts (``lock_idents``), say what to post (a ``Plan``) and hand it to ``post_plan``;
``wallet_house_post`` is that whole sequence, argument checks included, for a wallet against a
house account. Of these
names only ``accounts_lock`` is re-exported by the package."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import connection

from ..currencies import CURRENCY_INFO
from ..errors import (
    CurrencyMismatch,
    EmptyTransaction,
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
    LedgerRefusal,
    UnbalancedTransaction,
    UnknownUser,
)
from ..models import Account, AccountKind, Transaction
from ..signals import posted
from ._checks import (
    check_amount,
    check_currency,
    check_key,
    check_ref,
    check_user,
    request_fingerprint,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # the AUTH_USER_MODEL


# --- ledger accounts: found or created, then locked -------------------------------------------


@dataclass(frozen=True)
class Ident:
    """The identity of an account a posting needs (found or created on demand)."""

    kind: str
    currency: str
    user_id: int | None = None
    ref: str = ""

    @classmethod
    def wallet(cls, user_id: int, currency: str) -> Ident:
        return cls(AccountKind.WALLET, currency, user_id=user_id)

    @classmethod
    def pot(cls, ref: str, currency: str) -> Ident:
        return cls(AccountKind.POT, currency, ref=ref)

    @classmethod
    def house(cls, kind: str, currency: str) -> Ident:
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


def _user_exists(user_id: int | None) -> bool:
    return user_id is not None and get_user_model()._default_manager.filter(pk=user_id).exists()


def lock_idents(idents: Iterable[Ident]) -> dict[Ident, Account]:
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
        if ident.kind == AccountKind.WALLET and not _user_exists(ident.user_id):
            raise UnknownUser(LedgerRefusal.NO_PLAYER_WITH_ID, user_id=ident.user_id)
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
    result: dict[Ident, Account] = {}
    for ident in wanted:
        account = by_identity[ident.identity]
        if account.currency != ident.currency:
            raise CurrencyMismatch(
                LedgerRefusal.POT_CURRENCY if ident.ref else LedgerRefusal.ACCOUNT_CURRENCY,
                pot_ref=ident.ref,
                played=CURRENCY_INFO[account.currency].label.lower(),
                asked=CURRENCY_INFO[ident.currency].label.lower(),
                account=account.pk,
                currency=ident.currency,
            )
        result[ident] = account
    return result


_ACCOUNT_COLUMNS = ("id", "kind", "currency", "user_id", "ref", "balance", "closed_at")


def _select_for_update(idents: list[Ident]) -> list[Account]:
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


# --- posting ---------------------------------------------------------------------------------


def replayed(key: str, fingerprint: str) -> Transaction | None:
    existing = Transaction.objects.filter(idempotency_key=key).first()
    if existing is None:
        return None
    if existing.fingerprint != fingerprint:
        raise IdempotencyConflict(
            key=key,
            transaction=existing.pk,
        )
    return existing


@dataclass
class Plan:
    """What a posting will write, decided under the lock."""

    kind: str
    currency: str
    legs: list[tuple[Account, int]]
    ref: str = ""
    memo: str = ""
    staff_user: User | None = None
    reverses: Transaction | None = None


def _checked_legs(plan: Plan) -> list[tuple[Account, int]]:
    """Merge the legs per account and check them: two or more non-zero legs summing to zero,
    all in the plan's currency, no wallet or pot below zero. The accounts must be locked."""
    merged: dict[int, tuple[Account, int]] = {}
    for account, amount in plan.legs:
        previous = merged.get(account.pk, (account, 0))[1]
        merged[account.pk] = (account, previous + amount)
    final = [(account, amount) for account, amount in merged.values() if amount != 0]
    currency = plan.currency
    if len(final) < 2:
        raise EmptyTransaction()
    total = sum(amount for _, amount in final)
    if total != 0:
        raise UnbalancedTransaction(LedgerRefusal.UNBALANCED_BY, total=total, currency=currency)
    for account, amount in final:
        if account.currency != currency:
            raise CurrencyMismatch(account=account.pk, currency=currency)
        after = account.balance + amount
        if after < 0 and account.kind == AccountKind.WALLET:
            raise InsufficientFunds(
                LedgerRefusal.WALLET_SHORT,
                currency=currency,
                balance=account.balance,
                required=-amount,
                user_id=account.user_id,
            )
        if after < 0 and account.kind == AccountKind.POT:
            raise UnbalancedTransaction(
                LedgerRefusal.POT_SHORT,
                pot_ref=account.ref,
                currency=currency,
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
    plan: Plan, legs: list[tuple[Account, int]], key: str, fingerprint: str
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


def post_plan(*, key: str, fingerprint: str, plan: Callable[[], Plan]) -> tuple[Transaction, bool]:
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
        if (replay := replayed(key, fingerprint)) is not None:
            return replay, False
        raise
    tx = _insert_posting(decided, legs, key, fingerprint)
    if tx is None:
        replay = replayed(key, fingerprint)
        if replay is None:  # pragma: no cover - the key cannot vanish from an append-only table
            raise IdempotencyConflict(key=key)
        return replay, False
    for account, amount in legs:
        account.balance += amount
    posted(kind=tx.kind, currency=tx.currency, entries=len(legs))
    return tx, True


# --- a wallet against a house account --------------------------------------------------------


def wallet_house_post(
    *,
    op: str,
    kind: str,
    house: str,
    user: object,
    currency: object,
    amount: object,
    key: object,
    ref: object,
    ref_required: bool = False,
    memo: str,
    staff: User | None = None,
    out: bool = False,
    signed: bool = False,
) -> Transaction:
    """One posting between a player's wallet and a house account, its arguments checked here:
    ``amount`` to the wallet and its opposite to the house, or the other way with ``out`` (the
    request, and so its fingerprint, keeps the amount asked). ``signed`` accepts a negative
    amount (a debit of the wallet); ``ref_required`` refuses an empty reference."""
    checked_user = check_user(user)
    currency = check_currency(currency)
    asked = check_amount(amount, signed=signed)
    key = check_key(key)
    ref = check_ref(ref, required=ref_required)
    fp = request_fingerprint(op, user=checked_user.pk, currency=currency, amount=asked, ref=ref)
    to_wallet = -asked if out else asked
    wallet_id = Ident.wallet(checked_user.pk, currency)
    house_id = Ident.house(house, currency)
    accounts = lock_idents([wallet_id, house_id])
    tx, _ = post_plan(
        key=key,
        fingerprint=fp,
        plan=lambda: Plan(
            kind=kind,
            currency=currency,
            legs=[(accounts[wallet_id], to_wallet), (accounts[house_id], -to_wallet)],
            ref=ref,
            memo=memo,
            staff_user=staff,
        ),
    )
    return tx
