"""The skeleton both state machines share (``game`` and ``classic``).

* ``Transition(state, events)``: what one applied action returns.
* ``ActionRecord`` / ``EventRecord``: frozen-dataclass bases; ``type`` names the record and
  ``to_json()`` is ``{"type": ..., **fields}``. ``from_fields`` rebuilds one from those fields
  with the typed codec (a record may decode itself differently by overriding it).
* ``Registry``: record classes by type name, and ``from_json`` for a JSON object naming one.
* The typed JSON codec: ``encode``/``encode_fields`` and ``decode``/``decode_fields`` for frozen
  dataclasses, tuples, mappings, ``Card`` (its code), optional values and any type with its own
  ``to_json``/``from_json`` (settings, shoes, table melds).
* ``handler_for``: the dispatch of an action to the handler registered for its class.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import (
    Any,
    ClassVar,
    Generic,
    NamedTuple,
    Self,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from .cards import Card, parse_card
from .errors import InvalidMove, Refusal, RulesError

__all__ = [
    "ActionRecord",
    "EventRecord",
    "Record",
    "Registry",
    "Transition",
    "decode",
    "decode_fields",
    "encode",
    "encode_fields",
    "handler_for",
]

S = TypeVar("S")
E = TypeVar("E")
R = TypeVar("R", bound="Record")
H = TypeVar("H")


class Transition(NamedTuple, Generic[S, E]):
    """The result of applying an action: the new ``state`` and the ``events``, in order
    (``state, events = game_apply(...)`` works)."""

    state: S
    events: tuple[E, ...]


# =============================================================================== records


@dataclass(frozen=True)
class Record:
    """A JSON-serialisable frozen dataclass named by its ``type``."""

    type: ClassVar[str] = ""
    kind: ClassVar[str] = "record"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **encode_fields(self)}

    @classmethod
    def from_fields(cls, values: Mapping[str, Any]) -> Self:
        """Rebuild the record from the fields of ``to_json()`` (typed codec). Raises
        ``InvalidMove`` (or another ``RulesError``) for anything malformed."""
        try:
            return cast(Self, decode_fields(cls, values))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulesError):
                raise
            raise InvalidMove(
                Refusal.MALFORMED_RECORD, type=cls.type, kind=cls.kind, detail=str(exc)
            ) from exc


@dataclass(frozen=True)
class ActionRecord(Record):
    """Base of every action (what a player or the server asks the engine to do)."""

    kind: ClassVar[str] = "action"


@dataclass(frozen=True)
class EventRecord(Record):
    """Base of every event (what a transition reports)."""

    kind: ClassVar[str] = "event"


class Registry(Generic[R]):
    """Record classes by type name. ``unknown(kind)`` builds the error for a type it does not
    know (default: ``InvalidMove(Refusal.UNKNOWN_RECORD)``: "unknown <kind> 'x'")."""

    def __init__(
        self,
        classes: Iterable[type[R]],
        *,
        kind: str = "action",
        unknown: Callable[[object], RulesError] | None = None,
    ) -> None:
        self.classes: dict[str, type[R]] = {cls.type: cls for cls in classes}
        self.kind = kind
        self._unknown = unknown

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.classes)

    def get(self, name: object) -> type[R] | None:
        return self.classes.get(name) if isinstance(name, str) else None

    def from_json(self, data: Mapping[str, Any]) -> R:
        """Rebuild a record from its ``to_json()`` (or a form's values: card codes accepted).
        Raises ``InvalidMove`` (or ``InvalidCard``) for anything malformed."""
        if not isinstance(data, Mapping):
            raise InvalidMove(Refusal.RECORD_NOT_OBJECT, kind=self.kind)
        name = data.get("type")
        cls = self.get(name)
        if cls is None:
            if self._unknown is not None:
                raise self._unknown(name)
            raise InvalidMove(Refusal.UNKNOWN_RECORD, kind=self.kind, value=repr(name))
        return cls.from_fields({k: v for k, v in data.items() if k != "type"})

    @staticmethod
    def to_json(record: Record) -> dict[str, Any]:
        return record.to_json()


def handler_for(handlers: Mapping[type, H], action: object) -> H:
    """The handler registered for ``type(action)``; ``InvalidMove`` when there is none."""
    handler = handlers.get(type(action))
    if handler is None:
        raise InvalidMove(Refusal.UNKNOWN_ACTION, value=repr(action))
    return handler


# =============================================================================== JSON codec

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls)
    return _HINTS[cls]


def encode(value: object) -> Any:
    """A JSON-ready value: a card's code, a value's own ``to_json()``, a dataclass's fields,
    lists for tuples, string keys for mappings. How a value is encoded depends on its class
    only, so it is worked out once per class (``_encoder_of``): a state of a few thousand
    values is encoded on every move."""
    encoder = _ENCODERS.get(type(value))
    if encoder is None:
        encoder = _encoder_of(type(value))
    return encoder(value)


def encode_fields(value: object) -> dict[str, Any]:
    """A dataclass's fields, each encoded."""
    names = _FIELD_NAMES.get(type(value))
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cast(Any, value)))
        _FIELD_NAMES[type(value)] = names
    return {name: encode(getattr(value, name)) for name in names}


