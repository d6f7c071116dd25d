"""Settings, read from the environment through the typed helpers of ``rummy_site.env`` (a bad
value stops the start with ``ImproperlyConfigured`` naming the variable).

With nothing set, the site runs on an embedded default that needs no server: SQLite, the
in-memory channel layer, and timers fired by daphne itself instead of Celery.
``DATABASE_URL`` switches to PostgreSQL (psycopg 3 through a bounded connection pool) and
``REDIS_URL`` to the Redis channel layer and Celery broker. ``DJANGO_ENV=production`` refuses
to start without ``SECRET_KEY`` and ``ALLOWED_HOSTS``.
"""

from __future__ import annotations

import base64
import binascii
import os
import secrets
import tempfile
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from rummy_site.env import env_bool, env_float, env_int, env_list, env_str

# django-stubs types ModelAdmin, ModelForm and friends as generics (`admin.ModelAdmin[Account]`);
# this lets those classes be subscripted at run time too.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


DJANGO_ENV = env_str("DJANGO_ENV", "development")
PRODUCTION = DJANGO_ENV == "production"
# Off unless DJANGO_DEBUG=1, on the embedded default too: Django's debug pages show tracebacks
# and settings. With it off, errors get the site's own pages (templates/400.html ... 500.html).
DEBUG = env_bool("DJANGO_DEBUG", default=False)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DJANGO_DEBUG must be off when DJANGO_ENV=production.")

SECRET_KEY_MIN_LENGTH = 50

if PRODUCTION:
    SECRET_KEY = env_str("SECRET_KEY", "")
    if not SECRET_KEY:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_ENV=production.")
    if len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured(
            f"SECRET_KEY must be at least {SECRET_KEY_MIN_LENGTH} random characters when "
            "DJANGO_ENV=production (python -c 'import secrets; print(secrets.token_urlsafe(50))')"
        )
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DJANGO_ENV=production.")
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    # HTTPS only: plain http is redirected, and browsers are told to use https from then on.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    # Behind a TLS-terminating proxy: the header it sets (and overwrites) to say the client used
    # https, e.g. SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto" (value https unless given as
    # "Header: value"). Unset when daphne itself is reached only over TLS.
    _proxy_header = env_str("SECURE_PROXY_SSL_HEADER", "").strip()
    if _proxy_header:
        _name, _, _value = _proxy_header.partition(":")
        SECURE_PROXY_SSL_HEADER = (
            "HTTP_" + _name.strip().upper().replace("-", "_"),
            _value.strip() or "https",
        )
else:
    SECRET_KEY = env_str("SECRET_KEY", "development-only-secret-key-not-for-production")
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "csp",
    "axes",
    "django_htmx",
    "template_partials",
    "accounts",
    "accounts.friends",
    "ledger",
    "tables",
    "tables.tournaments",
    "tables.ratings",
    "tables.leaderboards",  # leaderboards and seasons (docs/leaderboards.md)
    "accounts.push",  # Web Push and the installable app (docs/push.md)
    "rummy_site",  # the project: demo seeding above the apps (manage.py seed_demo)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A NUL character in the path, the query or a form is a 400 (rummy_site/input_guard.py).
    "rummy_site.input_guard.NulRefusedMiddleware",
    # Times each POST /tables/<id>/act for /metrics (rummy_site/observers.py).
    "rummy_site.observers.MoveLatencyMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the language cookie (set by the switcher), else the browser's
    # Accept-Language; accounts.middleware then prefers a logged-in player's saved choice.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A logged-in player's saved language and time zone (accounts.User.language/time_zone).
    "accounts.middleware.PlayerLocaleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # The rate limits of settings.RATE_LIMITS (django-ratelimit), answered with the 429 page.
    "accounts.throttle.RateLimitMiddleware",
    # Last, as django-axes asks: turns a locked-out log-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]


