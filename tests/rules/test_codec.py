"""The typed JSON codec's ``encode`` (``tables/rules/machine.py``), worked out once per class:
each kind of value is encoded as the codec says, whatever was encoded before it."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from tables.rules.cards import parse_card
from tables.rules.machine import encode


@dataclass(frozen=True)
class Inner:
    card: object
    cards: tuple[object, ...]


@dataclass(frozen=True)
class Outer:
    name: str
    inner: Inner
    by_seat: object
    nothing: None = None


class OwnJson:
    def to_json(self) -> dict[str, int]:
        return {"own": 1}


class Scores(tuple[int, ...]):
    """A tuple's subclass: a list like any tuple."""


def test_every_kind_of_value_is_encoded_by_its_class() -> None:
    card = parse_card("QH")
    value = Outer(
        name="x",
        inner=Inner(card=card, cards=(card, parse_card("10S"))),
        by_seat=MappingProxyType({1: (OwnJson(), Scores((3, 4)))}),
    )
    expected = {
        "name": "x",
        "inner": {"card": "QH", "cards": ["QH", "10S"]},
        "by_seat": {"1": [{"own": 1}, [3, 4]]},
        "nothing": None,
    }
    assert encode(value) == expected
    assert encode(value) == expected  # the second time from the encoders worked out
    assert encode(Outer) is Outer  # a class is left as it is, dataclass or not
    assert encode(OwnJson) is OwnJson
    assert [encode(v) for v in (1, 2.5, "s", True, None)] == [1, 2.5, "s", True, None]
