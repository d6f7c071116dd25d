"""Bad input never reaches a 500: every POST endpoint of the site and every staff money form
gets a list of hostile values (nested or oversized JSON, huge, non-finite or non-ASCII numbers,
NUL characters, overlong fields) and answers with a refusal that changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from ledger.models import Account, AccountKind, Transaction
from tables.models import Game, Move, Table, TableTemplate

NESTED = "[" * 100_000 + "]" * 100_000
HOSTILE_TEXT = [
    "a\x00b",
    "x" * 10_000,
    "y" * 300_000,  # over the request body limit
    NESTED,
    "[" * 5000,
]
HOSTILE_NUMBERS = [
    *HOSTILE_TEXT,
    "1e999999",
    "-1e999999",
    "1e-999999",
    "NaN",
    "Infinity",
    "-Infinity",
    "١٢٣",  # Arabic-Indic digits
    "\uff11\uff12\uff13",  # full-width digits
    "9" * 5000,
    "99999999999999999999999",
    "0x10",
    "1_000",
    '{"a": 1}',
    "",
]
HOSTILE_JSON = [*HOSTILE_NUMBERS, '[["AS", 1]]', '{"groups": []}', "[[[[[]]]]]", "null"]


def _snapshot() -> dict[str, Any]:
    """Everything a refused request must leave as it was."""
    users = get_user_model().objects.order_by("pk")
    return {
        "games": list(Game.objects.order_by("pk").values_list("pk", "version", "status", "state")),
        "moves": Move.objects.count(),
        "transactions": Transaction.objects.count(),
        "balances": list(Account.objects.order_by("pk").values_list("pk", "balance")),
        "users": list(users.values_list("pk", "username", "display_name", "password")),
        "templates": list(TableTemplate.objects.order_by("pk").values()),
        "tables": list(Table.objects.order_by("pk").values_list("pk", "name", "status")),
    }


@pytest.fixture
def game(seated, toss):
    toss(1)
    return seated(2)


def _player_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_action_endpoint_refuses_every_hostile_value_with_400(game):
    client = _player_client(game.users[1])
    url = reverse("table_act", args=[game.table.pk])
    version = str(game.game().version)
    forms = [
        lambda v: {"action": v, "version": version},
        lambda v: {"action": "pick_closed", "version": v},
        lambda v: {"action": "discard", "version": version, "card": v},
        lambda v: {"action": "declare", "version": version, "finish_card": "AS", "groups": v},
        lambda v: {"action": "arrange", "version": version, "groups": v},
        lambda v: {"action": "set_auto_drop", "version": version, "on": v},
        lambda v: {"action": "lay_off", "version": version, "cards": "AS", "meld_id": v},
    ]
    # A field nobody reads is harmless, unless it is overlong.
    overlong = [v for v in HOSTILE_JSON if len(v) > 2000]
    forms += [lambda v: {"action": "pick_closed", "version": version, "note": v}]
    before = _snapshot()
    for i, make in enumerate(forms):
        for value in overlong if i == len(forms) - 1 else HOSTILE_JSON:
            data = make(value)
            response = client.post(url, data, HTTP_HX_REQUEST="true")
            assert response.status_code == 400, (data.get("action", "")[:20], value[:20])
            # An oversized body, or one with a NUL character (rummy_site/input_guard.py), gets
            # the site's 400 page instead of the player's parts with the reason.
            if len(value) < 250_000 and "\x00" not in value:
                assert 'id="action-error"' in response.content.decode()
            plain = client.post(url, data)
            assert plain.status_code in (302, 400), (data.get("action", "")[:20], value[:20])
    assert _snapshot() == before


def test_a_deeply_nested_arrangement_is_refused_in_words(game):
    client = _player_client(game.users[1])
    response = client.post(
        reverse("table_act", args=[game.table.pk]),
        {"action": "arrange", "version": str(game.game().version), "groups": "[" * 1500},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert "The card groups are nested too deeply." in response.content.decode()


def test_player_forms_refuse_hostile_values(game, password, settings):
    settings.RATELIMIT_ENABLE = False  # dozens of posts from one address: the forms, not the limits
    user = game.users[2]
    table_pk = game.table.pk
    cases: list[tuple[str, dict[str, str], str, list[str]]] = [
        ("signup", {"username": "newcomer", "password1": "tiles-42-x", "password2": "tiles-42-x"},
         "username", HOSTILE_TEXT),
        ("signup", {"username": "newcomer", "password1": "tiles-42-x", "password2": "tiles-42-x"},
         "password1", HOSTILE_TEXT),
        ("signup", {"username": "newcomer", "password1": "tiles-42-x", "password2": "tiles-42-x"},
         "display_name", HOSTILE_TEXT),
        ("signup", {"username": "newcomer", "password1": "tiles-42-x", "password2": "tiles-42-x"},
         "email", HOSTILE_TEXT),
        ("login", {"username": user.username, "password": "wrong-password"}, "username",
         HOSTILE_TEXT),
        ("login", {"username": user.username, "password": "wrong-password"}, "password",
         HOSTILE_TEXT),
        ("admin:login", {"username": user.username, "password": "wrong-password"}, "username",
         HOSTILE_TEXT),
        ("admin:login", {"username": user.username, "password": "wrong-password"}, "password",
         HOSTILE_TEXT),
        ("profile", {"display_name": "Asha"}, "display_name", HOSTILE_TEXT),
        ("password_change",
         {"old_password": password, "new_password1": "new-tiles-42", "new_password2": "x"},
         "new_password1", HOSTILE_TEXT),
        ("password_change",
         {"old_password": "", "new_password1": "new-tiles-42", "new_password2": "new-tiles-42"},
         "old_password", HOSTILE_TEXT),
    ]  # fmt: skip
    no_field = [
        ("wallet_practice_topup", [], "amount"),
        ("table_join", [table_pk], "seat_no"),
        ("table_leave", [table_pk], "reason"),
    ]
    before = _snapshot()
    for name, base, field, values in cases:
        for value in values:
            client = (
                Client() if name in ("signup", "login", "admin:login") else _player_client(user)
            )
            response = client.post(reverse(name), {**base, field: value})
            assert response.status_code < 500, (name, field, value[:20])
            if name == "signup":
                assert response.status_code == 400, (field, value[:20])
    assert _snapshot() == before
    # A top-up, joining and leaving read no field: whatever is posted with them, no 500.
    for name, args, field in no_field:
        for value in HOSTILE_NUMBERS:
            response = _player_client(game.users[1]).post(reverse(name, args=args), {field: value})
            assert response.status_code < 500, (name, value[:20])


def _admin_form_data(client: Client, url: str) -> dict[str, str]:
    """The values of an admin change form as the page would post them back."""
    response = client.get(url)
    assert response.status_code == 200
    form = response.context["adminform"].form
    data: dict[str, str] = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        if name == "extra_settings" and not isinstance(value, str):
            value = json.dumps(value if value is not None else {})
        data[name] = "" if value is None else str(value)
    return data


def test_staff_money_forms_refuse_hostile_values(game, user_factory):
    staff = user_factory(is_staff=True, is_superuser=True)
    client = _player_client(staff)
    wallet = Account.objects.get(user=game.users[1], kind=AccountKind.WALLET, currency="cash")
    adjust = reverse("admin:ledger_account_adjust", args=[wallet.pk])
    tx = Transaction.objects.order_by("pk").first()
    reverse_url = reverse("admin:ledger_transaction_reverse", args=[tx.pk])
    template = game.table.template
    change = reverse("admin:tables_tabletemplate_change", args=[template.pk])
    template_data = _admin_form_data(client, change)
    saved = client.post(change, template_data)
    assert saved.status_code == 302, saved.context["adminform"].form.errors  # a valid base

    before = _snapshot()
    base_adjust = {"amount": "5.00", "reason": "Goodwill", "key": "k1"}
    for value in HOSTILE_NUMBERS:
        response = client.post(adjust, {**base_adjust, "amount": value})
        assert response.status_code == 400, value[:20]
        if len(value) < 250_000 and "\x00" not in value:  # else: the site's 400 page
            assert "errorlist" in response.content.decode()
    for value in HOSTILE_TEXT:
        for field in ("reason", "key"):
            response = client.post(adjust, {**base_adjust, field: value})
            assert response.status_code == 400, (field, value[:20])
        response = client.post(reverse_url, {"reason": value})
        assert response.status_code == 400, value[:20]
    for field in ("entry_fee", "point_value", "platform_fee_bps", "seats_max", "turn_s"):
        for value in HOSTILE_NUMBERS:
            if value == "":
                continue  # empty means "not set" for optional rule fields
            response = client.post(change, {**template_data, field: value})
            assert response.status_code in (200, 400), (field, value[:20])
    for value in HOSTILE_JSON:
        response = client.post(change, {**template_data, "extra_settings": value})
        assert response.status_code in (200, 302, 400), value[:20]
    cancel = client.post(
        reverse("admin:tables_table_changelist"),
        {
            "action": "cancel_live_game",
            "_selected_action": [str(game.table.pk)],
            "confirm": "yes",
            "reason": "\x00" * 10,
        },
    )
    assert cancel.status_code < 500
    after = _snapshot()
    # The rule options may legitimately be saved as another valid JSON object; nothing else.
    for row in (*before["templates"], *after["templates"]):
        row.pop("extra_settings"), row.pop("updated_at")
    assert after == before


def test_huge_amounts_are_refused_with_a_message(game, user_factory):
    client = _player_client(user_factory(is_staff=True, is_superuser=True))
    wallet = Account.objects.get(user=game.users[1], kind=AccountKind.WALLET, currency="cash")
    url = reverse("admin:ledger_account_adjust", args=[wallet.pk])
    for value, words in [
        ("1e999999", "digits 0-9"),
        ("١٢", "digits 0-9"),
        ("999999999999999", "too large"),
    ]:
        response = client.post(url, {"amount": value, "reason": "test", "key": "k2"})
        assert response.status_code == 400
        assert words in response.content.decode()
