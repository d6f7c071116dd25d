"""The template admin cannot be misconfigured (issue 13): money in rupees and chips, every blank
rule showing its default, each impossible template refused next to its field in staff words
(one test per rule, through the admin form), and new templates from presets."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from tables_testkit import template_form

from tables.models import Table, TableTemplate
from tables.staff.presets import PRESETS

ADD = "/admin/tables/tabletemplate/add/"


@pytest.fixture
def admin(db: Any, user_factory: Any) -> Client:
    client = Client()
    client.force_login(user_factory(is_staff=True, is_superuser=True))
    return client


def _refused(admin: Client, **changes: Any) -> dict[str, list[str]]:
    response = admin.post(ADD, template_form(**changes))
    assert response.status_code == 200, "the form was accepted"
    assert not TableTemplate.objects.exists()
    return dict(response.context["adminform"].form.errors)


def test_a_valid_template_is_saved_with_money_in_minor_units_and_opens_a_table(
    admin: Client,
) -> None:
    response = admin.post(ADD, template_form())
    assert response.status_code == 302
    template = TableTemplate.objects.get()
    assert template.entry_fee == 2500 and template.platform_fee_bps == 1000
    assert Table.objects.filter(template=template).count() == 1  # the minimum kept open
    page = admin.get(f"/admin/tables/tabletemplate/{template.pk}/change/").content.decode()
    assert 'value="25.00"' in page and 'name="platform_fee_bps" value="10"' in page
    listing = admin.get("/admin/tables/tabletemplate/").content.decode()
    assert "₹25.00" in listing and "10 %" in listing and "2500" not in listing


def test_practice_money_is_in_chips(admin: Client) -> None:
    response = admin.post(
        ADD,
        template_form(currency="practice", entry_fee="100", practice="on", bot_count=5, name="P"),
    )
    assert response.status_code == 302
    assert TableTemplate.objects.get().entry_fee == 100
    errors = _refused_again(admin, currency="practice", entry_fee="1.50", practice="on")
    assert errors["entry_fee"] == ["Practice chips have no fractions: enter whole chips, e.g. 100."]


def _refused_again(admin: Client, **changes: Any) -> dict[str, list[str]]:
    response = admin.post(ADD, template_form(name="Another", **changes))
    assert response.status_code == 200
    return dict(response.context["adminform"].form.errors)


@pytest.mark.parametrize("typed", ["-5", "1e3", "٢٥", "25.001", "twenty"])
def test_money_that_is_not_an_amount_is_refused_in_words(admin: Client, typed: str) -> None:
    errors = _refused(admin, entry_fee=typed)
    assert list(errors) == ["entry_fee"]
    assert "rupees" in errors["entry_fee"][0] or "decimals" in errors["entry_fee"][0]


def test_every_blank_rule_shows_the_default_it_stands_for(admin: Client) -> None:
    page = admin.get(ADD).content.decode()
    # The add form starts as Pool 101: each blank shows that variant's default...
    assert 'name="first_drop"' in page and 'placeholder="rule book: 20"' in page
    assert 'placeholder="rule book: 101"' in page  # the pool limit
    assert "(rule book: yes)" in page  # drops with two players
    # ...and every variant's default is written beside the field.
    hint = "Blank: the rule book's default (101 pool 20 · 201 pool 25 · Deals 20 · Points 20)"
    assert hint in page
    template = TableTemplate.objects.create(name="Deals", variant="deals", entry_fee=100)
    page = admin.get(f"/admin/tables/tabletemplate/{template.pk}/change/").content.decode()
    assert "(rule book: flat score)" in page and "(rule book: no)" in page
    assert 'placeholder="not used in Deals"' in page  # the pool limit


# ----------------------------------------------------------------- one test per rule


def test_full_count_at_or_above_the_pool_limit_is_refused(admin: Client) -> None:
    errors = _refused(admin, full_count=250, pool_limit=201)
    assert list(errors) == ["full_count"]
    assert "full count (250 points) is at or above the pool limit (201)" in errors["full_count"][0]
    errors = _refused(admin, variant="pool101", full_count=101)
    assert "at or above the pool limit (101)" in errors["full_count"][0]


def test_first_drop_above_middle_drop_is_refused(admin: Client) -> None:
    errors = _refused(admin, first_drop=60)  # the 201 pool's middle drop is 50
    assert list(errors) == ["first_drop"]
    assert (
        "first drop (60 points) is more than the middle drop (50 points)"
        in (errors["first_drop"][0])
    )


def test_middle_drop_above_full_count_is_refused(admin: Client) -> None:
    errors = _refused(admin, middle_drop=90)
    assert list(errors) == ["middle_drop"]
    assert (
        "middle drop (90 points) is more than the full count (80 points)"
        in (errors["middle_drop"][0])
    )


def test_rejoin_threshold_at_or_above_the_pool_limit_is_refused(admin: Client) -> None:
    errors = _refused(admin, rejoin_max_total=201)
    assert list(errors) == ["rejoin_max_total"]
    assert "rejoin threshold (201 points)" in errors["rejoin_max_total"][0]
    assert "Use at most 199" in errors["rejoin_max_total"][0]


@pytest.mark.parametrize("split", [0, 201, 250])
def test_auto_split_threshold_outside_the_pool_is_refused(admin: Client, split: int) -> None:
    errors = _refused(admin, auto_split_min_total=split)
    assert list(errors) == ["auto_split_min_total"]
    assert (
        f"auto split threshold ({split} points) must be inside the pool"
        in (errors["auto_split_min_total"][0])
    )


@pytest.mark.parametrize("fee", ["50.5", "75", "120"])
def test_platform_fee_outside_0_to_50_percent_is_refused(admin: Client, fee: str) -> None:
    errors = _refused(admin, platform_fee_bps=fee)
    assert list(errors) == ["platform_fee_bps"]
    assert "The platform fee is 0 % to 50 %" in errors["platform_fee_bps"][0]


@pytest.mark.parametrize(
    ("variant", "field", "seats"),
    [("pool101", "seats_max", 7), ("pool101", "seats_min", 1), ("classic", "seats_max", 8)],
)
def test_seats_outside_2_to_6_are_refused(
    admin: Client, variant: str, field: str, seats: int
) -> None:
    changes: dict[str, Any] = {"variant": variant, field: seats}
    if variant == "classic":
        changes["entry_fee"] = "10.00"
    errors = _refused(admin, **changes)
    assert errors[field] == ["A table seats 2 to 6 players (classic too)."]


def test_minimum_seats_above_the_maximum_is_refused(admin: Client) -> None:
    errors = _refused(admin, seats_min=5, seats_max=3)
    assert "The minimum (5) is above the maximum (3) seats." in errors["seats_min"]


@pytest.mark.parametrize(
    "field", ["turn_s", "meld_window_s", "rejoin_window_s", "split_window_s", "start_countdown_s"]
)
def test_timers_of_zero_are_refused(admin: Client, field: str) -> None:
    errors = _refused(admin, **{field: 0})
    assert list(errors) == [field]
    assert "must last more than 0 seconds" in errors[field][0]


# ------------------------------------------------------------------------------ presets


def test_presets_cover_every_kind_practice_and_cash(admin: Client) -> None:
    page = admin.get("/admin/tables/tabletemplate/presets/").content.decode()
    for label in ("Pool 101", "Pool 201", "Deals, best of 2", "Deals, best of 3"):
        assert f">Practice {label}<" in page and f">{label}<" in page
    for label in ("Deals, best of 6", "Points", "Classic 10-card"):
        assert f">Practice {label}<" in page and f">{label}<" in page
    assert "New template from preset" in admin.get("/admin/tables/tabletemplate/").content.decode()


@pytest.mark.parametrize("preset", PRESETS, ids=[p.key for p in PRESETS])
def test_every_preset_fills_the_form_with_the_rule_books_numbers_and_saves(
    admin: Client, preset: Any
) -> None:
    response = admin.get(f"{ADD}?preset={preset.key}")
    form = response.context["adminform"].form
    assert form.initial["name"] == preset.label
    data = {name: form[name].value() for name in form.fields}
    data = {k: "on" if v is True else "" if v is None or v is False else v for k, v in data.items()}
    for name in ("drops_with_two_players",):
        value = preset.fields.get(name)
        data[name] = "" if value is None else ("true" if value else "false")
    saved = admin.post(ADD, data)
    assert saved.status_code == 302, saved.context["adminform"].form.errors
    template = TableTemplate.objects.get(name=preset.label)
    for name in ("pool_limit", "first_drop", "middle_drop", "rejoin_max_total", "deals_count"):
        if name in preset.fields:
            assert getattr(template, name) == preset.fields[name]
    if preset.key == "cash-pool201":
        assert template.entry_fee == 2500 and template.auto_split_min_total == 176
    if preset.key == "practice-points":
        assert template.point_value == 1 and template.currency == "practice"