def _same(value: object) -> object:
    return value


def _card_code(value: Any) -> Any:
    return value.code


def _own_json(value: Any) -> Any:
    return value.to_json()


def _items(value: Iterable[object]) -> list[Any]:
    return [encode(item) for item in value]


def _entries(value: Mapping[object, object]) -> dict[str, Any]:
    return {str(key): encode(item) for key, item in value.items()}


def _encoder_of(kind: type) -> Callable[[Any], Any]:
    """How ``encode`` encodes a value of class ``kind`` (in this order: a card, a value with its
    own ``to_json``, a dataclass, a tuple or list, a mapping, anything else as it is; a class
    itself as it is)."""
    if issubclass(kind, type):
        encoder: Callable[[Any], Any] = _same
    elif issubclass(kind, Card):
        encoder = _card_code
    elif getattr(kind, "to_json", None) is not None:
        encoder = _own_json
    elif dataclasses.is_dataclass(kind):
        encoder = encode_fields
    elif issubclass(kind, (tuple, list)):
        encoder = _items
    elif issubclass(kind, Mapping):
        encoder = _entries
    else:
        encoder = _same
    _ENCODERS[kind] = encoder
    return encoder


_ENCODERS: dict[type, Callable[[Any], Any]] = {}
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def decode(tp: Any, data: Any) -> Any:
    """The value of type ``tp`` that ``encode`` turned into ``data``. Raises ``TypeError``,
    ``KeyError`` or a ``RulesError`` for data that does not fit."""
    if tp is Card:
        return parse_card(data)
    own = getattr(tp, "from_json", None) if isinstance(tp, type) else None
    if own is not None:
        return own(data)
    if tp is bool:
        if not isinstance(data, bool):
            raise TypeError(f"expected true/false, got {data!r}")
        return data
    if tp is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise TypeError(f"expected an integer, got {data!r}")
        return data
    if tp is float:
        if not isinstance(data, (int, float)) or isinstance(data, bool):
            raise TypeError(f"expected a number, got {data!r}")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise TypeError(f"expected a string, got {data!r}")
        return data
    origin = get_origin(tp)
    args = get_args(tp)
    if origin in (Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        return decode(options[0], data)
    if origin is tuple:
        if not isinstance(data, (list, tuple)):
            raise TypeError(f"expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], item) for item in data)
        return tuple(decode(arg, item) for arg, item in zip(args, data, strict=True))
    if origin in (Mapping, dict) or tp is Mapping:
        key_tp, value_tp = args
        return {decode(key_tp, _key(key_tp, k)): decode(value_tp, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return decode_fields(tp, data)
    raise TypeError(f"cannot decode {tp!r}")


def decode_fields(tp: type, data: Any) -> Any:
    """An instance of the dataclass ``tp`` from its encoded fields (missing fields with a
    default take it; unknown keys are ignored)."""
    if not isinstance(data, Mapping):
        raise TypeError(f"expected an object for {tp.__name__}")
    hints = _hints(tp)
    values = {}
    for f in dataclasses.fields(cast(Any, tp)):
        if not f.init:
            continue
        if f.name in data:
            values[f.name] = decode(hints[f.name], data[f.name])
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise KeyError(f.name)
    return tp(**values)


def _key(tp: Any, key: Any) -> Any:
    if tp is int and isinstance(key, str):
        return int(key)
    return key
