"""``manage.py run_timers``: the embedded timer loop (``TIMERS_BACKEND == "loop"``).

Fires every overdue game deadline (turns, meld windows, breaks, rejoin and split windows, start
countdowns, computer players) every ``--interval`` seconds. ``--once`` runs one sweep and exits.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from tables.services import timers_sweep


class Command(BaseCommand):
    help = "Fire overdue game deadlines in a loop (the timer backend without Celery)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="Run one sweep and exit.")
        parser.add_argument(
            "--interval", type=float, default=0.5, help="Seconds between sweeps (0.5)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        interval = max(0.05, float(options["interval"]))
        if options["once"]:
            fired = timers_sweep()
            self.stdout.write(f"fired {fired} timer(s)")
            return
        self.stdout.write(f"run_timers: sweeping every {interval} s (Ctrl-C to stop)")
        try:
            while True:
                close_old_connections()
                started = time.monotonic()
                try:
                    timers_sweep()
                except Exception as exc:  # keep the loop alive; the error is logged
                    self.stderr.write(f"sweep failed: {exc!r}")
                time.sleep(max(0.0, interval - (time.monotonic() - started)))
        except KeyboardInterrupt:
            self.stdout.write("run_timers: stopped")
