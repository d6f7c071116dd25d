"""``{% remember %}`` (``tables/templatetags/table_words.py``): a block rendered once for each
set of the values it names in each language, the same text given back while they are the same;
and the felt's seats, which use it, as a fresh render shows them."""

from __future__ import annotations

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


def test_the_least_recently_used_block_goes_past_the_limit(monkeypatch) -> None:
    monkeypatch.setattr(table_words, "REMEMBERED_MAX", 2)
    ticks = Ticks()
    for value in ("p", "q", "r"):  # "p" is dropped for "r"
        BLOCK.render(Context({"a": value, "b": 0, "ticks": ticks}))
    assert BLOCK.render(Context({"a": "r", "b": 0, "ticks": ticks})).endswith(":3:Lobby")
    assert BLOCK.render(Context({"a": "p", "b": 0, "ticks": ticks})).endswith(":4:Lobby")
    assert len(table_words._remembered) <= 2


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
