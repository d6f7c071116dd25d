"""Hooks other parts of the product hang on the tables' pages without ``tables.web`` importing
them:

* ``table_page_register(fn)``: ``fn(table_id)`` returns more context for a table's full page
  (a tournament's table links back to its tournament: ``tournament``).

Registered once at start-up (``AppConfig.ready()``); registering twice is a no-op.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

TablePageContext = Callable[[int], Mapping[str, Any]]

_TABLE_PAGE: list[TablePageContext] = []


def table_page_register(fn: TablePageContext) -> None:
    if fn not in _TABLE_PAGE:
        _TABLE_PAGE.append(fn)


def table_page_context(table_id: int) -> dict[str, Any]:
    """What the registered hooks add to table ``table_id``'s full page."""
    context: dict[str, Any] = {}
    for fn in list(_TABLE_PAGE):
        context.update(fn(table_id))
    return context
