"""A template that cannot be played, in staff words: each problem named next to its field.

``template_problems(template)`` reads the values a game would get (a blank rule field stands
for the rule book's default of the variant, ``rule_defaults(variant)``) and returns
``{field name: [message, ...]}``; the model's ``clean()`` raises them as field errors, so the
admin shows each message beside the field it is about. The engine's own validation still runs
after these (``tables.engines.template_settings``) for anything rarer.

Imports nothing of the app but ``tables.engines`` (the engine's defaults): it sits below the
models (which raise its problems from ``clean()``) and the staff admin (which shows them).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tables.engines import SETTING_ALIASES, engine_of

__all__ = [
    "FEE_MAX_BPS",
    "POSITIVE_TIMERS",
    "SEATS_WORDS",
    "rule_defaults",
    "template_problems",
]

FEE_MAX_BPS = 5000  # 50 %
SEATS = (2, 6)
SEATS_WORDS = "A table seats 2 to 6 players (classic too)."
# Timers that must run for a while: a 0 would end every turn, window or countdown at once.
POSITIVE_TIMERS: dict[str, str] = {
    "turn_s": "A turn",
    "meld_window_s": "The meld window",
    "rejoin_window_s": "The rejoin window",
    "split_window_s": "The split offer",
}


def rule_defaults(variant: str) -> dict[str, Any]:
    """The rule book's default of every setting of ``variant``, by template field name
    (``hands_count`` for classic's ``hands``; meld options flattened)."""
    try:
        settings = engine_of(variant).settings_for(variant)
    except (ValueError, KeyError):
        return {}
    if not dataclasses.is_dataclass(settings):
        return {}
    values = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)}
    meld = values.pop("meld", None)
    if meld is not None and dataclasses.is_dataclass(meld):
        for f in dataclasses.fields(meld):
            values.setdefault(f.name, getattr(meld, f.name))
    for (v, field), engine_name in SETTING_ALIASES.items():
        if v == variant and engine_name in values:
            values[field] = values[engine_name]
    return values


def _drops(variant: str) -> bool:
    """Whether ``variant``'s players may drop (the engine's trait): its drops are checked then
    (an unknown variant's too)."""
    try:
        return engine_of(variant).traits.drops
    except (ValueError, KeyError):
        return True


def _value(template: Any, name: str, defaults: dict[str, Any]) -> Any:
    value = getattr(template, name, None)
    extra = getattr(template, "extra_settings", None)
    if value is None and isinstance(extra, dict) and name in extra:
        value = extra[name]
    return defaults.get(name) if value is None else value


def _where(template: Any, *names: str) -> str:
    """The first of ``names`` staff filled in (the one to fix), else the first."""
    for name in names:
        if getattr(template, name, None) is not None:
            return name
    return names[0]


def template_problems(template: Any) -> dict[str, list[str]]:
    """Every reason ``template`` cannot be played, by the field to fix, in staff words."""
    problems: dict[str, list[str]] = {}

    def add(field: str, message: str) -> None:
        problems.setdefault(field, []).append(message)

    variant = getattr(template, "variant", "") or ""
    defaults = rule_defaults(variant)

    def num(name: str) -> Any:
        return _value(template, name, defaults)

    # The 2..6 range of each is the fields' own validators (same words); here their order.
    seats_min, seats_max = template.seats_min, template.seats_max
    low, high = SEATS
    if (
        seats_min is not None
        and seats_max is not None
        and low <= seats_min <= high
        and low <= seats_max <= high
        and seats_min > seats_max
    ):
        add("seats_min", f"The minimum ({seats_min}) is above the maximum ({seats_max}) seats.")

    fee = template.platform_fee_bps
    if fee is not None and not 0 <= fee <= FEE_MAX_BPS:
        add("platform_fee_bps", f"The platform fee is 0 % to 50 %, not {fee / 100:g} %.")

    first, middle, full = num("first_drop"), num("middle_drop"), num("full_count")
    if _drops(variant):
        if None not in (first, middle) and first > middle:
            add(
                _where(template, "first_drop", "middle_drop"),
                f"The first drop ({first} points) is more than the middle drop ({middle} "
                "points): dropping later must never cost less.",
            )
        if None not in (middle, full) and middle > full:
            add(
                _where(template, "middle_drop", "full_count"),
                f"The middle drop ({middle} points) is more than the full count ({full} "
                "points): a drop must never cost more than losing with every card.",
            )

    if variant in ("pool101", "pool201"):
        limit = num("pool_limit")
        if limit is not None and full is not None and full >= limit:
            add(
                _where(template, "full_count", "pool_limit"),
                f"The full count ({full} points) is at or above the pool limit ({limit}): "
                "one lost deal would put a player out. Keep the full count below the limit.",
            )
        rejoin = num("rejoin_max_total")
        if limit is not None and rejoin is not None and rejoin >= limit - 1:
            add(
                _where(template, "rejoin_max_total", "pool_limit"),
                f"The rejoin threshold ({rejoin} points) must be below the pool limit "
                f"({limit}) minus 1: a player who rejoins restarts at the highest total + 1 "
                f"and must still be in. Use at most {max(limit - 2, 0)}.",
            )
        split = num("auto_split_min_total")
        if limit is not None and split is not None and not 0 < split < limit:
            add(
                _where(template, "auto_split_min_total", "pool_limit"),
                f"The auto split threshold ({split} points) must be inside the pool: above 0 "
                f"and below the pool limit ({limit}).",
            )

    for name, what in POSITIVE_TIMERS.items():
        value = getattr(template, name, None)
        if value is not None and value <= 0:
            add(name, f"{what} must last more than 0 seconds.")
    countdown = getattr(template, "start_countdown_s", None)
    if countdown is not None and countdown <= 0:
        add("start_countdown_s", "The start countdown must last more than 0 seconds.")
    return problems
