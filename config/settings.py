"""Warboard settings, driven by the environment.

With no environment variables at all this is the **embedded default**: a SQLite file under
``var/``, the in-memory channel layer, and Celery tasks run in-process on a thread pool. Setting
``DATABASE_URL`` switches to PostgreSQL, ``REDIS_URL`` to channels-redis, a Redis Celery broker and
result store, and the Redis cache. ``config.environment`` holds the decisions as testable
functions; this module only applies them. The production variables (the ones
``manage.py check --deploy`` needs) are listed in the README.
"""

from __future__ import annotations

import os
from pathlib import Path

import environ

from config import environment

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
ENV = os.environ

# --- Core -----------------------------------------------------------------------------------
DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env.str("SECRET_KEY", default="") or environment.load_or_create_secret_key(
    environment.var_dir(BASE_DIR, ENV) / "secret_key"
)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",  # first, so `runserver` serves ASGI (websockets) as well
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc as static files: /api/docs/ offline
    "channels",
    "anymail",  # inbound mail webhooks (moves by email)
    "games",
    "combat",
    "risk",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "games.web.web_errors.ErrorIdMiddleware",
    # Last: the first to see a view's exception; a database or Redis outage is a 503, not a 500.
    "config.outages.BackendUnavailableMiddleware",
]
#: The largest request body the server reads (bytes); larger ones get a 413 before they are
#: read (``games.web.web_errors.BodyLimit``). Actions and lobby requests are a few hundred bytes.
MAX_REQUEST_BODY = env.int("MAX_REQUEST_BODY", default=1024 * 1024)

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None  # served by daphne (ASGI) only

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Data stores ----------------------------------------------------------------------------
DATABASES = {"default": environment.database_config(ENV, BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CHANNEL_LAYERS = environment.channel_layers_config(ENV)
CACHES = environment.cache_config(ENV)

# --- Celery (read by config.celery with the CELERY_ namespace) ------------------------------
_celery = environment.celery_config(ENV)
WARBOARD_EMBEDDED_TASKS: bool = _celery["WARBOARD_EMBEDDED_TASKS"]
WARBOARD_EMBEDDED_TASK_THREADS = env.int("WARBOARD_EMBEDDED_TASK_THREADS", default=2)
# Tests of the game server only: tasks run in the caller's thread (config.celery._inline).
WARBOARD_TASKS_INLINE = False
CELERY_BROKER_URL = _celery["CELERY_BROKER_URL"]
CELERY_RESULT_BACKEND = _celery["CELERY_RESULT_BACKEND"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# The server never reads a task's result (the ``games.ping`` probe does, and keeps it): not
# storing them saves Redis a write per task, and, more to the point, queuing a task then does
# not subscribe to its result channel, which with Redis down retried for 19 s and then broke
# the process's result consumer for good ("The Celery application must be restarted").
CELERY_TASK_IGNORE_RESULT = True
# Queuing with the broker down: one quick retry, then the caller logs it and carries on (the
# action is committed; the sweep re-queues what the game waits on). Kombu's default retries
# for about a second per task, several tasks an action.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2,
}  # fmt: skip
CELERY_TASK_ACKS_LATE = True  # a worker that dies mid-task leaves it for another worker
# ... also when the pool child is killed (SIGKILL, out of memory): without this Celery
# acknowledges such a task as failed and nobody runs it again.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A task taken by a worker that vanished goes back to the queue after this long (Redis
# broker); the default hour left a game waiting on a bot for an hour. Longer than any task.
# An unreachable broker (not one refusing at once) fails a publish within 2 s.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300, "socket_connect_timeout": 2}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# The deadline sweep (games.sweep_deadlines): Celery beat runs it this often, and so does the
# embedded server's sweeper thread. It only backs up the per-deadline tasks, so a minute is fine.
DEADLINE_SWEEP_SECONDS = env.int("DEADLINE_SWEEP_SECONDS", default=60)
# A game waiting this long on a bot with no step taken has lost its driver's task (a broker
# outage, a killed worker): the sweep queues it again (games.play.deadlines).
GAME_STALLED_SECONDS = env.int("GAME_STALLED_SECONDS", default=60)
# The pause between two moves of the AI (bots, allied armies, timed-out players) in a game
# that does not choose its own (Game.ai_delay_ms): people can follow the moves as they come.
AI_DELAY_MS = env.int("AI_DELAY_MS", default=600)
# Who may upload maps and publish their own (risk.maps.store.may_make_maps): staff always; with
# this on, every signed-in user too (docs/maps.md).
WARBOARD_USER_MAPS = env.bool("WARBOARD_USER_MAPS", default=False)

# --- Auth, i18n, static ---------------------------------------------------------------------
# Django's auth views (password change) send a visitor who is not signed in to the sign-in page.
LOGIN_URL = "/login"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(
    env.str("STATIC_ROOT", default=str(environment.var_dir(BASE_DIR, ENV) / "static"))
)
# Hashed, compressed names (far-future caching) from the manifest `collectstatic` writes, which
# `make run` and the Docker image always run; plain names under DEBUG (a quick `runserver`).
# The test suite switches to plain names too (tests/conftest.py).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "config.storage.ModuleManifestStaticFilesStorage"
    },
}
# Without collectstatic (tests, a quick `runserver`) whitenoise serves from the app folders.
WHITENOISE_USE_FINDERS = True
WHITENOISE_MANIFEST_STRICT = False

