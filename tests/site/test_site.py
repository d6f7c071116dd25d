from __future__ import annotations

import ast
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
RANDOM_KEY = secrets.token_urlsafe(50)


def test_rules_engine_never_imports_django():
    offenders = []
    for path in sorted((ROOT / "tables" / "rules").rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top in {"django", "channels", "celery", "ledger", "accounts"} or (
                    name.startswith("tables") and not name.startswith("tables.rules")
                ):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {name}")
    assert offenders == []
    assert list((ROOT / "tables" / "rules").glob("*.py")), "the rules package has modules"


def test_rules_engine_imports_in_a_python_without_django():
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'django' or name.startswith('django.'):\n"
        "            raise ImportError('django is blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import tables.rules\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


@pytest.mark.smoke
@pytest.mark.django_db
def test_health_endpoint_checks_the_database(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"
    expected_redis = "ok" if settings.REDIS_URL else "not configured"
    assert body["checks"]["redis"] == expected_redis


@pytest.mark.django_db
def test_health_endpoint_reports_a_broken_redis(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["checks"]["redis"].startswith("error")


def _settings_in_subprocess(env_overrides: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "ALLOWED_HOSTS"}}
    env.update(env_overrides)
    return _django_in_subprocess("import django; django.setup(); print('started')", env)


def _django_in_subprocess(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh Python in the repository with ``env`` and the site's settings."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "rummy_site.settings"},
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_refuses_to_start_without_secret_key():
    result = _settings_in_subprocess({"DJANGO_ENV": "production", "ALLOWED_HOSTS": "example.com"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_to_start_without_allowed_hosts():
    result = _settings_in_subprocess({"DJANGO_ENV": "production", "SECRET_KEY": RANDOM_KEY})
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set" in result.stderr


def test_production_starts_with_both():
    # Money games need the payment provider's keys (Stripe); chips-only needs none.
    for extra in (
        {"STRIPE_SECRET_KEY": "sk_test_x", "STRIPE_WEBHOOK_SECRET": "whsec_x"},
        {"MONEY_GAMES": "0"},
    ):
        result = _settings_in_subprocess(
            {
                "DJANGO_ENV": "production",
                "SECRET_KEY": RANDOM_KEY,
                "ALLOWED_HOSTS": "example.com",
                **extra,
            }
        )
        assert result.returncode == 0, result.stderr
        assert "started" in result.stdout


def test_database_url_selects_postgres_through_a_bounded_pool():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "d = s.DATABASES['default']; print(d['ENGINE'], d['CONN_MAX_AGE'], "
        "d['OPTIONS']['pool']['max_size'], "
        "s.CHANNEL_LAYERS['default']['BACKEND'], "
        "s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]['max_connections'], "
        "s.CELERY_BROKER_URL, s.TIMERS_BACKEND)"
    )
    env = dict(os.environ)
    env.update(
        DATABASE_URL="postgres://u@db.example:5432/rummy",
        REDIS_URL="redis://cache.example:6379/0",
        DATABASE_POOL_MAX="7",
    )
    result = _django_in_subprocess(code, env)
    assert result.returncode == 0, result.stderr
    engine, max_age, pool_max, layer, max_conn, broker, timers = result.stdout.split()
    assert engine == "rummy_site.backends.postgresql"  # Django's, checking pooled connections
    assert int(max_age) == 0  # no persistent connection outside the pool
    assert int(pool_max) == 7
    assert layer == "rummy_site.channel_layer.CountingPubSubChannelLayer"
    assert int(max_conn) > 0
    assert broker == "redis://cache.example:6379/0"
    assert timers == "celery"


def test_channel_layer_kind_chooses_the_core_layer_and_refuses_an_unknown_kind():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "c = s.CHANNEL_LAYERS['default']; print(c['BACKEND'], c['CONFIG'].get('prefix', '-'))"
    )
    env = dict(os.environ, DATABASE_URL="postgres://u@db.example:5432/rummy")
    seen = {}
    for kind in ("pubsub", "core"):
        env.update(REDIS_URL="redis://cache.example:6379/4", CHANNEL_LAYER_KIND=kind)
        result = _django_in_subprocess(code, env)
        assert result.returncode == 0, result.stderr
        seen[kind] = result.stdout.split()
    assert seen == {
        "pubsub": ["rummy_site.channel_layer.CountingPubSubChannelLayer", "asgi4"],
        "core": ["rummy_site.channel_layer.WaitingRedisChannelLayer", "-"],
    }
    env.update(CHANNEL_LAYER_KIND="lists")
    result = _django_in_subprocess(code, env)
    assert result.returncode != 0
    assert "CHANNEL_LAYER_KIND must be core or pubsub" in result.stderr


def test_embedded_default_uses_sqlite_immediate_and_in_memory_layer():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "d = s.DATABASES['default']; print(d['ENGINE'], d['OPTIONS']['transaction_mode'], "
        "s.CHANNEL_LAYERS['default']['BACKEND'], s.TIMERS_BACKEND)"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    result = _django_in_subprocess(code, env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "ledger.backends.sqlite3",
        "IMMEDIATE",
        "rummy_site.channel_layer.MemoryChannelLayer",
        "loop",
    ]


@pytest.mark.smoke
@pytest.mark.django_db
def test_base_layout_has_header_and_is_responsive(client, player):
    client.force_login(player)
    html = client.get(reverse("lobby")).content.decode()
    assert 'name="viewport"' in html
    assert player.display_name in html
    assert 'href="/wallet/"' in html
    assert "htmx-2.min.js" in html and "hx-ws-2.js" in html


@pytest.mark.smoke
def test_static_front_end_libraries_are_installed():
    from django.contrib.staticfiles import finders

    for name in (
        "django_htmx/htmx-2.min.js",
        "django_htmx/ext/hx-ws-2.js",
        "vendor/sortablejs/Sortable.min.js",
        "css/site.css",
    ):
        assert finders.find(name), f"static file {name} is missing"
