"""A tiny ASGI app for the graceful-stop test: ``/slow`` answers after SLOW_S seconds, every
WebSocket is accepted and held open until the server closes it; the code each socket's
``websocket.disconnect`` carries is appended to the file ``SLOW_APP_CODES`` names."""

from __future__ import annotations

import asyncio
import os
from typing import Any

SLOW_S = 1.5


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http":
        await receive()
        if scope["path"] == "/slow":
            await asyncio.sleep(SLOW_S)
        body = b"done"
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})
    elif scope["type"] == "websocket":
        message = await receive()
        assert message["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "hello"})
        while (message := await receive())["type"] != "websocket.disconnect":
            pass
        with open(os.environ["SLOW_APP_CODES"], "a") as codes:
            codes.write(f"{message.get('code')}\n")
