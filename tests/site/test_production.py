"""Production settings: HTTPS only (redirect, HSTS), a Content-Security-Policy, a long secret
key, and ``manage.py check --deploy`` without a single warning."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _production_env(**overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "DJANGO_DEBUG"))}
    env.update(
        DJANGO_SETTINGS_MODULE="rummy_site.settings",
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="rummy.example",
        CSRF_TRUSTED_ORIGINS="https://rummy.example",
        STRIPE_SECRET_KEY="sk_test_" + "x" * 24,
        STRIPE_WEBHOOK_SECRET="whsec_" + "y" * 32,
    )
    for name in ("PAYMENTS_PROVIDER", "PAYMENTS_SANDBOX_SECRET", "TRUSTED_PROXY_COUNT"):
        env.pop(name, None)
    # An empty SQLite file is enough for the health check these tests ask for.
    env.pop("DATABASE_URL", None)
    env["SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "production-check.sqlite3")
    env.update(overrides)
    return env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


def test_check_deploy_passes_without_any_warning():
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], _production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_the_sandbox_provider_at_start_up():
    """Issue 21, point 9: the sandbox hands out money on a button press."""
    result = _run(["manage.py", "check"], _production_env(PAYMENTS_PROVIDER="sandbox"))
    assert result.returncode != 0
    assert "PAYMENTS_PROVIDER=sandbox is refused when DJANGO_ENV=production" in result.stderr
    # The default there is Stripe, which needs its keys.
    keyless = _production_env()
    del keyless["STRIPE_WEBHOOK_SECRET"]
    missing = _run(["manage.py", "check"], keyless)
    assert missing.returncode != 0 and "STRIPE_WEBHOOK_SECRET" in missing.stderr


_SANDBOX_SECRET = """
import django
django.setup()
from django.conf import settings
print(settings.PAYMENTS_SANDBOX_SECRET)
"""


def test_outside_production_the_sandbox_secret_is_no_public_default():
    env = {
        k: v for k, v in os.environ.items() if k not in ("DJANGO_ENV", "PAYMENTS_SANDBOX_SECRET")
    }
    env["DJANGO_SETTINGS_MODULE"] = "rummy_site.settings"
    first = _run(["-c", _SANDBOX_SECRET], env).stdout.strip()
    second = _run(["-c", _SANDBOX_SECRET], env).stdout.strip()
    assert len(first) >= 40 and first != second
    assert first != "sandbox-development-secret"
    env["PAYMENTS_SANDBOX_SECRET"] = "an-operator-chosen-secret"
    assert _run(["-c", _SANDBOX_SECRET], env).stdout.strip() == "an-operator-chosen-secret"


def test_trusted_proxy_count_needs_the_proxies_addresses():
    result = _run(["manage.py", "check"], _production_env(TRUSTED_PROXY_COUNT="1"))
    assert result.returncode != 0 and "TRUSTED_PROXIES" in result.stderr
    ok = _run(
        ["manage.py", "check"], _production_env(TRUSTED_PROXY_COUNT="1", TRUSTED_PROXIES="10.0.0.5")
    )
    assert ok.returncode == 0, ok.stderr


def test_production_refuses_a_short_secret_key():
    result = _run(["manage.py", "check"], _production_env(SECRET_KEY="short"))
    assert result.returncode != 0
    assert "SECRET_KEY must be at least 50" in result.stderr
    weak = _run(["manage.py", "check"], _production_env(SECRET_KEY="ab" * 30))
    assert weak.returncode != 0


_REQUESTS = """
import json, django
django.setup()
from django.test import Client
c = Client(HTTP_HOST="rummy.example")
plain = c.get("/healthz")
secure = c.get("/healthz", secure=True)
proxied = c.get("/healthz", HTTP_X_FORWARDED_PROTO="https")
print(json.dumps({
    "plain": [plain.status_code, plain.get("Location", "")],
    "hsts": secure.get("Strict-Transport-Security", ""),
    "csp": secure.get("Content-Security-Policy", ""),
    "proxied": proxied.status_code,
}))
"""


def _requests(env: dict[str, str]) -> dict[str, object]:
    result = _run(["-c", _REQUESTS], env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_redirects_to_https_and_sends_hsts_and_csp():
    seen = _requests(_production_env())
    assert seen["plain"] == [301, "https://rummy.example/healthz"]
    assert "max-age=31536000" in seen["hsts"]
    assert "includeSubDomains" in seen["hsts"]
    csp = seen["csp"]
    assert "default-src 'self'" in csp
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert "connect-src 'self' wss://rummy.example:*" in csp
    # Without a configured proxy header, a forged X-Forwarded-Proto is not believed.
    assert seen["proxied"] == 301


def test_behind_a_tls_proxy_the_configured_header_counts_as_https():
    seen = _requests(_production_env(SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto"))
    assert seen["proxied"] == 200
