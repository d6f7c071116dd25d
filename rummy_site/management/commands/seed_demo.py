"""Demo data for a newcomer: a staff user, a support user, three funded players and a few
tables. Idempotent: running it again changes nothing that is already there."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from rummy_site import demo


class Command(BaseCommand):
    help = "Create the demo users, wallets and tables (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        summary = demo.demo_seed()
        for line in summary:
            self.stdout.write(line)
