"""The embedded default's timer loop runs the sweeps other parts register on its tick: each
once per tick, a failing one logged without stopping the others, a name registered twice kept
once."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync

from tables.timers import loop


@pytest.fixture
def sweeps():
    names: list[str] = []

    def register(name: str, sweep) -> None:
        names.append(name)
        loop.loop_sweep_register(name, sweep)

    yield register
    for name in names:
        loop.loop_tick_signal.disconnect(dispatch_uid=name)


def _ticks(count: int, heard: list[str]) -> None:
    """Run the loop until the last sweep has been heard ``count`` times (at most 10 s: a loaded
    machine may take a while over its first tick)."""

    async def run() -> None:
        task = asyncio.create_task(loop.timer_loop(interval=0.01))
        deadline = asyncio.get_running_loop().time() + 10
        while heard.count("last") < count and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        task.cancel()

    async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_registered_sweeps_run_on_the_tick_and_a_failing_one_stops_none(sweeps, caplog):
    heard: list[str] = []

    def fails() -> None:
        raise RuntimeError("a broken sweep")

    sweeps("test-first", lambda: heard.append("first"))
    sweeps("test-first", lambda: heard.append("second"))  # the same name: the first kept
    sweeps("test-fails", fails)
    sweeps("test-last", lambda: heard.append("last"))
    _ticks(3, heard)
    assert heard and "second" not in heard
    assert heard[:2] == ["first", "last"]  # in the order registered, the failure in between
    # Every tick, not once (the last tick may be cut between the two by the loop's end).
    assert heard.count("last") >= 2 and heard.count("first") - heard.count("last") in (0, 1)
    assert "a broken sweep" in caplog.text
