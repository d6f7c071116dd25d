"""The cashier: deposit and withdrawal requests (with their histories), the sandbox provider's
payments, the practice chips policy, and two house accounts (provider clearing, pending
withdrawals) with their transaction kinds.

The new account and transaction kinds change CHECK constraints of ``ledger_account`` and
``ledger_transaction``. On SQLite Django rebuilds those tables to do that, and SQLite refuses
to rename a table that a trigger names, so the first operation drops the SQLite triggers (0002)
and the last creates them again. On PostgreSQL the
constraints are dropped and added in place and the triggers are untouched."""

import importlib

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

_guards = importlib.import_module("ledger.migrations.0002_database_guards")


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0002_database_guards"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # First: drop the SQLite triggers, which name the tables rebuilt below.
        _guards.RunSQLFor("sqlite", _guards.SQLITE_BACKWARD, _guards.SQLITE_FORWARD),
        migrations.CreateModel(
            name="Deposit",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("provider", models.CharField(max_length=32)),
                ("reference", models.CharField(max_length=48, unique=True)),
                ("amount", models.BigIntegerField(help_text="Cash, in paise.")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Pending"),
                            ("paid", "Paid"),
                            ("failed", "Failed"),
                            ("cancelled", "Cancelled"),
                        ],
                        default="pending",
                        max_length=16,
                    ),
                ),
                ("checkout_url", models.CharField(blank=True, default="", max_length=500)),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, editable=False),
                ),
                ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                "ordering": ["-id"],
            },
        ),
        migrations.CreateModel(
            name="DepositEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Pending"),
                            ("paid", "Paid"),
                            ("failed", "Failed"),
                            ("cancelled", "Cancelled"),
                        ],
                        max_length=16,
                    ),
                ),
                ("detail", models.CharField(max_length=300)),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                "ordering": ["id"],
            },
        ),
        migrations.CreateModel(
            name="PracticeChipsPolicy",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "daily_amount",
                    models.PositiveIntegerField(help_text="Chips given by one daily top-up."),
                ),
                (
                    "balance_cap",
                    models.PositiveIntegerField(
                        help_text="A top-up is given only while the practice balance is below this."
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
            options={
                "verbose_name": "practice chips policy",
                "verbose_name_plural": "practice chips policy",
            },
        ),
        migrations.CreateModel(
            name="SandboxPayment",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("reference", models.CharField(max_length=48, unique=True)),
                ("amount", models.BigIntegerField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Pending"),
                            ("paid", "Paid"),
                            ("failed", "Failed"),
                            ("cancelled", "Cancelled"),
                        ],
                        default="pending",
                        max_length=16,
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
        migrations.CreateModel(
            name="Withdrawal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("amount", models.BigIntegerField(help_text="Cash, in paise.")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Pending approval"),
                            ("approved", "Paid out"),
                            ("rejected", "Rejected (returned to the wallet)"),
                        ],
                        default="pending",
                        max_length=16,
                    ),
                ),
                (
                    "reason",
                    models.TextField(
                        blank=True, default="", help_text="Staff's reason for the decision."
                    ),
                ),
                ("decided_at", models.DateTimeField(blank=True, null=True)),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, editable=False),
                ),
            ],
            options={
                "ordering": ["-id"],
                "permissions": [("decide_withdrawal", "Can approve or reject a withdrawal")],
            },
        ),
        migrations.CreateModel(
            name="WithdrawalEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Pending approval"),
                            ("approved", "Paid out"),
                            ("rejected", "Rejected (returned to the wallet)"),
                        ],
                        max_length=16,
                    ),
                ),
                ("detail", models.CharField(max_length=300)),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                "ordering": ["id"],
            },
        ),
        migrations.RemoveConstraint(
            model_name="account",
            name="ledger_account_kind_valid",
        ),
        migrations.RemoveConstraint(
            model_name="account",
            name="ledger_account_owner_matches_kind",
        ),
        migrations.RemoveConstraint(
            model_name="account",
            name="ledger_account_wallet_pot_not_negative",
        ),
        migrations.RemoveConstraint(
            model_name="account",
            name="ledger_account_one_house_account_per_kind_currency",
        ),
        migrations.RemoveConstraint(
            model_name="transaction",
            name="ledger_transaction_kind_valid",
        ),
        migrations.AlterField(
            model_name="account",
            name="kind",
            field=models.CharField(
                choices=[
                    ("wallet", "Player wallet"),
                    ("pot", "Table pot"),
                    ("fees", "House: platform fees"),
                    ("deposits", "House: deposits (money in)"),
                    ("withdrawals", "House: withdrawals (money out)"),
                    ("adjustments", "House: staff adjustments"),
                    ("clearing", "House: payment provider clearing"),
                    ("pending_payouts", "House: pending withdrawals"),
                ],
                max_length=16,
            ),
        ),
        migrations.AlterField(
            model_name="transaction",
            name="kind",
            field=models.CharField(
                choices=[
                    ("deposit", "Deposit"),
                    ("withdrawal", "Withdrawal"),
                    ("entry_fee", "Entry fee"),
                    ("refund", "Refund"),
                    ("rejoin_fee", "Rejoin fee"),
                    ("payout", "Payout"),
                    ("settlement", "Settlement"),
                    ("adjustment", "Adjustment"),
                    ("reversal", "Reversal"),
                    ("withdraw_hold", "Withdrawal requested (held)"),
                    ("withdraw_return", "Withdrawal rejected (returned)"),
                ],
                max_length=16,
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "kind__in",
                        [
                            "wallet",
                            "pot",
                            "fees",
                            "deposits",
                            "withdrawals",
                            "adjustments",
                            "clearing",
                            "pending_payouts",
                        ],
                    )
                ),
                name="ledger_account_kind_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("kind", "wallet"), ("user__isnull", False), ("ref", "")),
                    models.Q(
                        ("kind", "pot"),
                        ("user__isnull", True),
                        models.Q(("ref", ""), _negated=True),
                    ),
                    models.Q(
                        (
                            "kind__in",
                            (
                                "fees",
                                "deposits",
                                "withdrawals",
                                "adjustments",
                                "clearing",
                                "pending_payouts",
                            ),
                        ),
                        ("user__isnull", True),
                        ("ref", ""),
                    ),
                    _connector="OR",
                ),
                name="ledger_account_owner_matches_kind",
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("balance__gte", 0),
                    models.Q(("kind__in", ("wallet", "pot", "pending_payouts")), _negated=True),
                    _connector="OR",
                ),
                name="ledger_account_wallet_pot_not_negative",
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.UniqueConstraint(
                condition=models.Q(
                    (
                        "kind__in",
                        (
                            "fees",
                            "deposits",
                            "withdrawals",
                            "adjustments",
                            "clearing",
                            "pending_payouts",
                        ),
                    )
                ),
                fields=("kind", "currency"),
                name="ledger_account_one_house_account_per_kind_currency",
            ),
        ),
        migrations.AddConstraint(
            model_name="transaction",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "kind__in",
                        [
                            "deposit",
                            "withdrawal",
                            "entry_fee",
                            "refund",
                            "rejoin_fee",
                            "payout",
                            "settlement",
                            "adjustment",
                            "reversal",
                            "withdraw_hold",
                            "withdraw_return",
                        ],
                    )
                ),
                name="ledger_transaction_kind_valid",
            ),
        ),
        migrations.AddField(
            model_name="deposit",
            name="transaction",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="deposit_request",
                to="ledger.transaction",
            ),
        ),
        migrations.AddField(
            model_name="deposit",
            name="user",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="deposits",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="depositevent",
            name="deposit",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="events",
                to="ledger.deposit",
            ),
        ),
        migrations.AddField(
            model_name="withdrawal",
            name="decided_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="withdrawals_decided",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="withdrawal",
            name="user",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="withdrawals",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="withdrawalevent",
            name="staff_user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="withdrawalevent",
            name="withdrawal",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="events",
                to="ledger.withdrawal",
            ),
        ),
        migrations.AddIndex(
            model_name="deposit",
            index=models.Index(fields=["user", "created_at"], name="ledger_deposit_user_time_idx"),
        ),
        migrations.AddConstraint(
            model_name="deposit",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__gt", 0)), name="ledger_deposit_amount_pos"
            ),
        ),
        migrations.AddConstraint(
            model_name="deposit",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["pending", "paid", "failed", "cancelled"])),
                name="ledger_deposit_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="deposit",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("status", "paid"), ("transaction__isnull", False)),
                    models.Q(
                        models.Q(("status", "paid"), _negated=True), ("transaction__isnull", True)
                    ),
                    _connector="OR",
                ),
                name="ledger_deposit_paid_has_transaction",
            ),
        ),
        migrations.AddConstraint(
            model_name="withdrawal",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__gt", 0)), name="ledger_withdrawal_amount_pos"
            ),
        ),
        migrations.AddConstraint(
            model_name="withdrawal",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["pending", "approved", "rejected"])),
                name="ledger_withdrawal_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="withdrawal",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("status", "pending"),
                    models.Q(
                        ("decided_by__isnull", False),
                        ("decided_at__isnull", False),
                        models.Q(("reason", ""), _negated=True),
                    ),
                    _connector="OR",
                ),
                name="ledger_withdrawal_decision_has_staff_and_reason",
            ),
        ),
        # Last: create the SQLite triggers again on the rebuilt tables.
        _guards.RunSQLFor("sqlite", _guards.SQLITE_FORWARD, _guards.SQLITE_BACKWARD),
    ]
