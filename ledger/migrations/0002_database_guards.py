"""The ledger's invariants, enforced by the database itself.

PostgreSQL:
* ``ledger_entry_apply`` (BEFORE INSERT on entries): adds the amount to the account's cached
  balance (so the CHECK on wallets/pots fires at once), and refuses an entry whose currency
  differs from its account's, or whose ``balance_after`` is not the new balance.
* ``ledger_entry_balanced`` / ``ledger_transaction_balanced`` (constraint triggers, DEFERRABLE
  INITIALLY DEFERRED): at commit, every transaction touched has two or more entries summing to 0,
  all in the transaction's currency. (Checked at commit, not per row, so that a transaction and
  its entries can be inserted by one statement.)
* ``ledger_*_append_only`` (BEFORE UPDATE OR DELETE): entries and transactions never change.
* ``ledger_account_guard`` (BEFORE UPDATE on accounts): kind/currency/owner/ref never change, and
  the balance changes only from the entry trigger.

SQLite (the embedded default) has no deferred triggers; it gets the balance maintenance, the
currency and ``balance_after`` checks, the append-only refusals (DELETE allowed only while
Django's ``flush`` runs, see ``ledger/db.py``) and the immutable account identity.

If a later migration makes Django rebuild one of these tables on SQLite (it copies the table,
which drops its triggers), that migration must create the SQLite triggers again.
"""

from collections.abc import Sequence
from typing import Any

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import ProjectState

