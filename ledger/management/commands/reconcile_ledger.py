"""``manage.py reconcile_ledger``: check the whole ledger; exit 1 naming every discrepancy."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ledger.reconcile import reconcile_run


class Command(BaseCommand):
    help = (
        "Check that every currency sums to zero, every transaction balances, cached balances "
        "equal their entries, no wallet or pot is negative, and the registered game facts hold."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = reconcile_run()
        for discrepancy in report.discrepancies:
            self.stderr.write(str(discrepancy))
        if not report.ok:
            raise CommandError(
                f"ledger reconciliation failed: {len(report.discrepancies)} discrepancies "
                f"in {len(report.checks)} checks"
            )
        self.stdout.write(
            self.style.SUCCESS(f"ledger reconciled: {len(report.checks)} checks passed")
        )
