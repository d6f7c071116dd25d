"""Fixtures of the deploy tests: the static files nginx serves, and the environment of a web
process behind it (as deploy/up sets it: the proxy trusted for one hop, with its secret)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.live_server import server_env

SECRET = "proxy-secret-of-the-tests-0123456789abcdef"


@pytest.fixture
def static_root(tmp_path: Path) -> Path:
    root = tmp_path / "static"
    (root / "js").mkdir(parents=True)
    (root / "js" / "probe.js").write_text("// served by nginx\n")
    return root


@pytest.fixture
def web_env() -> dict[str, str]:
    env = server_env(
        TRUSTED_PROXY_COUNT="1",
        TRUSTED_PROXIES="127.0.0.1",
        TRUSTED_PROXY_SECRET=SECRET,
        LOG_FORMAT="json",
    )
    # Each process answers /metrics for itself alone (its own open sockets).
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    return env