# Content-Security-Policy (django-csp) on every page: scripts, styles and fonts only from this
# site, no inline script or style, sockets only back to this site (ws:/wss: to the same host;
# 'self' covers it in CSP 3 browsers, the explicit host sources in the others).
def _socket_sources(hosts: list[str]) -> list[str]:
    schemes = ["wss"] if PRODUCTION else ["wss", "ws"]
    patterns = [f"*{h}" if h.startswith(".") else h for h in hosts if h and h != "*"]
    return [f"{scheme}://{pattern}:*" for pattern in patterns for scheme in schemes]


PAYMENTS_PROVIDER_NAME = env_str("PAYMENTS_PROVIDER", "stripe" if PRODUCTION else "sandbox")
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF, *_socket_sources(ALLOWED_HOSTS)],
        "object-src": [NONE],
        "base-uri": [SELF],
        # The deposit form is answered with a redirect to the provider's hosted checkout.
        "form-action": [
            SELF,
            *(["https://checkout.stripe.com"] if PAYMENTS_PROVIDER_NAME == "stripe" else []),
        ],
        "frame-ancestors": [NONE],
        # The service worker (/sw.js) and the web app manifest (docs/push.md).
        "worker-src": [SELF],
        "manifest-src": [SELF],
    }
}

ROOT_URLCONF = "rummy_site.urls"
ASGI_APPLICATION = "rummy_site.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # The partials (``{% partialdef %}``), over the compiled templates kept in memory,
            # over the project's (the live table's with their layout collapsed once:
            # ``rummy_site/template_loader.py``) and the apps'.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "rummy_site.template_loader.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "ledger.context_processors.header_balances",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL", "")
# PostgreSQL connections come from Django's psycopg connection pool, one pool per process, so the
# total is bounded by design: every process (each daphne, each Celery worker child, beat) holds
# at most DATABASE_POOL_MAX connections. Size it so that
#     processes x DATABASE_POOL_MAX <= PostgreSQL max_connections - headroom
# (headroom: superuser_reserved_connections, migrations, psql, monitoring). A request that finds
# the pool busy waits up to DATABASE_POOL_TIMEOUT seconds for a connection instead of opening one
# more. No persistent connection exists outside the pool (CONN_MAX_AGE is 0, as Django requires).
DATABASE_POOL_MIN = env_int("DATABASE_POOL_MIN", 1)
DATABASE_POOL_MAX = env_int("DATABASE_POOL_MAX", 10)
DATABASE_POOL_TIMEOUT = env_float("DATABASE_POOL_TIMEOUT", 30.0)
if DATABASE_POOL_MAX < 1 or not 0 <= DATABASE_POOL_MIN <= DATABASE_POOL_MAX:
    raise ImproperlyConfigured("Need 0 <= DATABASE_POOL_MIN <= DATABASE_POOL_MAX and a max >= 1.")
