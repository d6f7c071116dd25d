"""The throw-away Django of the in-process benchmarks (bench_push.py, bench_socket.py): SQLite
in memory and the in-memory channel layer, whatever the environment names."""

from __future__ import annotations

import os


def django_in_memory() -> None:
    """Set Django up on the embedded defaults (no ``DATABASE_URL``, no ``REDIS_URL``) and create
    its test database, the requests coming from Django's test client (``testserver``)."""
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    # (No ``setup_test_environment``: it instruments every template render for the tests.)
    settings.ALLOWED_HOSTS = ["testserver"]
    connection.creation.create_test_db(verbosity=0, keepdb=False)
