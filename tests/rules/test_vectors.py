"""Every checked hand vector (RULES.md sections 2 and 3). ``tests/data/hands.jsonl`` is the
project's copy of the shared, exhaustively checked vectors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tables import rules
from tables.rules.melds import MeldKind, classify_group

VECTORS = Path(__file__).resolve().parents[1] / "data" / "hands.jsonl"


def _load() -> list[dict[str, Any]]:
    with VECTORS.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


ROWS = _load()
ARRANGED = [row for row in ROWS if row["arrangement"] is not None]


def _id(row: dict[str, Any]) -> str:
    return f"{' '.join(row['hand'])} cut {row['cut']}"


@pytest.fixture(params=ROWS, ids=[_id(row) for row in ROWS])
def row(request: pytest.FixtureRequest) -> dict[str, Any]:
    value: dict[str, Any] = request.param
    return value


def test_vector_file_is_complete() -> None:
    assert len(ROWS) >= 400


def test_lowest_count_and_declaration(row: dict[str, Any]) -> None:
    result = rules.evaluate_hand(row["hand"], row["cut"])
    assert result.points == row["points"]
    assert result.can_declare is row["can_declare"]
    placed = [card for group in result.groups for card in group] + list(result.ungrouped)
    assert Counter(placed) == Counter(rules.parse_cards(row["hand"]))
    assert all(classify_group(g, row["cut"]) is not MeldKind.INVALID for g in result.groups)
    assert rules.count_points([*result.groups, result.ungrouped], row["cut"]) == row["points"]
    if row["can_declare"]:
        assert rules.check_declaration(result.groups, row["cut"]).valid


@pytest.mark.parametrize("arranged", ARRANGED, ids=[_id(r) for r in ARRANGED])
def test_given_arrangement(arranged: dict[str, Any]) -> None:
    row = arranged
    arrangement = row["arrangement"]
    groups = arrangement["groups"]
    assert rules.count_points(groups, row["cut"]) == arrangement["points"]
    assert rules.check_declaration(groups, row["cut"]).valid is arrangement["valid"]
    # No arrangement counts less than the lowest count.
    assert arrangement["points"] >= row["points"]