if DATABASE_URL:
    # The pool hands out a connection the server dropped only after checking it: the backend
    # (rummy_site/backends/postgresql/base.py) looks at the idle connection's socket and makes
    # the round trip of psycopg's check only when the server has sent something unasked (its
    # goodbye), so a healthy connection costs no query and no transaction of its own. Django's
    # own check (CONN_HEALTH_CHECKS) would send an empty query every time.
    _database = dj_database_url.parse(
        DATABASE_URL,
        engine="rummy_site.backends.postgresql",
        conn_max_age=0,
        conn_health_checks=False,
    )
    _database["OPTIONS"] = {
        **_database.get("OPTIONS", {}),
        "pool": {
            "min_size": DATABASE_POOL_MIN,
            "max_size": DATABASE_POOL_MAX,
            "timeout": DATABASE_POOL_TIMEOUT,
        },
    }
    # Behind PgBouncer in transaction mode (DATABASE_PGBOUNCER=1, docs/deploy.md): each
    # transaction may run on another server connection, so nothing may outlive one: no
    # server-side prepared statements, no server-side (named) cursors, no session settings.
    if env_bool("DATABASE_PGBOUNCER", False):
        _database["OPTIONS"]["prepare_threshold"] = None
        _database["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES = {"default": _database}
else:
    DATABASES = {
        "default": {
            # Django's SQLite backend with the ledger's append-only guard for ``flush``.
            "ENGINE": "ledger.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file, not memory, so a live server process in the browser tests can share it.
            "TEST": {
                "NAME": env_str(
                    "SQLITE_TEST_PATH",
                    os.path.join(tempfile.gettempdir(), f"rummy-test-{os.getpid()}.sqlite3"),
                )
            },
        }
    }
DATABASE_IS_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and Celery broker ---------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "")
REDIS_MAX_CONNECTIONS = env_int("REDIS_MAX_CONNECTIONS", 50)
if REDIS_URL:
    # The socket timeout must outlast the core layer's 5 s blocking read, or an idle consumer's
    # read times out and its socket closes.
    # A burst of sockets opening at once takes a connection each for its group joins: the
    # layer's pool per process is larger than the cache's (``REDIS_LAYER_MAX_CONNECTIONS``), and
    # past it a join waits for a free connection (``REDIS_LAYER_POOL_TIMEOUT_S``,
    # rummy_site/channel_layer.py) instead of failing.
    _redis_host = {
        "address": REDIS_URL,
        "max_connections": env_int("REDIS_LAYER_MAX_CONNECTIONS", 500),
        "socket_timeout": 30,
        "socket_connect_timeout": 5,
        "socket_keepalive": True,
        "health_check_interval": 15,
    }
    # "pubsub" (Redis pub/sub, the default) or "core" (sorted sets with expiry): measured side
    # by side on the socket path, pub/sub spent less of daphne's CPU a move and had the lower
    # tail (docs/benchmarks.md, "The channel layers side by side a third time"). A group send is
    # one PUBLISH that Redis hands to each subscribed process at once; nothing waits in Redis,
    # and a process that goes away takes its subscriptions with its connection.
    CHANNEL_LAYER_KIND = env_str("CHANNEL_LAYER_KIND", "pubsub")
    if CHANNEL_LAYER_KIND not in ("core", "pubsub"):
        raise ImproperlyConfigured("CHANNEL_LAYER_KIND must be core or pubsub")
    # The core layer queues a group send once per web process holding members of the group
    # (not once per socket), in that process's receive queue. ``capacity`` bounds that queue
    # and ``expiry`` drops what waited longer: a page whose frame was dropped sees a version
    # gap on the next one and re-fetches, so an old frame is worth nothing after a few
    # seconds. Sized from the load harness's peak backlog (docs/benchmarks.md, "Channel layer
    # sizing").
    if CHANNEL_LAYER_KIND == "pubsub":
        # Redis's pub/sub channels are shared by all its numbered databases: the prefix names
        # the database (two sites on one Redis in two databases do not hear each other).
        _pubsub_prefix = "asgi" + (urlsplit(REDIS_URL).path.strip("/") or "0")
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "rummy_site.channel_layer.CountingPubSubChannelLayer",
                "CONFIG": {"hosts": [_redis_host], "prefix": _pubsub_prefix},
            }
        }
    else:
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "rummy_site.channel_layer.WaitingRedisChannelLayer",
                "CONFIG": {
                    "hosts": [_redis_host],
                    "pool_timeout": env_float("REDIS_LAYER_POOL_TIMEOUT_S", 10.0),
                    "capacity": env_int("CHANNEL_LAYER_CAPACITY", 1500),
                    "expiry": env_int("CHANNEL_LAYER_EXPIRY_S", 10),
                },
            }
        }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "rummy_site.channel_layer.MemoryChannelLayer"}}

