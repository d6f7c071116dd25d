"""``tables.presenters.shown.Shown``: the presenters' frozen values read as items by the
templates, with what a template shows unchanged."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.template import Context, Template

from tables.presenters.page import CardGroup
from tables.presenters.shown import Shown


@dataclass(frozen=True, slots=True)
class Seat(Shown):
    name: str
    cards: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.cards)


def test_a_field_or_a_property_is_an_item() -> None:
    seat = Seat(name="Asha", cards=("5H", "6H"))
    assert seat["name"] == "Asha"
    assert seat["count"] == 2


@pytest.mark.parametrize("name", ["missing", 0, None])
def test_a_name_that_is_not_a_field_is_a_key_error(name: str) -> None:
    with pytest.raises(KeyError):
        Seat(name="Asha", cards=())[name]


def test_a_template_shows_what_it_showed_as_attributes() -> None:
    template = Template(
        "{{ s.name }}|{{ s.count }}|{{ s.cards.1 }}|{{ s.missing }}|{{ s.cards|length }}"
        "|{% for c in s.cards %}{{ c }}{% endfor %}|{% if s.name %}yes{% endif %}"
    )
    shown = template.render(Context({"s": Seat(name="Asha", cards=("5H", "6H"))}))
    assert shown == "Asha|2|6H||2|5H6H|yes"


def test_the_presenters_are_shown() -> None:
    group = CardGroup(cards=(), kind="set", kind_label="Set", valid=True)
    assert isinstance(group, Shown)
    assert Template("{{ g.kind_label }} {{ g.valid }}").render(Context({"g": group})) == (
        "Set True"
    )
