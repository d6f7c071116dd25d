"""``manage.py leaderboards_rebuild``: count this week's and every running season's standings
afresh from the ratings' changes (after a deploy of the leaderboards onto ratings already
played, or after a standing was missed: see ``tables.leaderboards.hooks``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from tables.leaderboards import services


class Command(BaseCommand):
    help = "Count this week's and the running seasons' standings afresh from the rating changes."

    def handle(self, *args: Any, **options: Any) -> None:
        done = services.standings_rebuild_now(now=timezone.now())
        for key, rows in done.items():
            self.stdout.write(f"{key}: {rows} standings")