# Sessions live in the database: logging in, the lobby and play go on while Redis is down.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# The cache holds short-lived shared facts (which players have a socket open at a table, the
# rate-limit counters). With Redis it degrades to per-process memory while Redis is down
# (rummy_site/cache.py) instead of failing the page; Redis is tried again after a few seconds.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "rummy_site.cache.FallbackRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                # One pool per process (rummy_site/cache.py): a thread past the cap waits for
                # a free connection, up to the timeout, instead of failing.
                "pool_class": "redis.BlockingConnectionPool",
                "max_connections": REDIS_MAX_CONNECTIONS,
                "timeout": env_float("REDIS_POOL_TIMEOUT_S", 5.0),
                "client_name": "rummy-cache",  # as Redis's CLIENT LIST shows the connections
                "socket_connect_timeout": 2,
                "socket_timeout": 2,
                "retry_after_s": env_float("CACHE_RETRY_AFTER_S", 5.0),
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Timers: "celery" schedules a task per deadline and a periodic sweep; "loop" (the embedded
# default, no broker needed) has the web process fire them itself (tables/timers/loop.py;
# ``manage.py run_timers`` is the same loop as a process of its own).
TIMERS_BACKEND = env_str("TIMERS_BACKEND", "celery" if REDIS_URL else "loop")
# Seconds a player's deadline (turn, extra time, meld window, rejoin and split offers) is held
# open for network delay: a move that arrives later is judged after the timeout (RULES.md).
DEADLINE_GRACE_S = env_float("DEADLINE_GRACE_S", 0.5)
# Seconds a player may be without a socket at a table (a reload) before the disconnection
# policy hears of it as a move; the seat's badge turns offline at once.
PRESENCE_GRACE_S = env_float("PRESENCE_GRACE_S", 5.0)
# Moves over the table's socket (docs/table-socket.md): the threads that run them off the event
# loop (each holds a database connection while it runs a move), a socket's allowance of
# messages (on average a second, at once) and the refusals in a row that close it, and how many
# of each game's felt frames a page that missed some may catch up on (they are kept as long as
# the memory of what was pushed, tables/live/sent.py).
SOCKET_MOVE_THREADS = env_int("SOCKET_MOVE_THREADS", 4)
SOCKET_MESSAGES_PER_S = env_float("SOCKET_MESSAGES_PER_S", 10.0)
SOCKET_MESSAGES_BURST = env_float("SOCKET_MESSAGES_BURST", 30.0)
SOCKET_STRIKES_TO_CLOSE = env_int("SOCKET_STRIKES_TO_CLOSE", 100)
LIVE_HISTORY_FRAMES = env_int("LIVE_HISTORY_FRAMES", 64)
# How many games a web process remembers in its own memory what it pushed for (and their felt
# frames), for the tables whose every socket it holds (tables/live/sent.py): their moves over the
# socket then read none of it from the cache, and write it there behind the move, from one
# thread. 0: every push goes through the cache.
LIVE_OWNED_GAMES = env_int("LIVE_OWNED_GAMES", 5000)
# The web process's collector once the app is loaded (rummy_site/gc_settle.py): what loading
# left is frozen and a young collection waits for this many new objects (0: Python's own 700).
GC_GEN0_THRESHOLD = env_int("GC_GEN0_THRESHOLD", 20_000)
# The lobby's counts are pushed at most once this often per process (tables/live/lobby.py).
LOBBY_PUSH_INTERVAL_S = env_float("LOBBY_PUSH_INTERVAL_S", 1.0)
# The most tables one player may sit at at once (Play now and joins by link); one seat per
# template's tables in any case.
SEATS_PER_PLAYER_MAX = env_int("SEATS_PER_PLAYER_MAX", 3)
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"max_connections": REDIS_MAX_CONNECTIONS}
# Celery's Django fixup closes a worker process's database connections around every task and,
# in the prefork pool, its whole connection pool: every timer sweep (four a second) then opened
# two new PostgreSQL connections, about six transactions a sweep. With this set the fixup does
# that only every so many tasks; in between each task hands its connection back to the
# process's pool when it ends, as a request does (``rummy_site/celery.py``).
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000)
# How Celery fires the deadlines: ``sweep`` (default) has beat send one sweep of the indexed
# ``deadline`` column every ``TIMER_SWEEP_S`` seconds, firing every due game; ``eta`` also
# queues one task per change with the deadline as its ETA (10-15 ms of worker CPU a move,
# docs/benchmarks.md "Timers"), with the sweep every 2 s as the safety net.
TIMERS_SCHEDULE = env_str("TIMERS_SCHEDULE", "sweep")
if TIMERS_SCHEDULE not in ("sweep", "eta"):
    raise ImproperlyConfigured("TIMERS_SCHEDULE must be 'sweep' or 'eta'")
