"""Play now's choice among open tables (``tables.rules.matchmaking``): today's order kept (the
fullest first, the older first), ratings reorder only tables as full."""

from __future__ import annotations

from tables.rules.matchmaking import OpenTable, mean_distance, table_order


def test_without_ratings_the_fullest_then_the_older_table_comes_first() -> None:
    tables = [OpenTable(3, 1), OpenTable(1, 1), OpenTable(2, 3), OpenTable(4, 0)]
    assert table_order(tables) == [2, 1, 3, 4]


def test_ratings_reorder_only_tables_as_full() -> None:
    tables = [
        OpenTable(1, 2, distance=400.0),
        OpenTable(2, 2, distance=10.0),
        OpenTable(3, 3, distance=900.0),  # fuller: first however far
        OpenTable(4, 2, distance=None),  # nothing known: after the known ones
        OpenTable(5, 1, distance=0.0),
    ]
    assert table_order(tables) == [3, 2, 1, 4, 5]


def test_the_distance_is_to_the_mean_of_the_seated() -> None:
    assert mean_distance(1500.0, [1400.0, 1700.0]) == 50.0
    assert mean_distance(None, [1500.0]) is None
    assert mean_distance(1500.0, []) is None
