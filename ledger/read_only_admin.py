"""Admin bases for rows that staff read but never add, change or delete there: a model admin
and a tabular inline. They live in the ledger, which imports no other app, so that the tables'
admin uses them too (as it uses ``ledger.append_only``); the accounts app, which may not import
the ledger, keeps its own (``accounts/friends/admin.py``)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

_M = TypeVar("_M", bound=models.Model)
_P = TypeVar("_P", bound=models.Model)


class ReadOnlyAdmin(admin.ModelAdmin[_M]):
    """No adding, changing or deleting: the rows are written elsewhere (services, players)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline[_M, _P]):
    """A parent's rows listed, none added, changed or deleted there."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