TIMER_SWEEP_S = env_float("TIMER_SWEEP_S", 0.25)
_sweep_every = TIMER_SWEEP_S if TIMERS_SCHEDULE == "sweep" else 2.0
CELERY_BEAT_SCHEDULE = {
    "timers-sweep": {
        "task": "tables.tasks.timers_sweep",
        "schedule": _sweep_every,
        # A sweep not taken within a few periods is stale: the next one does its work.
        "options": {"expires": max(1.0, 4 * _sweep_every)},
    },
    "tournaments-sweep": {"task": "tables.tournaments.tasks.tournaments_sweep", "schedule": 5.0},
}

# --- Auth ---------------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First: refuses any log-in (site or admin) while its account/address is locked out.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Log-in throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one account from
# one address, that account is locked for that address for AXES_COOLOFF_MINUTES. A success
# resets the count. Staff unlock in the admin (Axes -> Access attempts: delete the row).
# AXES_LOCKOUT_PARAMETERS: comma-separated, "+" combines, e.g. "username+ip_address,ip_address"
# also locks an address that guesses across many accounts.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_float("AXES_COOLOFF_MINUTES", 15.0))
AXES_LOCKOUT_PARAMETERS = [
    item.split("+") if "+" in item else item
    for item in env_list("AXES_LOCKOUT_PARAMETERS", ["username+ip_address"])
]
# Rate limits (django-ratelimit's core, counters in the cache), per URL name and for the table
# WebSocket ("socket"): the methods counted and the limits (key, rate), key "ip" (the client's
# address, accounts.throttle.client_ip) or "user" (the logged-in player, else the address).
# Rates are "count/period" (s, m, h, d). An exceeded limit answers 429 with a page in words.
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)
RATELIMIT_USE_CACHE = "default"
RATE_LIMITS: dict[str, dict[str, object]] = {
    # Log-in: a per-address throttle over all accounts, beside axes' per (account, address) lock.
    "login": {"methods": ["POST"], "limits": [("ip", "30/10m")]},
    "signup": {"methods": ["POST"], "limits": [("ip", "10/h")]},
    "wallet_deposit": {"methods": ["POST"], "limits": [("user", "10/10m"), ("ip", "30/10m")]},
    "wallet_withdraw": {"methods": ["POST"], "limits": [("user", "10/10m"), ("ip", "30/10m")]},
    "template_play": {"methods": ["POST"], "limits": [("user", "30/m"), ("ip", "120/m")]},
    # Invite codes typed in the lobby: guesses per player and per address.
    "join_by_code": {
        "methods": ["POST"],
        "limits": [("user", "10/10m"), ("ip", "20/10m"), ("user", "30/d")],
    },
    "table_invite": {"methods": ["GET"], "limits": [("ip", "30/10m")]},
    "socket": {"limits": [("user", "60/m"), ("ip", "240/m")]},
}
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.throttle.lockout_response"
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.client_ip"
# How many reverse proxies in front of the app append to X-Forwarded-For (0: use the peer
# address), and their addresses or networks: X-Forwarded-For is read only on a request whose
# peer is one of TRUSTED_PROXIES, so a client talking to the site directly cannot choose its
# address (accounts/throttle.py).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
# The secret the proxy sends (X-Proxy-Secret) with every request: with it set, a forwarded
# address is read only from a request that carries it (accounts.throttle.proxy_vouched), so a
# process on the proxy's host that talks to a daphne directly cannot choose its address.
TRUSTED_PROXY_SECRET = env_str("TRUSTED_PROXY_SECRET", "")
if TRUSTED_PROXY_COUNT > 0 and not TRUSTED_PROXIES:
    raise ImproperlyConfigured(
        "TRUSTED_PROXY_COUNT needs TRUSTED_PROXIES: the addresses of the proxies in front "
        "(e.g. TRUSTED_PROXIES=10.0.0.5 or 10.0.0.0/24)."
    )
