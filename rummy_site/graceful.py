"""daphne with a graceful stop, for rolling restarts behind a proxy.

Run it exactly like daphne (same arguments)::

    .venv/bin/python -m rummy_site.graceful -b 127.0.0.1 -p 8001 rummy_site.asgi:application

On SIGTERM (or SIGINT) the process, before Twisted stops:

1. stops listening, so the proxy's next connection to it is refused and goes to another process
   (nginx passes a refused request on to the next server: ``proxy_next_upstream error``);
2. closes every open WebSocket with code 1012 ("service restart"), spread over
   ``GRACEFUL_CLOSE_SPREAD_S`` (default 5 s): htmx's WebSocket extension
   reconnects on 1012 after a jittered delay of at most a second, through the proxy, so to a
   running process; the consumer tells the page the current version on connecting and the page
   re-fetches its view when it is behind (static/js/table.js), so it catches up with every move
   made meanwhile;
3. lets the HTTP requests in flight finish and the sockets' consumers run their ``disconnect``
   (told 1012, so they can tell a restart from a player leaving), up to ``GRACEFUL_TIMEOUT_S``
   (default 10 s) after the last close, writes to the cache what its owned tables' pushes
   left in its memory (``tables.live.sent``), then lets daphne cancel what is left and exit.

It also counts the process's open WebSockets for ``/metrics`` (``rummy_open_sockets``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any

from daphne.server import Server  # isort: skip  (installs Twisted's asyncio reactor first)
from daphne.cli import CommandLineInterface
from daphne.ws_protocol import WebSocketProtocol
from twisted.internet import defer

from .env import env_float

logger = logging.getLogger(__name__)

# Close code 1012 (RFC 6455 "Service Restart"): the page's WebSocket extension reconnects on it.
RESTART_CLOSE_CODE = 1012


def drain_timeout() -> float:
    return env_float("GRACEFUL_TIMEOUT_S", 10.0)


def close_spread() -> float:
    return env_float("GRACEFUL_CLOSE_SPREAD_S", 5.0)


class SocketCounter:
    """ASGI wrapper: the number of WebSockets this process holds, as a gauge; and once the
    process drains, every socket's ``websocket.disconnect`` carries 1012, whatever the client
    answered to the close, so a consumer can tell "the page is reconnecting elsewhere" from
    "the player went away"."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.draining = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        from .metrics import OPEN_SOCKETS

        async def receive_marked() -> dict[str, Any]:
            message = dict(await receive())
            if self.draining and message.get("type") == "websocket.disconnect":
                message["code"] = RESTART_CLOSE_CODE
            return message

        OPEN_SOCKETS.inc()
        try:
            await self.app(scope, receive_marked, send)
        finally:
            OPEN_SOCKETS.dec()


class GracefulServer(Server):  # type: ignore[misc]  # Daphne ships no types (Server is Any)
    """daphne's server, draining before it stops (see the module's docstring)."""

    def __init__(self, application: Any, *args: Any, **kwargs: Any) -> None:
        self.sockets = SocketCounter(application)
        super().__init__(self.sockets, *args, **kwargs)
        self.ports: list[Any] = []
        self.draining = False

    def listen_success(self, port: Any) -> None:
        self.ports.append(port)
        super().listen_success(port)

    def kill_all_applications(self) -> Any:
        """Twisted's "before shutdown" trigger: drain first, then daphne's own cancel."""
        drained = defer.Deferred.fromFuture(asyncio.ensure_future(self.drain()))
        drained.addErrback(lambda failure: logger.error("drain failed: %s", failure))
        drained.addBoth(lambda _result: Server.kill_all_applications(self))
        return drained

    def busy(self) -> list[Any]:
        """Connections still open or whose application has not finished."""
        busy = []
        for protocol, details in list(self.connections.items()):
            app = details.get("application_instance")
            if "disconnected" not in details or (app is not None and not app.done()):
                busy.append(protocol)
        return busy

    async def drain(self) -> None:
        if self.draining:
            return
        self.draining = self.sockets.draining = True
        started = time.monotonic()
        for port in self.ports:
            port.stopListening()
        sockets = [
            protocol
            for protocol in list(self.connections)
            if isinstance(protocol, WebSocketProtocol) and protocol.state == protocol.STATE_OPEN
        ]
        # Spread over GRACEFUL_CLOSE_SPREAD_S (default 5 s), so the pages' reconnects (each also
        # jittered by up to a second) reach the other processes as a stream, not all at once.
        spread = close_spread() / max(1, len(sockets))
        for protocol in sockets:
            if protocol.state == protocol.STATE_OPEN:
                # autobahn's sendClose allows only 1000 and 3000-4999 from an application; the
                # frame itself may carry any code RFC 6455 defines for a server.
                protocol.sendCloseFrame(code=RESTART_CLOSE_CODE, isReply=False)
            if spread:
                await asyncio.sleep(spread)
        logger.warning(
            "graceful stop: not listening; %d sockets closed with %d; %d connections in flight",
            len(sockets),
            RESTART_CLOSE_CODE,
            len(self.busy()),
        )
        deadline = time.monotonic() + drain_timeout()  # counted from the last close
        while self.busy() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        # What the owned tables' moves left for the cache and not written yet (their pages'
        # next process reads it); the app is loaded by now.
        from tables.live.sent import sent_flush

        await asyncio.to_thread(sent_flush, 2.0)
        left = self.busy()
        logger.warning(
            "graceful stop: drained in %.2f s, %d connections left %s",
            time.monotonic() - started,
            len(left),
            [(type(p).__name__, sorted(self.connections.get(p, {}))) for p in left],
        )
        for protocol in left:  # a socket whose client never answered the close: drop it
            transport = getattr(protocol, "transport", None)
            if transport is not None:
                transport.abortConnection()
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(os.getpid())


class GracefulCommandLineInterface(CommandLineInterface):  # type: ignore[misc]  # Daphne: untyped
    server_class = GracefulServer


if __name__ == "__main__":
    GracefulCommandLineInterface.entrypoint()
