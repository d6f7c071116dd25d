"""A ``JSONField`` written with orjson.

A game's state is written back on every move; the standard library's ``json`` took about 2 % of
a web process's CPU under load encoding it (orjson: a tenth of that). The column, its type and
what it holds are those of Django's ``JSONField``; only the encoder differs (orjson writes no
spaces between items, and turns non-string keys into strings as ``json`` does).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg.types.json import Jsonb


def json_dumps(value: object) -> bytes:
    """``value`` as JSON, UTF-8 (not ASCII-escaped); keys that are not strings as strings.
    What orjson refuses that ``json`` takes (an integer past 64 bits) goes through ``json``."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


class OrjsonField(models.JSONField[Any, Any]):
    """Django's ``JSONField`` written with orjson's encoder (read as Django reads it: orjson
    would read an integer past 64 bits as a float)."""

    def get_db_prep_value(
        self, value: Any, connection: BaseDatabaseWrapper, prepared: bool = False
    ) -> object:
        if not prepared:
            value = self.get_prep_value(value)
        if connection.vendor == "postgresql":
            return Jsonb(value, dumps=json_dumps)
        return json_dumps(value).decode()