AXES_VERBOSE = False
# Who may read /metrics without logging in as staff: peers in these networks (the proxy refuses
# the path from outside, so Prometheus scrapes the web processes directly).
METRICS_ALLOWED_NETWORKS = env_list("METRICS_ALLOWED_NETWORKS", ["127.0.0.1/32", "::1/128"])
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# --- I18N / time --------------------------------------------------------------------------------
# Every player page in English and Hindi (README "Languages"): the catalogues are in locale/
# (the compiled .mo files are committed; tests/site/test_i18n.py checks they match the .po).
# The language follows the browser until a player picks one in the header's switcher, which is
# then saved on the profile. Amounts use Indian digit grouping (1,00,000.00) in both languages
# through the formats modules in rummy_site/formats/ (NUMBER_GROUPING = (3, 2, 0)).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("hi", "हिन्दी")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["rummy_site.formats"]
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
# The time zone a player sees before choosing one on the profile (most players are in India).
PLAYER_TIME_ZONE_DEFAULT = env_str("PLAYER_TIME_ZONE_DEFAULT", "Asia/Kolkata")
USE_I18N = True
USE_TZ = True

# --- Static files: served by the app itself through WhiteNoise ---------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS: list[Path | tuple[str, Path]] = [BASE_DIR / "static"]
# The front-end packages come from npm (package.json, `npm ci`) and are served from node_modules
# under static/vendor/; the system check rummy_site.checks.frontend_packages fails loudly when a
# file a page loads is missing (it would only 404 in the browser).
FRONTEND_PACKAGES_DIR = BASE_DIR / "node_modules"
FRONTEND_FILES = ["sortablejs/Sortable.min.js"]
_SORTABLE_DIR = FRONTEND_PACKAGES_DIR / "sortablejs"
if _SORTABLE_DIR.exists():
    STATICFILES_DIRS.append(("vendor/sortablejs", _SORTABLE_DIR))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not PRODUCTION

# LOG_FORMAT=json: one JSON object a line (python-json-logger); the write path's events
# (logger rummy.events) carry the table, the game and the version as fields.
LOG_FORMAT = env_str("LOG_FORMAT", "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "filters": {"refusals": {"()": "rummy_site.logfilters.RefusalsWithoutTraceback"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            **({"formatter": "json"} if LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        # A 4xx is logged on one line, its traceback left out (rummy_site/logfilters.py).
        "django.request": {"filters": ["refusals"]},
        "django.channels.server": {"level": "WARNING"},
        # The write path's events: in the JSON logs only (a line per committed change).
        "rummy.events": {"level": "INFO" if LOG_FORMAT == "json" else "WARNING"},
    },
}

