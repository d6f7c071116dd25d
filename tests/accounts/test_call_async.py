"""``call_async``: the channel layer's sends made by synchronous code (a service's push) are
delivered whether or not the calling thread already runs an event loop."""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from accounts.live import call_async


async def _thread_of_the_call() -> int:
    return threading.get_ident()


def test_from_plain_synchronous_code_the_call_runs_and_answers() -> None:
    assert isinstance(call_async(_thread_of_the_call), int)


def test_in_a_thread_running_an_event_loop_the_call_runs_on_a_thread_of_its_own() -> None:
    async def driver() -> tuple[int, int]:
        # Synchronous code called from the loop, as Playwright's sync API calls a test's.
        return threading.get_ident(), call_async(_thread_of_the_call)

    caller, callee = asyncio.run(driver())
    assert caller != callee


def test_a_group_send_from_a_thread_running_an_event_loop_reaches_the_group() -> None:
    layer = get_channel_layer()
    assert layer is not None

    async def scenario() -> dict[str, object]:
        channel = await layer.new_channel()
        await layer.group_add("call-async-test", channel)
        try:
            call_async(layer.group_send, "call-async-test", {"type": "x.sent", "n": 7})
            return dict(await asyncio.wait_for(layer.receive(channel), timeout=5))
        finally:
            await layer.group_discard("call-async-test", channel)

    assert async_to_sync(scenario)() == {"type": "x.sent", "n": 7}