# --- API ------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    # drf-spectacular's, plus the answers every view shares (401, 413, 415, 429; games.web.schema).
    "DEFAULT_SCHEMA_CLASS": "games.web.schema.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: DRF answers 401 with a ``WWW-Authenticate: Token`` challenge only when
        # the first class offers one, so a bad or missing token is a 401, as documented (issue
        # 15); without an Authorization header the session is tried next, as before.
        "rest_framework.authentication.TokenAuthentication",  # scripts and bots
        "rest_framework.authentication.SessionAuthentication",  # the browser (CSRF-checked)
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # One error shape for every 4xx: {"error": code, "message", "field", "allowed", ...}.
    "EXCEPTION_HANDLER": "games.web.exceptions.api_exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "games.web.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Scoped throttles (games.common.throttles): login and registration guess passwords, actions hit
    # the game row lock. Counted in the cache (Redis when REDIS_URL is set, so across processes).
    # Hops of trusted proxies in X-Forwarded-For (the throttles' client address): 0 means the
    # header is ignored (direct clients could forge it); behind the TLS load balancer, 1.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=1 if env.bool("HTTPS", default=False) else 0),
    "DEFAULT_THROTTLE_RATES": {
        "login": env.str("THROTTLE_LOGIN", default="10/min"),
        "register": env.str("THROTTLE_REGISTER", default="10/hour"),
        "actions": env.str("THROTTLE_ACTIONS", default="120/min"),
        "hint": env.str("THROTTLE_HINT", default="30/min"),
        # Correspondence room writes (games.rooms.api): each locks the room's row.
        "rooms": env.str("THROTTLE_ROOMS", default="60/min"),
        # Tournament writes (games.tournaments.api): each locks the tournament's row.
        "tournaments": env.str("THROTTLE_TOURNAMENTS", default="60/min"),
        # Anonymous use of the combat calculators (combat.api.limits), per client address.
        "calculator": env.str("THROTTLE_CALCULATOR", default="60/min"),
        # Anonymous readers of finished games' replays (games.common.throttles), per address.
        "replays": env.str("THROTTLE_REPLAYS", default="30/min"),
    },
}
# The work one calculator request may do (combat.api.limits): states expanded or simulated
# units, wall seconds, and how many calculations one process runs at once.
COMBAT_MAX_STATES = env.int("COMBAT_MAX_STATES", default=20_000_000)
COMBAT_SECONDS = env.float("COMBAT_SECONDS", default=0.8)
COMBAT_CONCURRENCY = env.int("COMBAT_CONCURRENCY", default=2)
# Anonymous /ws/lobby/ sockets open at once per client address, per process
# (games.play.sockets.lobby_consumer).
LOBBY_SOCKETS_PER_ADDRESS = env.int("LOBBY_SOCKETS_PER_ADDRESS", default=20)
# Room battles (games.rooms.battle_work): the most solver work one battle may be
# priced at (seconds of work as combat.battle_notation.price counts it; 500 v 500 infantry is
# 3.5), the price up to which a battle is small (its own lane, never behind a big one), the
# slots of each lane per process, and each player's budget of priced work per window.
ROOM_BATTLE_MAX_SECONDS = env.float("ROOM_BATTLE_MAX_SECONDS", default=2.0)
ROOM_BATTLE_SMALL_SECONDS = env.float("ROOM_BATTLE_SMALL_SECONDS", default=0.25)
ROOM_BATTLE_SMALL_SLOTS = env.int("ROOM_BATTLE_SMALL_SLOTS", default=2)
ROOM_BATTLE_BIG_SLOTS = env.int("ROOM_BATTLE_BIG_SLOTS", default=1)
ROOM_BATTLE_USER_SECONDS = env.float("ROOM_BATTLE_USER_SECONDS", default=20.0)
ROOM_BATTLE_USER_WINDOW = env.int("ROOM_BATTLE_USER_WINDOW", default=600)
# Compile (or load from numba's on-disk cache) the flanking-odds walk at start-up, in the
# background, rather than in the first request that needs it (2-3 s compiled, 0.15 s cached).
COMBAT_WARM_UP = env.bool("COMBAT_WARM_UP", default=True)
# numba's cache sits beside the code unless that is read-only (a container): keep it in the
# var directory, which is always writable.
ENV.setdefault("NUMBA_CACHE_DIR", str(environment.var_dir(BASE_DIR, ENV) / "numba"))
SPECTACULAR_SETTINGS = {
    "TITLE": "Warboard API",
    "DESCRIPTION": "Turn-based war board games: Fast Risk, combat resolver, correspondence play.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "ENUM_NAME_OVERRIDES": {
        "AABattleResultEnum": "combat.axis_allies.reports.RESULTS",
        "AAUnitEnum": "combat.api.serializers.UNIT_NAMES",
        "RatingKindEnum": "games.ratings.board.KINDS",
        "StatusEnum": "games.play.api.game_schema.GAME_STATUSES",
        "SystemEnum": "games.tournaments.api.ROOM_SYSTEMS",
        "TournamentPlayEnum": "games.tournaments.api.PLAYS",
        "TournamentStatusEnum": "games.tournaments.api.STATUSES",
        "EntrantStatusEnum": "games.tournaments.api.ENTRANT_STATUSES",
        "NotificationChannelEnum": "games.notifications.api.CHANNELS",
        "NotificationKindEnum": "games.notifications.api.KINDS",
    },
    # The schema states what the server accepts: bodies are documented as JSON only
    # (a form body cannot carry the nested objects: options, an action), and a string that may
    # not be blank has minLength 1.
    "PARSER_WHITELIST": ["games.web.parsers.JSONParser", "rest_framework.parsers.JSONParser"],
    "ENFORCE_NON_BLANK_FIELDS": True,
    # /api/docs/ loads Swagger UI from this server's static files, never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The wire protocol's definitions (games.protocol: events, the game view, socket messages).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.play.api.protocol.add_protocol_components",
    ],
}