# --- Money in and out (README, "Money in and out") ---------------------------------------------
# MONEY_GAMES=0 runs the whole site on practice chips: no cash tables in the lobby or in the
# admin's table creation, no cash wallet in the header, and every cash endpoint refuses. On by
# default so the demo shows cash tables; switch it off where online money games are not allowed.
MONEY_GAMES = env_bool("MONEY_GAMES", True)
# Payment providers (name -> class); new deposits use PAYMENTS_PROVIDER. Production refuses
# the sandbox (it hands out money on a button press): set PAYMENTS_PROVIDER=stripe there.
PAYMENTS_PROVIDERS = {
    "sandbox": "ledger.payments.sandbox.SandboxProvider",
    "stripe": "ledger.payments.stripe.StripeProvider",
}
PAYMENTS_PROVIDER = PAYMENTS_PROVIDER_NAME
if PRODUCTION and PAYMENTS_PROVIDER == "sandbox":
    raise ImproperlyConfigured(
        "PAYMENTS_PROVIDER=sandbox is refused when DJANGO_ENV=production: the sandbox credits "
        "deposits nobody paid. Set PAYMENTS_PROVIDER=stripe with STRIPE_SECRET_KEY and "
        "STRIPE_WEBHOOK_SECRET (or MONEY_GAMES=0)."
    )
# The sandbox signs its callbacks with HMAC-SHA256 under this secret. Never a public default:
# unless set, each process makes its own random one (the sandbox signs and checks in the same
# process); in production the sandbox is refused altogether.
PAYMENTS_SANDBOX_SECRET = env_str("PAYMENTS_SANDBOX_SECRET", "") or (
    "" if PRODUCTION else secrets.token_urlsafe(32)
)
PAYMENTS_SANDBOX_DUPLICATE_RATE = env_float("PAYMENTS_SANDBOX_DUPLICATE_RATE", 0.3)
PAYMENTS_SANDBOX_LATE_RATE = env_float("PAYMENTS_SANDBOX_LATE_RATE", 0.3)
PAYMENTS_SANDBOX_DELAY_S = env_float("PAYMENTS_SANDBOX_DELAY_S", 2.0)
PAYMENTS_MAX_DEPOSIT = env_int("PAYMENTS_MAX_DEPOSIT", 10000000)  # paise
# Stripe Checkout (ledger/payments/stripe.py, the official stripe package): the secret API key
# (sk_test_... in test mode), the webhook endpoint's signing secret (whsec_...), and how old a
# signed webhook may be (seconds).
STRIPE_SECRET_KEY = env_str("STRIPE_SECRET_KEY", "")
STRIPE_WEBHOOK_SECRET = env_str("STRIPE_WEBHOOK_SECRET", "")
STRIPE_WEBHOOK_TOLERANCE_S = env_int("STRIPE_WEBHOOK_TOLERANCE_S", 300)
STRIPE_CURRENCY = "inr"
STRIPE_API_BASE = env_str("STRIPE_API_BASE", "")  # unset: Stripe's own API
_stripe_keys = STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET
if PRODUCTION and PAYMENTS_PROVIDER == "stripe" and MONEY_GAMES and not _stripe_keys:
    raise ImproperlyConfigured(
        "PAYMENTS_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET."
    )
# The player's own rules (limits, self-exclusion, identity) as the cashier reads them.
PAYMENTS_PLAYER_POLICY = "accounts.selectors.player_money_policy"

# Issue 22 (the first ten minutes): the practice chips a new player gets at sign-up (until staff
# set another amount in the practice chips policy), how long a deposit checkout stays open
# before it expires, and where players write to support (the contact page).
LEDGER_PRACTICE_WELCOME_AMOUNT = env_int("LEDGER_PRACTICE_WELCOME_AMOUNT", 10000)
PAYMENTS_CHECKOUT_EXPIRY_S = env_int("PAYMENTS_CHECKOUT_EXPIRY_S", 1800)
SUPPORT_EMAIL = env_str("SUPPORT_EMAIL", "support@example.com")
# Called with user=<the new player> inside the sign-up transaction (accounts imports no app).
ACCOUNTS_ON_SIGN_UP = ("ledger.services.practice_chips_welcome_grant",)
# Abandoned checkouts expire (ledger.payments.services.deposits_expire; the loop timer runs it
# too when Celery does not run the timers).
# Ratings (tables/ratings, docs/ratings.md): a rating is provisional ("?") until this many rated
# games; the sweep rates any finished game whose rating task was lost.
RATINGS_PROVISIONAL_GAMES = env_int("RATINGS_PROVISIONAL_GAMES", 10)
CELERY_BEAT_SCHEDULE["ratings-sweep"] = {
    "task": "tables.ratings.tasks.ratings_sweep",
    "schedule": 300.0,
}
CELERY_BEAT_SCHEDULE["deposits-expire"] = {
    "task": "ledger.payments.deposits_expire",
    "schedule": 60.0,
}

