"""``{% remember %}`` (``tables/templatetags/table_words.py``): a block rendered once for each
set of the values it names in each language, the same text given back while they are the same;
and the felt's seats, which use it, as a fresh render shows them."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.utils import translation

from tables.templatetags import table_words


class Ticks:
    """A value that counts how many times the block read it."""

    def __init__(self) -> None:
        self.count = 0

    @property
    def n(self) -> int:
        self.count += 1
        return self.count


BLOCK = Template(
    "{% load i18n table_words %}"
    "{% remember a b %}{{ a }}{{ b }}:{{ ticks.n }}:{% translate 'Lobby' %}{% endremember %}"
)


def test_the_block_is_rendered_once_for_the_same_values() -> None:
    ticks = Ticks()
    first = BLOCK.render(Context({"a": "x1", "b": 7, "ticks": ticks}))
    again = BLOCK.render(Context({"a": "x1", "b": 7, "ticks": ticks}))
    assert first == again == "x17:1:Lobby"
    assert ticks.count == 1


def test_other_values_or_another_language_render_it_again() -> None:
    ticks = Ticks()
    assert BLOCK.render(Context({"a": "y1", "b": 7, "ticks": ticks})) == "y17:1:Lobby"
    assert BLOCK.render(Context({"a": "y1", "b": 8, "ticks": ticks})) == "y18:2:Lobby"
    with translation.override("hi"):
        hindi = BLOCK.render(Context({"a": "y1", "b": 8, "ticks": ticks}))
    assert hindi.startswith("y18:3:") and hindi != "y18:3:Lobby"  # its own words
    assert ticks.count == 3


def test_two_blocks_with_the_same_values_keep_their_own_text() -> None:
    two = Template(
        "{% load table_words %}{% remember a %}one {{ a }}{% endremember %}"
        "|{% remember a %}two {{ a }}{% endremember %}"
    )
    assert two.render(Context({"a": "z"})) == "one z|two z"


def test_the_least_recently_used_blocks_go_past_the_budget_of_characters(monkeypatch) -> None:
    monkeypatch.setattr(table_words, "REMEMBERED_CHARS", 2 * len("p0:1:Lobby"))
    ticks = Ticks()
    for value in ("p", "q", "r"):  # "p" is dropped for "r"
        BLOCK.render(Context({"a": value, "b": 0, "ticks": ticks}))
    assert BLOCK.render(Context({"a": "r", "b": 0, "ticks": ticks})).endswith(":3:Lobby")
    assert BLOCK.render(Context({"a": "p", "b": 0, "ticks": ticks})).endswith(":4:Lobby")
    assert len(table_words._remembered) == 2
    assert table_words._remembered_chars[0] == sum(map(len, table_words._remembered.values()))
    # A block larger than the whole budget is given back but not kept.
    assert BLOCK.render(Context({"a": "x" * 50, "b": 0, "ticks": ticks})).endswith(":5:Lobby")
    assert table_words._remembered_chars[0] <= table_words.REMEMBERED_CHARS


def test_the_actions_of_two_tables_are_one_block_with_each_tables_address_and_game() -> None:
    """A seat's action forms are remembered by what they offer, not by the table: every table
    in play shares them, each with its own address, game and version put in."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    def seat(table: int, game: int, version: int) -> SimpleNamespace:
        return SimpleNamespace(
            allowed=frozenset({"pick_closed", "pick_open", "drop"}),
            act_url=f"/tables/{table}/act/",
            game_id=game,
            version=version,
            traits=SimpleNamespace(sorts_hand=True),
            hand=SimpleNamespace(auto_drop=False),
            melds=(),
            drop=None,
        )

    first = render_to_string("tables/table.html#my-actions", {"s": seat(71, 701, 5)})
    kept = len(table_words._remembered)
    second = render_to_string("tables/table.html#my-actions", {"s": seat(72, 702, 9)})
    assert len(table_words._remembered) == kept  # the same block
    for html, table, game, version in ((first, 71, 701, 5), (second, 72, 702, 9)):
        assert set(re.findall(r'action="([^"]*)"', html)) == {f"/tables/{table}/act/"}
        assert set(re.findall(r'hx-post="([^"]*)"', html)) == {f"/tables/{table}/act/"}
        assert set(re.findall(r'name="game" value="([^"]*)"', html)) == {str(game)}
        assert set(re.findall(r'name="version" value="([^"]*)"', html)) == {str(version)}
        assert len(re.findall(r"<form ", html)) == 3
    assert first.replace("71", "72").replace("701", "702").replace('"5"', '"9"') == second


def test_a_block_must_name_what_it_reads() -> None:
    with pytest.raises(TemplateSyntaxError):
        Template("{% load table_words %}{% remember %}x{% endremember %}")


STAMPED = Template(
    "{% load table_words %}"
    '{% remember a stamp v=version %}<input value="{{ v }}">{{ a }}:{{ ticks.n }}{% endremember %}'
)


def test_a_stamped_value_is_put_in_every_time_the_block_is_not_rendered_again() -> None:
    ticks = Ticks()
    first = STAMPED.render(Context({"a": "s1", "version": 7, "ticks": ticks}))
    second = STAMPED.render(Context({"a": "s1", "version": 8, "ticks": ticks}))
    assert first == '<input value="7">s1:1'
    assert second == '<input value="8">s1:1'  # the same block, the new value
    assert ticks.count == 1


def test_a_stamped_value_is_escaped() -> None:
    shown = STAMPED.render(Context({"a": "s2", "version": '"><b>', "ticks": Ticks()}))
    assert shown == '<input value="&quot;&gt;&lt;b&gt;">s2:1'


def test_a_stamp_must_name_its_value() -> None:
    for tag in ("{% remember a stamp %}", "{% remember a stamp v %}", "{% remember a stamp =b %}"):
        with pytest.raises(TemplateSyntaxError):
            Template("{% load table_words %}" + tag + "x{% endremember %}")
