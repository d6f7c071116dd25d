"""The throw-away Django of the in-process benchmarks (bench_push.py, bench_socket.py): SQLite
in memory and the in-memory channel layer, whatever the environment names."""

from __future__ import annotations

import atexit
import os


def django_in_memory(database_url: str = "") -> None:
    """Set Django up on the embedded defaults (no ``DATABASE_URL``, no ``REDIS_URL``) and create
    its test database, the requests coming from Django's test client (``testserver``). With
    ``database_url`` (``postgres://...``), that server's ``test_<name>`` database instead,
    dropped when the process ends."""
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    # (No ``setup_test_environment``: it instruments every template render for the tests.)
    settings.ALLOWED_HOSTS = ["testserver"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    if database_url:
        name = str(connection.settings_dict["NAME"])

        def drop() -> None:
            """Drop it, though a thread of the benchmark may still hold a connection to it."""
            import psycopg

            server = {k: v for k, v in connection.get_connection_params().items() if k != "pool"}
            server.update(dbname="postgres", autocommit=True)
            with psycopg.connect(**server) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        atexit.register(drop)
