"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by daphne)."""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")

from rummy_site.asgi_handler import get_pooled_asgi_application

# Django's HTTP handler with long-lived request threads (rummy_site/asgi_handler.py).
django_asgi_app = get_pooled_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from rummy_site.routing import websocket_urlpatterns  # noqa: E402
from tables.timers.loop import TimerLoopMiddleware  # noqa: E402

application: ProtocolTypeRouter | TimerLoopMiddleware = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

if settings.TIMERS_BACKEND == "loop":
    # Embedded default: the web process fires the timers itself (see tables/timers/loop.py).
    application = TimerLoopMiddleware(application)

from rummy_site.gc_settle import gc_settle  # noqa: E402

gc_settle()  # last: everything the process loads at start is loaded (rummy_site/gc_settle.py)
