"""The move lines ("what just happened") in words a player reads: said to the viewer in the
second person, never naming a card picked from the closed deck."""

from __future__ import annotations

from tables.presenters.moves import move_lines


def _name(seat: int) -> str:
    return "You" if seat == 1 else "Bilal"


def _lines(*events: dict[str, object]) -> list[str]:
    moves = [{"version": n, "events": [event]} for n, event in enumerate(events, start=1)]
    return [line.text for line in move_lines(moves, _name, "QC")]


def test_lines_about_the_viewer_are_said_to_them() -> None:
    assert _lines(
        {"type": "deal_started", "starter": 1},
        {"type": "extra_time_started", "seat": 1},
        {"type": "deal_started", "starter": 2},
        {"type": "extra_time_started", "seat": 2},
    ) == [
        "Cards dealt: you start",
        "You are on extra time",
        "Cards dealt: Bilal starts",
        "Bilal is on extra time",
    ]


def test_a_pick_from_the_closed_deck_never_names_the_card() -> None:
    (line,) = _lines({"type": "card_picked", "seat": 2, "source": "closed", "card": "7H"})
    assert line == "Bilal picked from the closed deck"
    assert "7" not in line
    (opened,) = _lines({"type": "card_picked", "seat": 2, "source": "open", "card": "7H"})
    assert opened.startswith("Bilal took 7")
