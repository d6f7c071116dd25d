"""Reads of the write path compiled once: the rows every game write locks first (its game with
its table, its seats with their users) are read by the same statement every time, only the key
differs, and building that statement from the queryset (the compiler walking the select-related
models' fields) cost more than running it.

A ``CompiledRead`` is a queryset of one model filtered by one key (``build(key)``): compiled on
its first run on a database (as the ORM compiles it), then run with the key put in the
statement's parameters, its rows converted and turned into model instances with their
select-related rows by the ORM's own steps (the same instances ``list(build(key))`` gives).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, cast
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet
from django.db.models.expressions import Expression

# (Django's own steps from rows to instances with their select-related rows; django-stubs
# declares neither.)
from django.db.models.query import (  # type: ignore[attr-defined]
    RelatedPopulator,
    get_related_populators,
)
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)

# A column's position in the row, its converters (value, expression, connection -> value) and
# its expression.
_Converter = Callable[[object, Expression, BaseDatabaseWrapper], object]
_Converters = tuple[int, list[_Converter], Expression]
# What stands for the key in the compiled statement's parameters (never a row's key).
_KEY = -7_349_201_337


@dataclass(frozen=True)
class _Plan:
    """One compiled statement and how its rows become instances."""

    sql: str
    params: tuple[str | int, ...]
    key_at: frozenset[int]  # where the key goes in ``params``
    for_update: bool
    select: tuple[Expression, ...]  # the selected expressions, in column order
    model: type[Model]
    start: int  # the model's own columns: ``row[start:end]``
    end: int
    init_list: tuple[str, ...]
    populators: Sequence[RelatedPopulator]


class CompiledRead(Generic[M]):
    """``build(key)`` compiled once per database, run for any key (``rows``)."""

    def __init__(self, build: Callable[[int], QuerySet[M]]) -> None:
        self._build = build
        self._plans: dict[tuple[str, str], _Plan] = {}
        self._converters: WeakKeyDictionary[BaseDatabaseWrapper, tuple[_Plan, list[_Converters]]]
        self._converters = WeakKeyDictionary()
        self._lock = threading.Lock()

    def _plan(self, connection: BaseDatabaseWrapper) -> _Plan:
        key = (connection.alias, connection.vendor)
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        queryset = self._build(_KEY)
        compiler = queryset.query.get_compiler(using=connection.alias)
        sql, params = compiler.as_sql()
        key_at = frozenset(i for i, value in enumerate(params) if value == _KEY)
        info = compiler.klass_info
        if not key_at or info is None or compiler.annotation_col_map:
            raise ValueError("a compiled read takes model rows filtered by one key")
        select = tuple(column[0] for column in compiler.select[: compiler.col_count])
        fields = info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        plan = _Plan(
            sql=sql,
            params=tuple(params),
            key_at=key_at,
            for_update=queryset.query.select_for_update,
            select=select,
            model=info["model"],
            start=start,
            end=end,
            init_list=tuple(column[0].target.attname for column in compiler.select[start:end]),
            populators=get_related_populators(info, compiler.select, connection.alias),
        )
        with self._lock:
            return self._plans.setdefault(key, plan)

    def _converters_of(self, plan: _Plan, connection: BaseDatabaseWrapper) -> list[_Converters]:
        """What turns the columns' database values into the fields' values on ``connection`` (a
        thread's connection, kept as long as the thread), worked out once per connection."""
        with self._lock:
            found = self._converters.get(connection)
        if found is not None and found[0] is plan:
            return found[1]
        converters: list[_Converters] = []
        for position, expression in enumerate(plan.select):
            convs = [
                *connection.ops.get_db_converters(expression),
                *expression.get_db_converters(connection),
            ]
            if convs:
                converters.append((position, convs, expression))
        with self._lock:
            self._converters[connection] = (plan, converters)
        return converters

    def rows(self, key: int, *, using: str = DEFAULT_DB_ALIAS) -> list[M]:
        """The instances ``build(key)`` reads, with their select-related rows."""
        connection = connections[using]
        plan = self._plan(connection)
        locks = plan.for_update and connection.features.has_select_for_update
        if locks and connection.get_autocommit():  # as the ORM refuses it
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = tuple(key if i in plan.key_at else v for i, v in enumerate(plan.params))
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            fetched = cursor.fetchall()
        converters = self._converters_of(plan, connection)
        instances: list[M] = []
        for fetched_row in fetched:
            row: list[object] = list(fetched_row)
            for position, convs, expression in converters:
                value = row[position]
                for convert in convs:
                    value = convert(value, expression, connection)
                row[position] = value
            instance = plan.model.from_db(using, plan.init_list, row[plan.start : plan.end])
            for populator in plan.populators:
                populator.populate(row, instance)
            instances.append(cast(M, instance))
        return instances
