"""Health endpoint for a load balancer: the database, and Redis when it is configured."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def _check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def _check_redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {}
    healthy = True
    for name, check in (("database", _check_database), ("redis", _check_redis)):
        try:
            checks[name] = check()
        except Exception as exc:  # any failure makes the instance unhealthy
            checks[name] = f"error: {exc.__class__.__name__}"
            healthy = False
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks},
        status=200 if healthy else 503,
    )