# --- Web Push and the installable app (docs/push.md) -------------------------------------------
# The VAPID key pair (``manage.py make_vapid_keys`` prints one): the public key as the browser
# takes it (base64url of the P-256 point), the private key as base64url of its 32 bytes, and the
# contact the push services may write to. Without the keys nothing is sent and the profile page
# says notifications are not set up (the embedded default).
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", f"mailto:{SUPPORT_EMAIL}")
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither.")


def _b64url_length(text: str) -> int:
    try:
        return len(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (binascii.Error, ValueError):
        return -1


if VAPID_PUBLIC_KEY and (
    _b64url_length(VAPID_PUBLIC_KEY) != 65 or _b64url_length(VAPID_PRIVATE_KEY) != 32
):
    raise ImproperlyConfigured(
        "VAPID_PUBLIC_KEY must be base64url of a 65-byte P-256 point and VAPID_PRIVATE_KEY "
        "of a 32-byte key: manage.py make_vapid_keys prints a pair."
    )
# The push services a subscription may name (a host or a parent domain: the server posts to
# it), how long a push service keeps an undelivered notice, and the wait for its answer.
PUSH_ENDPOINT_HOSTS = env_list(
    "PUSH_ENDPOINT_HOSTS",
    [
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        "notify.windows.com",
        "push.apple.com",
    ],
)
PUSH_ENDPOINT_HTTP = env_bool("PUSH_ENDPOINT_HTTP", False) and not PRODUCTION
PUSH_TTL_S = env_int("PUSH_TTL_S", 600)
PUSH_TIMEOUT_S = env_float("PUSH_TIMEOUT_S", 10.0)
PUSH_SUBSCRIPTIONS_PER_USER = env_int("PUSH_SUBSCRIPTIONS_PER_USER", 10)
# A tournament's registered players hear of its start five minutes before (tables/tournaments).
CELERY_BEAT_SCHEDULE["tournament-reminders"] = {
    "task": "tables.tournaments.tasks.tournament_reminders",
    "schedule": 30.0,
}

# --- Leaderboards and seasons (docs/leaderboards.md) --------------------------------------------
# Rated games a player needs on an all-time board by rating (never fewer than the provisional
# games), rated games in the week or season on its board, and how long a board's page is cached.
LEADERBOARD_MIN_GAMES = env_int("LEADERBOARD_MIN_GAMES", 10)
LEADERBOARD_WINDOW_MIN_GAMES = env_int("LEADERBOARD_WINDOW_MIN_GAMES", 5)
LEADERBOARD_CACHE_S = env_int("LEADERBOARD_CACHE_S", 60)
# A board's count, shared by its pages, is cached this long; the sweep counts every board afresh.
LEADERBOARD_COUNT_CACHE_S = env_int("LEADERBOARD_COUNT_CACHE_S", 150)
# Finished tournaments' points missed, seasons ended (rewards paid, the next season opened), and
# the boards' counts: every minute.
CELERY_BEAT_SCHEDULE["leaderboards-sweep"] = {
    "task": "tables.leaderboards.tasks.leaderboards_sweep",
    "schedule": 60.0,
}