PG_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'ledger: % on % refused: the ledger is append-only (post a reversal)',
            TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'integrity_constraint_violation';
    END
    $$;
    """,
    """
    CREATE TRIGGER ledger_entry_append_only BEFORE UPDATE OR DELETE ON ledger_entry
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE TRIGGER ledger_transaction_append_only BEFORE UPDATE OR DELETE ON ledger_transaction
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE OR REPLACE FUNCTION ledger_entry_apply() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        new_balance bigint;
        account_currency text;
    BEGIN
        UPDATE ledger_account SET balance = balance + NEW.amount
            WHERE id = NEW.account_id
            RETURNING balance, currency INTO new_balance, account_currency;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'ledger: entry for unknown account %', NEW.account_id
                USING ERRCODE = 'foreign_key_violation';
        END IF;
        IF account_currency <> NEW.currency THEN
            RAISE EXCEPTION 'ledger: entry currency % differs from account % currency %',
                NEW.currency, NEW.account_id, account_currency
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.balance_after IS DISTINCT FROM new_balance THEN
            RAISE EXCEPTION 'ledger: entry on account % says balance_after %, the balance is %',
                NEW.account_id, NEW.balance_after, new_balance
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END
    $$;
    """,
    """
    CREATE TRIGGER ledger_entry_apply BEFORE INSERT ON ledger_entry
        FOR EACH ROW EXECUTE FUNCTION ledger_entry_apply();
    """,
    """
    CREATE OR REPLACE FUNCTION ledger_transaction_check() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        tx_id bigint;
        legs integer;
        total numeric;
        foreign_legs integer;
    BEGIN
        IF TG_TABLE_NAME = 'ledger_entry' THEN
            tx_id := NEW.transaction_id;
        ELSE
            tx_id := NEW.id;
        END IF;
        SELECT count(*), coalesce(sum(e.amount), 0), count(*) FILTER (WHERE e.currency <> t.currency)
            INTO legs, total, foreign_legs
            FROM ledger_entry e JOIN ledger_transaction t ON t.id = e.transaction_id
            WHERE e.transaction_id = tx_id;
        IF legs < 2 THEN
            RAISE EXCEPTION 'ledger: transaction % has % entries, a transaction needs two or more',
                tx_id, legs
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF foreign_legs > 0 THEN
            RAISE EXCEPTION 'ledger: transaction % has % entries in another currency',
                tx_id, foreign_legs
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF total <> 0 THEN
            RAISE EXCEPTION 'ledger: transaction % is unbalanced: its entries sum to %',
                tx_id, total
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NULL;
    END
    $$;
    """,
    """
    CREATE CONSTRAINT TRIGGER ledger_entry_balanced AFTER INSERT ON ledger_entry
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_transaction_check();
    """,
    """
    CREATE CONSTRAINT TRIGGER ledger_transaction_balanced AFTER INSERT ON ledger_transaction
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_transaction_check();
    """,
    """
    CREATE OR REPLACE FUNCTION ledger_account_guard() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.kind IS DISTINCT FROM OLD.kind OR NEW.currency IS DISTINCT FROM OLD.currency
           OR NEW.user_id IS DISTINCT FROM OLD.user_id OR NEW.ref IS DISTINCT FROM OLD.ref THEN
            RAISE EXCEPTION 'ledger: account % cannot change its kind, currency, owner or ref',
                OLD.id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        -- Depth 1 is this trigger fired by a direct UPDATE; the entry trigger's UPDATE runs at
        -- depth 2. Only the latter may move the balance.
        IF NEW.balance IS DISTINCT FROM OLD.balance AND pg_trigger_depth() < 2 THEN
            RAISE EXCEPTION 'ledger: the balance of account % changes only through entries',
                OLD.id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END
    $$;
    """,
    """
    CREATE TRIGGER ledger_account_guard BEFORE UPDATE ON ledger_account
        FOR EACH ROW EXECUTE FUNCTION ledger_account_guard();
    """,
]

PG_BACKWARD = [
    "DROP TRIGGER IF EXISTS ledger_account_guard ON ledger_account;",
    "DROP TRIGGER IF EXISTS ledger_transaction_balanced ON ledger_transaction;",
    "DROP TRIGGER IF EXISTS ledger_entry_balanced ON ledger_entry;",
    "DROP TRIGGER IF EXISTS ledger_entry_apply ON ledger_entry;",
    "DROP TRIGGER IF EXISTS ledger_transaction_append_only ON ledger_transaction;",
    "DROP TRIGGER IF EXISTS ledger_entry_append_only ON ledger_entry;",
    "DROP FUNCTION IF EXISTS ledger_account_guard();",
    "DROP FUNCTION IF EXISTS ledger_transaction_check();",
    "DROP FUNCTION IF EXISTS ledger_entry_apply();",
    "DROP FUNCTION IF EXISTS ledger_refuse_change();",
]

SQLITE_FORWARD = [
    """
    CREATE TRIGGER ledger_entry_apply AFTER INSERT ON ledger_entry
    BEGIN
        UPDATE ledger_account SET balance = balance + NEW.amount WHERE id = NEW.account_id;
        SELECT RAISE(ABORT, 'ledger: entry currency differs from its account')
            WHERE (SELECT currency FROM ledger_account WHERE id = NEW.account_id)
                  IS NOT NEW.currency;
        SELECT RAISE(ABORT, 'ledger: entry currency differs from its transaction')
            WHERE (SELECT currency FROM ledger_transaction WHERE id = NEW.transaction_id)
                  IS NOT NEW.currency;
        SELECT RAISE(ABORT, 'ledger: entry balance_after differs from the account balance')
            WHERE (SELECT balance FROM ledger_account WHERE id = NEW.account_id)
                  IS NOT NEW.balance_after;
    END;
    """,
    """
    CREATE TRIGGER ledger_entry_no_update BEFORE UPDATE ON ledger_entry
    BEGIN
        SELECT RAISE(ABORT, 'ledger: UPDATE on ledger_entry refused: the ledger is append-only');
    END;
    """,
    """
    CREATE TRIGGER ledger_entry_no_delete BEFORE DELETE ON ledger_entry
    WHEN ledger_purge_allowed() = 0
    BEGIN
        SELECT RAISE(ABORT, 'ledger: DELETE on ledger_entry refused: the ledger is append-only');
    END;
    """,
    """
    CREATE TRIGGER ledger_transaction_no_update BEFORE UPDATE ON ledger_transaction
    BEGIN
        SELECT RAISE(ABORT,
            'ledger: UPDATE on ledger_transaction refused: the ledger is append-only');
    END;
    """,
    """
    CREATE TRIGGER ledger_transaction_no_delete BEFORE DELETE ON ledger_transaction
    WHEN ledger_purge_allowed() = 0
    BEGIN
        SELECT RAISE(ABORT,
            'ledger: DELETE on ledger_transaction refused: the ledger is append-only');
    END;
    """,
    """
    CREATE TRIGGER ledger_account_guard BEFORE UPDATE ON ledger_account
    WHEN NEW.kind IS NOT OLD.kind OR NEW.currency IS NOT OLD.currency
         OR NEW.user_id IS NOT OLD.user_id OR NEW.ref IS NOT OLD.ref
    BEGIN
        SELECT RAISE(ABORT, 'ledger: an account cannot change its kind, currency, owner or ref');
    END;
    """,
]

SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS ledger_account_guard;",
    "DROP TRIGGER IF EXISTS ledger_transaction_no_delete;",
    "DROP TRIGGER IF EXISTS ledger_transaction_no_update;",
    "DROP TRIGGER IF EXISTS ledger_entry_no_delete;",
    "DROP TRIGGER IF EXISTS ledger_entry_no_update;",
    "DROP TRIGGER IF EXISTS ledger_entry_apply;",
]


class RunSQLFor(migrations.RunSQL):
    """``RunSQL`` applied only on one database vendor (a no-op elsewhere)."""

    def __init__(self, vendor: str, sql: list[str], reverse_sql: list[str], **kwargs: Any):
        self.vendor = vendor
        # As tuples: django-stubs types the statements as list[str | (sql, params)] or a tuple.
        super().__init__(tuple(sql), tuple(reverse_sql), **kwargs)

    def deconstruct(self) -> tuple[str, Sequence[Any], dict[str, Any]]:
        name, args, kwargs = super().deconstruct()
        kwargs["vendor"] = self.vendor
        return name, args, kwargs

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        if schema_editor.connection.vendor == self.vendor:
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        if schema_editor.connection.vendor == self.vendor:
            super().database_backwards(app_label, schema_editor, from_state, to_state)

    def describe(self) -> str:
        return f"Raw SQL for {self.vendor}"


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial")]

    operations = [
        RunSQLFor("postgresql", PG_FORWARD, PG_BACKWARD),
        RunSQLFor("sqlite", SQLITE_FORWARD, SQLITE_BACKWARD),
    ]
