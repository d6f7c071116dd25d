"""Covering indexes for the boards' pages on PostgreSQL (docs/leaderboards.md, the benchmark in
docs/benchmarks.md): a page in the board's order, and its count, read from the index alone.

* ``leaderboards_standing_cover``: a window's board by rating (``Standing``);
* ``leaderboards_rating_cover``: the all-time board by rating, on the ratings' own table
  (``ratings_rating``; its model is the ratings app's, so the index is made here, by SQL).

Other databases have the plain indexes of the models (SQLite has no ``INCLUDE``)."""

from __future__ import annotations

from typing import Any

from django.db import migrations

INDEXES = {
    "leaderboards_standing_cover": (
        "leaderboards_standing (period, family, delta DESC, user_id) "
        "INCLUDE (games, games_total, mu)"
    ),
    "leaderboards_rating_cover": "ratings_rating (family, mu DESC, user_id) INCLUDE (games)",
}


def create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, target in INDEXES.items():
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {target}")


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboards", "0001_initial"),
        ("ratings", "0001_initial"),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]
