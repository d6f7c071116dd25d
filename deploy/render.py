#!/usr/bin/env python3
"""Renders deploy/*.template into a run directory for this machine's ports and paths.

    RUN_DIR=.deploy PROXY_PORT=8080 WEB_PORTS="8001 8002" DATABASE_URL=postgres://... \
        python3 deploy/render.py

Writes RUN_DIR/nginx.conf, RUN_DIR/pgbouncer.ini and RUN_DIR/pgbouncer/users.txt, and prints
the PgBouncer database URL the web processes and workers use. Standard library only.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from urllib.parse import urlparse, urlunparse

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Only braced upper-case names are filled in: nginx's own $variables stay as they are.
PLACEHOLDER = re.compile(r"\$\{([A-Z_]+)\}")


def env(name: str, default: str) -> str:
    return os.environ.get(name) or default


def pgbouncer_url(database_url: str, host: str, port: str) -> str:
    """The same database and user, through PgBouncer."""
    url = urlparse(database_url)
    auth = url.netloc.rpartition("@")[0]
    netloc = f"{auth}@{host}:{port}" if auth else f"{host}:{port}"
    return urlunparse(url._replace(netloc=netloc))


def values() -> dict[str, str]:
    run_dir = Path(env("RUN_DIR", str(ROOT / ".deploy"))).resolve()
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")):
        database_url = "postgres://postgres@127.0.0.1:5432/rummy"  # for nginx.conf alone
    pg = urlparse(database_url)
    web_ports = env("WEB_PORTS", "8001 8002").split()
    web_host = env("WEB_HOST", "127.0.0.1")
    servers = "\n".join(
        f"        server {web_host}:{port} max_fails=3 fail_timeout=2s;" for port in web_ports
    )
    # As root, nginx's workers run as an unprivileged user (the master keeps root only to bind).
    # NGINX_USER overrides it (the tests serve files from a directory only root may read).
    user = env("NGINX_USER", "nobody nogroup")
    user_line = f"user {user};" if os.geteuid() == 0 else ""
    return {
        "RUN_DIR": str(run_dir),
        "USER_LINE": user_line,
        "LISTEN_ADDR": env("LISTEN_ADDR", "127.0.0.1"),
        "PROXY_PORT": env("PROXY_PORT", "8080"),
        "UPSTREAM_SERVERS": servers,
        "STATIC_ROOT": str(Path(env("STATIC_ROOT", str(ROOT / "staticfiles"))).resolve()),
        # Hashed names (DJANGO_ENV=production) never change: cache them for good.
        "STATIC_EXPIRES": "max" if env("DJANGO_ENV", "") == "production" else "10m",
        "PG_HOST": pg.hostname or "127.0.0.1",
        "PG_PORT": str(pg.port or 5432),
        "PG_USER": pg.username or "postgres",
        "PGBOUNCER_ADDR": env("PGBOUNCER_ADDR", "127.0.0.1"),
        "PGBOUNCER_PORT": env("PGBOUNCER_PORT", "6432"),
        "PGBOUNCER_POOL_SIZE": env("PGBOUNCER_POOL_SIZE", "20"),
        "PGBOUNCER_AUTH_TYPE": env("PGBOUNCER_AUTH_TYPE", "trust"),
        "PG_PASSWORD": pg.password or "",
        # Sent by nginx with every request (deploy/up makes one per run).
        "PROXY_SECRET": env("TRUSTED_PROXY_SECRET", ""),
    }


def _system_user() -> tuple[int, int]:
    import pwd

    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return entry.pw_uid, entry.pw_gid
    raise SystemExit("render: no postgres or nobody user to run PgBouncer as")


def pgbouncer_user() -> str:
    """The system user PgBouncer runs as when started by root."""
    import pwd

    return pwd.getpwuid(_system_user()[0]).pw_name


def render(only: str = "") -> dict[str, str]:
    v = values()
    run_dir = Path(v["RUN_DIR"])
    for sub in ("logs", "pids", "nginx-tmp", "metrics", "pgbouncer"):
        (run_dir / sub).mkdir(parents=True, exist_ok=True)
    written = {}
    for name in ("nginx.conf", "pgbouncer.ini"):
        if only and only != name:
            continue
        template = (HERE / f"{name}.template").read_text()
        text = PLACEHOLDER.sub(lambda m: v[m.group(1)], template)
        (run_dir / name).write_text(text)
        (run_dir / name).chmod(0o600)  # nginx.conf holds the proxy's secret
        written[name] = str(run_dir / name)
    users = run_dir / "pgbouncer" / "users.txt"
    users.write_text(f'"{v["PG_USER"]}" "{v["PG_PASSWORD"]}"\n')
    users.chmod(0o600)
    if os.geteuid() == 0:  # PgBouncer refuses to run as root: it runs as postgres (or nobody)
        owner = _system_user()
        for path in (run_dir / "pgbouncer", users):
            os.chown(path, owner[0], owner[1])
    return written


def main() -> None:
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    if only != "nginx.conf" and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("render: DATABASE_URL must be a PostgreSQL URL (postgres://...)")
    render(only)
    v = values()
    if only != "nginx.conf":
        print(pgbouncer_url(os.environ["DATABASE_URL"], v["PGBOUNCER_ADDR"], v["PGBOUNCER_PORT"]))


if __name__ == "__main__":
    main()
