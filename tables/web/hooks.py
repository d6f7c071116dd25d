"""Hooks other parts of the product hang on the tables' pages without ``tables.web`` importing
them:

* ``table_page_register(fn)``: ``fn(table)`` returns more context for a table's full page
  (a tournament's table links back to its tournament: ``tournament``); ``table`` is the row
  the page read, its template and tournament place joined (``TABLE_NAME_RELATED``).

Registered once at start-up (``AppConfig.ready()``); registering twice is a no-op.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, cast

from django.dispatch import Signal

if TYPE_CHECKING:
    from tables.models import Table

TablePageContext = Callable[["Table"], Mapping[str, object]]

# A Django signal (the project's one observer mechanism), sent with ``table``; each receiver
# answers the context it adds.
table_page_signal = Signal()


def table_page_register(fn: TablePageContext) -> None:
    def receiver(sender: object, *, table: Table, **kwargs: object) -> Mapping[str, object]:
        return fn(table)

    table_page_signal.connect(
        receiver, weak=False, dispatch_uid=f"{fn.__module__}.{fn.__qualname__}"
    )


def table_page_context(table: Table) -> dict[str, object]:
    """What the registered hooks add to ``table``'s full page."""
    context: dict[str, object] = {}
    for _receiver, more in table_page_signal.send(sender=None, table=table):
        context.update(cast("Mapping[str, object]", more))
    return context
