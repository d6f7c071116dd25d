"""The seats' places around the felt have one table, the server's (issue 33): the felt carries
them for its size (``data-slots``), and the page only turns them for its viewer."""

from __future__ import annotations

from pathlib import Path

from tables.presenters.table import ring_slots, seat_slots


def test_the_felt_says_the_places_and_the_viewer_sits_at_the_bottom() -> None:
    assert ring_slots(4) == ["bottom", "left", "top", "right"]
    assert ring_slots(8)[0] == "ring-0"
    assert seat_slots([1, 2, 3, 4], 3) == {3: "bottom", 4: "left", 1: "top", 2: "right"}


def test_the_page_has_no_copy_of_the_places() -> None:
    root = Path(__file__).resolve().parents[2]
    script = (root / "static/js/table.js").read_text()
    assert "SLOTS" not in script and "top-left" not in script
    assert 'data-slots="{{ t.slot_order }}"' in (root / "templates/tables/table.html").read_text()
