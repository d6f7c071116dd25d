"""The move lines ("what just happened") in words a player reads: said to the viewer in the
second person, never naming a card picked from the closed deck."""

from __future__ import annotations

from django.utils import translation

from tables.presenters.moves import action_words, move_lines, record_line


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


def _record(event: dict[str, object]) -> str:
    return record_line(event, 1, _name, "QC").text


def test_the_record_is_the_felts_lines_with_every_card_named() -> None:
    """Support's step-through says the moves with the felt's own lines (one copy), naming the
    card picked from the closed deck, marking a turn the server played and saying the events
    the felt leaves to its result sheets."""
    discard = {"type": "card_discarded", "seat": 2, "card": "7H"}
    assert _record(discard) == _lines(discard)[0] == "Bilal discarded 7♥"
    closed = {"type": "card_picked", "seat": 2, "source": "closed", "card": "7H", "auto": True}
    assert _record(closed) == "Bilal took 7♥ from the closed deck (played by the server)"
    assert _lines(closed) == ["Bilal picked from the closed deck (time ran out)"]
    ended = {"type": "deal_ended", "number": 2, "winner": 2, "reason": "show"}
    assert _lines(ended) == []
    assert _record(ended) == "Deal 2 ended (valid show): Bilal won"
    wrong = {
        "type": "declared",
        "seat": 2,
        "valid": False,
        "reason": "You need at least one pure sequence.",
        "finish_card": "7H",
    }
    assert _record(wrong).startswith("Bilal made a wrong show: No pure sequence:")
    assert action_words("timeout") == "timer ran out"
    with translation.override("hi"):
        assert _record(closed) == "Bilal ने बंद डेक से 7♥ लिया (सर्वर ने खेला)"
        assert action_words("timeout") == "टाइमर खत्म हो गया"


def test_the_review_says_each_move_in_the_felts_words() -> None:
    """My games' review and the felt word each move once (issue 33): the same move reads the
    same in both, the viewer's own lines said to them."""
    from tables.history.presenters import line_words

    names = {1: "Asha", 2: "Bilal"}
    pairs: list[tuple[dict[str, object], dict[str, object]]] = [
        ({"kind": "threw", "seat": 2, "card": "7H"}, {"type": "card_discarded", "seat": 2}),
        ({"kind": "picked_closed", "seat": 2}, {"type": "card_picked", "seat": 2}),
        ({"kind": "reshuffled"}, {"type": "deck_reshuffled"}),
        ({"kind": "submitted", "seat": 2}, {"type": "meld_submitted", "seat": 2}),
        ({"kind": "left", "seat": 2}, {"type": "player_left", "seat": 2}),
        ({"kind": "showed", "seat": 2, "valid": False}, {"type": "declared", "seat": 2}),
    ]
    for review, event in pairs:
        assert (
            line_words(review, names, me=1)
            == _lines({"card": "7H", "source": "closed", "valid": False, **event})[0]
        )
    assert line_words({"kind": "reshuffled"}, names, me=1) == (
        "The open deck was shuffled into the closed deck"
    )
    mine = line_words({"kind": "submitted", "seat": 1}, names, me=1)
    assert mine == "You submitted your groups"


def test_a_wrong_show_is_worded_from_the_engines_code_and_old_events_still_read() -> None:
    """A ``declared`` event carries its verdict's code and parameters; one logged before the
    codes (only the engine's sentence) reads the same."""
    coded = {"type": "declared", "seat": 2, "valid": False, "finish_card": "7H"}
    old = {**coded, "reason": "5H 6S 9D is not a valid sequence or set."}
    new = {**old, "reason": "anything", "code": "invalid_group", "group": ["5H", "6S", "9D"]}
    assert (
        _record(new)
        == _record(old)
        == ("Bilal made a wrong show: 5♥ 6♠ 9♦ is not a valid set or sequence.")
    )
    count = {**coded, "reason": "", "code": "card_count", "held": 12}
    assert _record(count) == (
        "Bilal made a wrong show: Wrong card count: a show groups 13 cards besides the finish "
        "card; these groups hold 12."
    )
    with translation.override("hi"):
        assert "5♥ 6♠ 9♦" in _record(new) and "is not" not in _record(new)


def test_the_viewers_own_discard_says_you() -> None:
    """The open deck's history says "thrown by you": a line about the viewer is theirs."""
    moves = [{"version": 1, "events": [{"type": "card_discarded", "seat": 1, "card": "7H"}]}]
    (line,) = move_lines(moves, _name, "QC")
    assert line.text == "You discarded 7♥" and line.who == "you"
