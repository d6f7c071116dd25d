"""The game's JSON columns written with orjson (``rummy_site/json_field.py``), on the
configured database (PostgreSQL's ``jsonb`` in the PostgreSQL run, SQLite's text otherwise):
what goes in comes back, and the ORM's key lookups still read it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection

from tables.models import Game, Move

pytestmark = pytest.mark.django_db

STATE = {
    "name": "Ünïcødé ♠♥ \u2028 </script>",
    "nested": {"list": [1, -2, 3.5, None, True, False, []], "deep": {"a": {"b": {"c": "d"}}}},
    "big": 2**62,
    "empty": {},
}


def test_a_state_saved_reads_back_the_same(seated: Any) -> None:
    game = seated(2).game()
    game.state = STATE
    game.save(update_fields=["state"])
    assert Game.objects.get(pk=game.pk).state == STATE


def test_keys_that_are_not_strings_are_stored_as_strings_as_json_does(seated: Any) -> None:
    game = seated(2).game()
    game.state = {1: "one", "two": {3: [4]}}
    game.save(update_fields=["state"])
    assert Game.objects.get(pk=game.pk).state == {"1": "one", "two": {"3": [4]}}


def test_an_integer_past_64_bits_is_stored_as_json_stores_it(seated: Any) -> None:
    game = seated(2).game()
    game.state = {"huge": 2**70, "also": [-(2**65)]}
    game.save(update_fields=["state"])
    assert Game.objects.get(pk=game.pk).state == {"huge": 2**70, "also": [-(2**65)]}


def test_key_lookups_and_key_values_read_the_stored_json(seated: Any) -> None:
    game = seated(2).game()
    game.state = STATE
    game.save(update_fields=["state"])
    assert Game.objects.filter(pk=game.pk, state__name=STATE["name"]).exists()
    assert Game.objects.filter(pk=game.pk, state__nested__deep__a__b__c="d").exists()
    assert list(Game.objects.filter(pk=game.pk).values_list("state__big", flat=True)) == [2**62]
    row = Game.objects.filter(pk=game.pk).values("state__nested__list").get()
    assert row == {"state__nested__list": [1, -2, 3.5, None, True, False, []]}


def test_a_null_state_stays_null_and_a_json_null_in_a_list_stays(seated: Any) -> None:
    game = seated(2).game()
    game.state = None
    game.save(update_fields=["state"])
    assert Game.objects.get(pk=game.pk).state is None
    assert Game.objects.filter(pk=game.pk, state__isnull=True).exists()


def test_a_move_logged_keeps_its_payload_and_events(seated: Any) -> None:
    t = seated(2)
    move = Move.objects.filter(game=t.game()).order_by("version").last()
    assert move is not None
    stored = Move.objects.values_list("payload", "events").get(pk=move.pk)
    assert stored == (move.payload, move.events)
    with connection.cursor() as cursor:  # what the column holds is JSON any reader can parse
        cursor.execute("SELECT events FROM tables_move WHERE id = %s", [move.pk])
        (raw,) = cursor.fetchone()
    assert (json.loads(raw) if isinstance(raw, str) else raw) == move.events
