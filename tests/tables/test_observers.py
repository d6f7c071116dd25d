"""The one observer mechanism (Django signals): a subscriber connected twice hears once, a
failing one is logged and the others still hear; a guard's refusal stops a join."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tables import events
from tables.models import Table
from tables.services import hooks
from tables.services.errors import ActionNotAllowed, TableRefusal

heard: list[Any] = []


def _hears(moved: Any) -> None:
    heard.append(moved)


def _fails(moved: Any) -> None:
    raise RuntimeError("a broken observer")


def _guard(table: Table, action: str) -> TableRefusal | None:
    return TableRefusal.TOURNAMENT_TABLE if action == "join" and table.pk == -7 else None


def test_observers_hear_once_and_a_failing_one_stops_nobody(
    caplog: pytest.LogCaptureFixture,
) -> None:
    heard.clear()
    events.table_moved_subscribe(_fails)
    events.table_moved_subscribe(_hears)
    events.table_moved_subscribe(_hears)  # once, however often
    try:
        moved = SimpleNamespace(table=SimpleNamespace(pk=1), game=SimpleNamespace(version=3))
        events.table_moved_publish(moved)  # type: ignore[arg-type]
        assert heard == [moved]
        assert "a broken observer" in caplog.text or "failed for table 1 v3" in caplog.text
    finally:
        for fn in (_fails, _hears):
            events.table_moved.disconnect(dispatch_uid=f"{fn.__module__}.{fn.__qualname__}")


@pytest.mark.django_db
def test_a_guard_on_the_signal_refuses_in_words() -> None:
    hooks.table_guard_register(_guard)
    try:
        with pytest.raises(ActionNotAllowed):
            hooks.table_guard_check(Table(pk=-7), "join")
        hooks.table_guard_check(Table(pk=-7), "leave")  # no refusal: nothing raised
    finally:
        hooks.table_guard_signal.disconnect(dispatch_uid=f"{__name__}._guard")