# --- Email ----------------------------------------------------------------------------------
_email = env.email_url("EMAIL_URL", default="consolemail://")
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST", "")
EMAIL_PORT = _email.get("EMAIL_PORT") or 25
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _email.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _email.get("EMAIL_USE_SSL", False)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="warboard@localhost")
# Where players open the site; emails link to {SITE_URL}/games/<id>.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

# --- Web Push (games/notifications) -------------------------------------------------------------
# The VAPID key pair push services check every push against: VAPID_PRIVATE_KEY (a PEM, or the raw
# key in base64url); unset, one is made once in VAPID_KEY_FILE. Never change it once devices
# have subscribed (they are bound to its public half). VAPID_SUBJECT: a mailto: or https: URL
# for push services' operators (default: mailto: DEFAULT_FROM_EMAIL).
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_KEY_FILE = env.str(
    "VAPID_KEY_FILE", default=str(environment.var_dir(BASE_DIR, ENV) / "vapid_private.pem")
)
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="")
# The push services a subscription's endpoint may name (a host, or ".domain" for its
# subdomains): the server POSTs to the endpoint, so it must never be a host of the operator's
# own network. The default names the browsers' services (Chrome, Firefox, Edge, Safari).
WEBPUSH_ENDPOINT_HOSTS = env.list(
    "WEBPUSH_ENDPOINT_HOSTS",
    default=[
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        ".notify.windows.com",
        "web.push.apple.com",
    ],
)
# Plain http endpoints (only the tests' local push service); production keeps https.
WEBPUSH_ALLOW_HTTP = env.bool("WEBPUSH_ALLOW_HTTP", default=False)
# Seconds a push service has to answer one push.
WEBPUSH_TIMEOUT = env.float("WEBPUSH_TIMEOUT", default=10.0)

# --- Moves by email ------------------------------------------------------------------------------
# "Your turn" mail carries a signed Reply-To at this domain (moves+<game>.<seat>.<turn>.<sig>@...);
# the domain's inbound mail must reach the anymail webhook or the mailbox `fetch_mail` reads.
# Default: the domain of DEFAULT_FROM_EMAIL.
MAIL_REPLY_DOMAIN = env.str("MAIL_REPLY_DOMAIN", default="") or environment.domain_of(
    DEFAULT_FROM_EMAIL
)
# django-anymail's inbound webhooks (/anymail/<esp>/inbound/). ANYMAIL_WEBHOOK_SECRET is the
# "user:password" the provider sends as HTTP basic auth (every ESP); Mailgun also signs its
# posts (MAILGUN_WEBHOOK_SIGNING_KEY). Unset keys are left out so anymail's own checks apply.
ANYMAIL = {
    key: value
    for key, value in {
        "WEBHOOK_SECRET": env.str("ANYMAIL_WEBHOOK_SECRET", default=""),
        "MAILGUN_WEBHOOK_SIGNING_KEY": env.str("MAILGUN_WEBHOOK_SIGNING_KEY", default=""),
    }.items()
    if value
}
# `manage.py fetch_mail` with no --maildir: the IMAP mailbox to read, as
# imaps://user:password@host[:port]/FOLDER (folder INBOX when left out).
MAIL_IMAP_URL = env.str("MAIL_IMAP_URL", default="")

# --- HTTPS (production behind a TLS-terminating load balancer) -------------------------------
# One switch, off for local http use; README "Production variables" lists it.
HTTPS = env.bool("HTTPS", default=False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain http
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# --- Logging --------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
