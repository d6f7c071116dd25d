"""Game settings: rule-book defaults per variant, validation, JSON (RULES.md sections 1-7)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from tables.rules.errors import InvalidSettings
from tables.rules.melds import MeldSettings
from tables.rules.settings import GameSettings


@pytest.mark.parametrize(
    ("variant", "first", "middle", "limit", "rejoin", "auto_split", "two_player_drops", "show"),
    [
        ("pool101", 20, 40, 101, 79, 81, True, "half"),
        ("pool201", 25, 50, 201, 174, 176, True, "half"),
        ("deals", 20, 40, None, None, None, False, "flat"),
        ("points", 20, 40, None, None, None, True, "half"),
    ],
)
def test_table_defaults_per_variant(
    variant: str,
    first: int,
    middle: int,
    limit: int | None,
    rejoin: int | None,
    auto_split: int | None,
    two_player_drops: bool,
    show: str,
) -> None:
    settings = GameSettings.for_variant(variant)
    assert settings.variant == variant
    assert (settings.first_drop, settings.middle_drop) == (first, middle)
    assert settings.full_count == 80 and settings.wrong_show == 80
    assert settings.drops_with_two_players is two_player_drops
    assert settings.deal_show_rule == show
    if limit is not None:
        assert settings.pool_limit == limit
        assert settings.rejoin_max_total == rejoin
        assert settings.auto_split_min_total == auto_split


def test_rule_book_defaults() -> None:
    settings = GameSettings.for_variant("pool101")
    assert (settings.packs, settings.printed_jokers_per_pack, settings.shoe_size) == (2, 1, 106)
    assert (settings.seats_min, settings.seats_max) == (2, 6)
    assert (settings.turn_s, settings.extra_time_s, settings.meld_window_s) == (30.0, 30.0, 45.0)
    assert (settings.rejoin_window_s, settings.split_window_s) == (20.0, 20.0)
    assert settings.max_reshuffles == 3
    assert settings.first_open_joker_pickable is True
    assert settings.missed_turns_limit == 3
    assert settings.disconnect_policy == "missed_turns"
    assert settings.rejoins_per_player == 1
    assert settings.split_weighting == "drops_plus_one"
    assert (settings.deal_show_min, settings.deal_show_max, settings.deal_show_flat) == (2, 40, 20)
    assert (settings.deals_count, settings.chips_per_deal) == (2, 80)
    assert settings.meld == MeldSettings()
    assert settings.is_pool and not settings.is_deals and not settings.is_points


def test_overrides_and_unknown_names() -> None:
    settings = GameSettings.for_variant("deals", deals_count=6, entry_fee=5000, turn_s=20)
    assert settings.deals_count == 6 and settings.deals_starting_chips == 480
    assert settings.turn_s == 20.0 and isinstance(settings.turn_s, float)
    assert settings.entry_fee == 5000
    with pytest.raises(InvalidSettings, match="unknown settings: colour"):
        GameSettings.for_variant("pool101", colour="red")
    with pytest.raises(InvalidSettings, match="unknown variant"):
        GameSettings.for_variant("gin")
    with pytest.raises(InvalidSettings):
        GameSettings.for_variant("pool101", variant="deals")


@pytest.mark.parametrize(
    ("variant", "overrides"),
    [
        ("pool101", {"seats_min": 1}),
        ("pool101", {"seats_min": 5, "seats_max": 4}),
        ("pool101", {"packs": 1}),  # 6 x 13 cards do not fit in one pack
        ("pool101", {"packs": 0}),
        ("pool101", {"first_drop": 50, "middle_drop": 40}),
        ("pool101", {"middle_drop": 90}),
        ("pool101", {"turn_s": 0}),
        ("pool101", {"extra_time_s": -1}),
        ("pool101", {"max_reshuffles": -1}),
        ("pool101", {"missed_turns_limit": 0}),
        ("pool101", {"disconnect_policy": "ignore"}),
        ("pool101", {"deal_show_rule": "quarter"}),
        ("pool101", {"split_weighting": "random"}),
        ("pool101", {"rejoin_max_total": 100}),
        ("pool101", {"auto_split_min_total": 101}),
        ("pool101", {"pool_limit": 1}),
        ("pool101", {"platform_fee_bps": 10001}),
        ("pool101", {"entry_fee": -1}),
        ("pool101", {"entry_fee": 1.5}),
        ("pool101", {"first_open_joker_pickable": "yes"}),
        ("pool101", {"first_drop": 0}),
        ("deals", {"deals_count": 4}),
        ("points", {"point_value": -1}),
    ],
)
def test_impossible_values_are_refused(variant: str, overrides: dict[str, object]) -> None:
    with pytest.raises(InvalidSettings):
        GameSettings.for_variant(variant, **overrides)


def test_one_pack_is_enough_for_few_players() -> None:
    settings = GameSettings.for_variant("pool101", packs=1, seats_max=3)
    assert settings.shoe_size == 53


@pytest.mark.parametrize("variant", ["pool101", "pool201", "deals", "points", "classic"])
def test_json_round_trip(variant: str) -> None:
    settings = GameSettings.for_variant(
        variant, entry_fee=1234, meld=MeldSettings(largest_set=5, allow_joker_only_groups=True)
    )
    data = json.loads(json.dumps(settings.to_json()))
    assert data["meld"] == {"largest_set": 5, "allow_joker_only_groups": True}
    assert GameSettings.from_json(data) == settings


def test_from_json_refuses_unknown_and_bad_values() -> None:
    data = GameSettings.for_variant("pool101").to_json()
    with pytest.raises(InvalidSettings):
        GameSettings.from_json({**data, "surprise": 1})
    with pytest.raises(InvalidSettings):
        GameSettings.from_json({**data, "meld": {"largest_set": 2}})
    with pytest.raises(InvalidSettings):
        GameSettings.from_json({**data, "pool_limit": "101"})


def test_settings_are_frozen() -> None:
    settings = GameSettings.for_variant("points")
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.first_drop = 1  # type: ignore[misc]
