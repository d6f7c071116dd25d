"""Template presets: "new template from preset" in the admin fills the add form with the rule
book's numbers (docs/RULES.md, from the seeds) for each kind of game, practice and cash.

Money is given in display units as staff type it: rupees for cash ("10.00"), chips for
practice ("100"); the platform fee in percent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["PRESETS", "Preset", "hindi_name", "preset_by_key"]


@dataclass(frozen=True)
class Preset:
    key: str
    label: str
    fields: dict[str, Any] = field(default_factory=dict)


# RULES.md section 4 (scores), 5 (pool: limits, rejoin, splits), 6 (deals), 7 (points), 8 (classic).
_POOL101 = {
    "variant": "pool101",
    "first_drop": 20,
    "middle_drop": 40,
    "full_count": 80,
    "wrong_show": 80,
    "pool_limit": 101,
    "rejoin_max_total": 79,
    "rejoins_per_player": 1,
    "rejoin_window_s": 20,
    "auto_split_min_total": 81,
    "split_window_s": 20,
}
_POOL201 = {
    **_POOL101,
    "variant": "pool201",
    "first_drop": 25,
    "middle_drop": 50,
    "pool_limit": 201,
    "rejoin_max_total": 174,
    "auto_split_min_total": 176,
}
_DEALS = {
    "variant": "deals",
    "first_drop": 20,
    "middle_drop": 40,
    "full_count": 80,
    "wrong_show": 80,
    "chips_per_deal": 80,
    "deal_show_rule": "flat",
    "deal_show_flat": 20,
    "drops_with_two_players": False,
}
_POINTS = {
    "variant": "points",
    "first_drop": 20,
    "middle_drop": 40,
    "full_count": 80,
    "wrong_show": 80,
    "points_buy_in_multiple": 80,
}
_CLASSIC = {"variant": "classic", "hands_count": 5}
_DEALS_STAKES = {"cash": "20.00", "practice": "100"}
_TIMERS = {"turn_s": 30, "extra_time_s": 30, "meld_window_s": 45, "break_s": 10}

_KINDS: tuple[tuple[str, str, dict[str, Any], dict[str, str]], ...] = (
    # key, label, rules, stake (cash in rupees, practice in chips)
    ("pool101", "Pool 101", _POOL101, {"cash": "10.00", "practice": "100"}),
    ("pool201", "Pool 201", _POOL201, {"cash": "25.00", "practice": "100"}),
    *(
        (f"deals{n}", f"Deals, best of {n}", {**_DEALS, "deals_count": n}, _DEALS_STAKES)
        for n in (2, 3, 6)
    ),
    ("points", "Points", _POINTS, {"cash": "0.50", "practice": "1"}),
    ("classic", "Classic 10-card", _CLASSIC, {"cash": "10.00", "practice": "100"}),
)

# The Hindi display names (``TableTemplate.name_hi``), the words of the Hindi catalogue's
# variant names (locale/hi): "Practice Pool 101" reads "प्रैक्टिस पूल 101".
HINDI_LABELS: dict[str, str] = {
    "Pool 101": "पूल 101",
    "Pool 201": "पूल 201",
    **{f"Deals, best of {n}": f"डील्स, {n} में से सबसे अच्छा" for n in (2, 3, 6)},
    "Points": "पॉइंट्स",
    "Classic 10-card": "क्लासिक 10 पत्ते",
}
HINDI_PRACTICE = "प्रैक्टिस"


def hindi_name(name: str) -> str:
    """The Hindi display name of a preset's name ("Practice Pool 101"), or "" if it is none."""
    practice = name.startswith("Practice ")
    label = HINDI_LABELS.get(name.removeprefix("Practice "), "")
    if not label:
        return ""
    return f"{HINDI_PRACTICE} {label}" if practice else label


def _preset(key: str, label: str, rules: dict[str, Any], stake: str, *, practice: bool) -> Preset:
    money_field = "point_value" if rules["variant"] == "points" else "entry_fee"
    seats = 2 if rules["variant"] == "deals" else 6
    fields: dict[str, Any] = {
        **rules,
        **_TIMERS,
        "name": f"{'Practice ' if practice else ''}{label}",
        "name_hi": hindi_name(f"{'Practice ' if practice else ''}{label}"),
        "seats_min": 2,
        "seats_max": seats,
        "currency": "practice" if practice else "cash",
        money_field: stake,
        "platform_fee_bps": "10",
        "practice": practice,
        "bot_count": seats - 1 if practice else 0,
        "start_countdown_s": 15,
    }
    if rules["variant"] == "classic":
        fields.update({"seats_max": 4, "bot_count": 3 if practice else 0})
        fields.pop("meld_window_s")
    kind = "practice" if practice else "cash"
    return Preset(key=f"{kind}-{key}", label=fields["name"], fields=fields)


PRESETS: tuple[Preset, ...] = tuple(
    _preset(key, label, rules, stakes["practice" if practice else "cash"], practice=practice)
    for practice in (True, False)
    for key, label, rules, stakes in _KINDS
)


def preset_by_key(key: str) -> Preset | None:
    return next((p for p in PRESETS if p.key == key), None)
