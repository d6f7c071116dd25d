"""``manage.py ratings_sweep``: rate every ended game left unrated (a rating task lost with its
worker); the same pass as the Celery beat task ``tables.ratings.tasks.ratings_sweep``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables.ratings import services


class Command(BaseCommand):
    help = "Rate every finished game not rated yet (each game is rated once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=1000, help="At most this many games.")

    def handle(self, *args: Any, **options: Any) -> None:
        counts = services.games_unrated_rate(limit=max(1, int(options["limit"])))
        if not counts:
            self.stdout.write("No game left unrated.")
            return
        for outcome, n in sorted(counts.items()):
            self.stdout.write(f"{outcome}: {n}")
