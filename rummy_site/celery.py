"""The Celery application. Tasks only call services (see tables/timers/tasks.py)."""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init
from django.db import close_old_connections, connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")

app = Celery("rummy_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect(weak=False, dispatch_uid="rummy_site.celery.connections_returned")
@task_postrun.connect(weak=False, dispatch_uid="rummy_site.celery.connections_returned")
def connections_returned(task: object = None, **kwargs: object) -> None:
    """Before and after each task, hand this process's database connections back to its pool
    (and drop one left unusable), as Django does around a request: the pool stays open across
    tasks (``CELERY_DB_REUSE_MAX``). Not for a task run in place (``apply``), which runs in
    its caller's transaction."""
    if getattr(getattr(task, "request", None), "is_eager", False):
        return
    close_old_connections()


@worker_init.connect(weak=False, dispatch_uid="rummy_site.celery.connections_closed")
def connections_closed(**kwargs: object) -> None:
    """When a worker starts, close the connections the starting thread holds, as Celery does
    itself without ``CELERY_DB_REUSE_MAX``: a pool process (or, in the solo pool, the worker's
    own start) must not inherit one it would close under the pool's feet."""
    connections.close_all()
