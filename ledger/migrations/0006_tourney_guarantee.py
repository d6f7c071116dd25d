"""Tournaments: the house account that pays a guaranteed prize pool's top-up (``promotions``)
and its transaction kind (``guarantee``). As in 0003, the SQLite triggers are dropped first and
created again last, around the rebuilt tables."""

import importlib

from django.conf import settings
from django.db import migrations, models

_guards = importlib.import_module("ledger.migrations.0002_database_guards")


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0005_phone_welcome_chips_deposit_expiry"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        _guards.RunSQLFor("sqlite", _guards.SQLITE_BACKWARD, _guards.SQLITE_FORWARD),
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
                    ("promotions", "House: tournament guarantees"),
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
                    ("guarantee", "Guarantee top-up"),
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
                            "promotions",
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
                                "promotions",
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
                            "promotions",
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
                            "guarantee",
                        ],
                    )
                ),
                name="ledger_transaction_kind_valid",
            ),
        ),
        _guards.RunSQLFor("sqlite", _guards.SQLITE_FORWARD, _guards.SQLITE_BACKWARD),
    ]
