"""Prometheus metrics (prometheus-client) and the ``/metrics`` endpoint.

Several daphnes and Celery workers run on one host: with ``PROMETHEUS_MULTIPROC_DIR`` set (the
deploy scripts set it, one empty directory per host, wiped at start), every process writes its
samples to files there and any web process's ``/metrics`` answers for all of them, the workers
included (they serve no HTTP). Without it, ``/metrics`` answers for its own process only.

What is counted where:

* moves by action, the push fan-out, pool connections in use: ``game_committed``
  (``tables/signals.py``), in whichever process committed the change;
* move latency: the ``POST /tables/<id>/act`` round trip in the web process
  (``observers.MoveLatencyMiddleware``);
* open sockets per process: ``graceful.GracefulServer``'s socket gauge;
* timers late (deadline -> fired): Celery's ``task_prerun`` of ``game_timeout`` (its ETA is the
  deadline);
* ledger postings: ``transaction_posted`` (``ledger/signals.py``), counted on commit;
* Celery queue depth and deposit / withdrawal states: read when scraped (``StateCollector``).

``/metrics`` is for the monitoring network only: it answers 404 unless the peer address is in
``METRICS_ALLOWED_NETWORKS`` (default loopback) or the user is staff. The proxy refuses the path
from outside altogether (deploy/nginx.conf.template), so Prometheus scrapes the web processes
directly.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterator

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

MOVES = Counter("rummy_moves_total", "Moves recorded, by action", ["action"])
MOVE_LATENCY = Histogram(
    "rummy_move_latency_seconds",
    "POST /tables/<id>/act round trip in the web process, by action and outcome",
    ["action", "outcome"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
PUSH_FANOUT = Histogram(
    "rummy_push_fanout_seconds",
    "Rendering and sending every seat's view and the public view after a commit",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
OPEN_SOCKETS = Gauge(
    "rummy_open_sockets",
    "WebSockets open in this web process",
    multiprocess_mode="liveall",
)
TIMER_LATE = Histogram(
    "rummy_timer_late_seconds",
    "From a game's deadline to its timer task starting, by result",
    ["result"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30),
)
POOL_IN_USE = Gauge(
    "rummy_db_pool_connections_in_use",
    "Database connections of this process's pool handed out (Django's psycopg pool)",
    multiprocess_mode="liveall",
)
POOL_SIZE = Gauge(
    "rummy_db_pool_connections_open",
    "Database connections this process's pool holds open",
    multiprocess_mode="liveall",
)
POSTINGS = Counter(
    "rummy_ledger_postings_total", "Ledger transactions posted, by kind", ["kind", "currency"]
)
ENTRIES = Counter("rummy_ledger_entries_total", "Ledger entries posted")


def pool_sample() -> None:
    """Read this process's connection pool into the pool gauges (PostgreSQL only)."""
    from django.db import connection

    pool = getattr(connection, "pool", None) if settings.DATABASE_IS_POSTGRES else None
    if pool is None:
        return
    stats = pool.get_stats()
    size = int(stats.get("pool_size", 0))
    POOL_SIZE.set(size)
    POOL_IN_USE.set(max(0, size - int(stats.get("pool_available", 0))))


class StateCollector:
    """What is read when scraped: the Celery queue in Redis and the money requests by state."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield from self._celery()
        yield from self._money()

    def _celery(self) -> Iterator[GaugeMetricFamily]:
        if not settings.REDIS_URL:
            return
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
        try:
            queued = client.llen("celery")
            reserved = client.hlen("unacked")  # taken by a worker, ETA timers included
        except redis.RedisError:
            return
        finally:
            client.close()
        depth = GaugeMetricFamily(
            "rummy_celery_queue_depth", "Celery tasks in Redis, by state", labels=["state"]
        )
        depth.add_metric(["queued"], queued)
        depth.add_metric(["reserved"], reserved)
        yield depth

    def _money(self) -> Iterator[GaugeMetricFamily]:
        from django.db.models import Count

        # (app loading: rummy_site.graceful imports this module before Django's apps are ready,
        # and a model module cannot be imported then)
        from ledger.payments.models import Deposit, Withdrawal

        for model, name in ((Deposit, "deposits"), (Withdrawal, "withdrawals")):
            family = GaugeMetricFamily(
                f"rummy_{name}", f"{name.capitalize()} by state", labels=["state"]
            )
            field = model._meta.get_field("status")
            states = {str(value): 0 for value, _label in field.choices or ()}
            for row in model.objects.values("status").annotate(n=Count("id")):
                states[row["status"]] = row["n"]
            for state, n in sorted(states.items()):
                family.add_metric([state], n)
            yield family


def _peer_allowed(request: HttpRequest) -> bool:
    peer = str(request.META.get("REMOTE_ADDR") or "")
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(net) for net in settings.METRICS_ALLOWED_NETWORKS)


def exposition() -> bytes:
    """Every metric of this host (multiprocess) or of this process, and the scraped states."""
    pool_sample()
    if MULTIPROCESS:
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        body = generate_latest(registry)
    else:
        body = generate_latest(REGISTRY)
    states = CollectorRegistry()
    states.register(StateCollector())
    return body + generate_latest(states)


def metrics_view(request: HttpRequest) -> HttpResponse:
    user = getattr(request, "user", None)
    if not (_peer_allowed(request) or (user is not None and user.is_staff)):
        raise Http404
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)
