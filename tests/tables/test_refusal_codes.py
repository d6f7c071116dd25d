"""The tables' refusals carry a code and params (issue 24): they are worded when shown, in the
language then active, and the views tell refusals apart by code, never by their text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from tables_testkit import Clock

from tables import services
from tables.models import Table


def test_a_service_refusal_names_its_code_and_is_worded_when_shown(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock
) -> None:
    table = table_factory(seats_min=3, seats_max=3)
    services.table_join(table=table, user=players[0], seat_no=2)
    with translation.override("en"), pytest.raises(services.SeatUnavailable) as caught:
        services.table_join(table=table, user=players[1], seat_no=2)
    assert caught.value.code is services.TableRefusal.SEAT_TAKEN
    assert caught.value.params == {"seat": 2}
    with translation.override("en"):
        assert str(caught.value) == "Seat 2 is taken."
    with translation.override("hi"):  # raised in English, shown in Hindi
        assert str(caught.value) == "सीट 2 भरी हुई है।"


def test_the_practice_hint_follows_a_short_balance_in_the_same_language() -> None:
    funds = services.NotEnoughFunds(
        services.TableRefusal.FUNDS_FEE_HAVE, fee="100 chips", have="5 chips", practice=True
    )
    with translation.override("en"):
        assert str(funds) == (
            "Not enough balance: the entry fee is 100 chips and your balance is 5 chips. "
            "Free practice chips are in your wallet, once a day."
        )
    cash = services.NotEnoughFunds(services.TableRefusal.FUNDS_FEE, fee="₹10.00", practice=False)
    with translation.override("en"):
        assert str(cash) == "Not enough balance: the entry fee is ₹10.00."


def test_a_late_move_is_told_which_deadline_passed() -> None:
    assert services.TimeRanOut(["break", "meld"]).code is services.TableRefusal.LATE_MELD
    assert services.TimeRanOut(["break"]).code is services.TableRefusal.LATE
    stale = services.StaleAction(expected=3, current=5)
    assert stale.code is services.TableRefusal.STALE and (stale.expected, stale.current) == (3, 5)


@pytest.fixture
def game(seated: Any, toss: Any) -> Any:
    toss(1)
    return seated(2)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ('[[["QH"]]]', "The card groups are nested too deeply."),
        ("[" * 1500, "The card groups are nested too deeply."),
        ("[" + " " * 2500 + "]", "The card groups are too long (at most 2000 characters)."),
        ("[[", "The card groups could not be read."),
        ('[["QH", 5]]', "The card groups could not be read."),
        ('{"a": []}', "The card groups could not be read."),
    ],
)
def test_card_groups_refusals_are_told_apart_by_their_code(raw: str, words: str) -> None:
    # The action endpoint refuses any field over 2000 characters before reading it, so the
    # groups' own length check is reached from the form only.
    from tables.web.action_form import ActionForm

    with translation.override("en"):
        form = ActionForm({"action": "arrange", "version": "3", "groups": raw})
        assert not form.is_valid()
        assert form.first_error() == words


def test_an_action_form_reads_each_field_into_its_value() -> None:
    from tables.web.action_form import ActionForm

    form = ActionForm(
        {
            "action": "declare",
            "version": "12",
            "finish_card": "QH",
            "groups": '[["2H", "3H", "4H"], [], ["JK1"]]',
            "on": "true",
            "cards": "6H  7H",
            "group": "2",
            "meld_id": "4",
        }
    )
    assert form.is_valid(), form.errors
    values = form.cleaned_data
    assert values["version"] == 12 and values["finish_card"] == "QH"
    assert values["groups"] == [["2H", "3H", "4H"], ["JK1"]]
    assert values["on"] == "true" and values["cards"] == ["6H", "7H"]
    assert (values["group"], values["meld_id"], values["index"]) == (2, 4, None)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"version": ""}, "Missing or malformed game version."),
        ({"version": "١٢"}, "Missing or malformed game version."),
        ({"version": "3", "on": "maybe"}, "Auto drop must be on or off."),
        ({"version": "3", "card": "QHQHQHQHQ"}, "That is not a card."),
        ({"version": "3", "index": "1e3"}, "That card is not in your hand."),
        ({"version": "3", "meld_id": "x"}, "Unknown meld."),
    ],
)
def test_an_action_form_refuses_each_bad_field_in_words(fields: dict[str, str], words: str) -> None:
    from tables.web.action_form import ActionForm

    with translation.override("en"):
        form = ActionForm({"action": "discard", **fields})
        assert not form.is_valid()
        assert form.first_error() == words


def test_a_card_in_a_refusal_reads_as_a_card_in_hindi(game: Any) -> None:
    """Discarding a card the player does not hold (after picking): the engine's NOT_HELD with
    the card in its params, in Hindi with the card's face."""
    user = game.users[1]
    user.language = "hi"
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    url = reverse("table_act", args=[game.table.pk])
    picked = client.post(
        url, {"action": "pick_closed", "version": str(game.game().version)}, HTTP_HX_REQUEST="true"
    )
    assert picked.status_code in (200, 204)
    held = set(game.view(1)["hand"]["cards"])
    card = next(code for code in ("QH", "KH", "QS", "KS", "JD") if code not in held)
    response = client.post(
        url,
        {"action": "discard", "version": str(game.game().version), "card": card},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    face = {"QH": "Q♥", "KH": "K♥", "QS": "Q♠", "KS": "K♠", "JD": "J♦"}[card]
    assert f"आपके पास {face} नहीं है।" in response.content.decode()
