"""Turn environment variables into Django settings fragments.

Kept apart from ``settings.py`` as plain functions of a mapping so that the choice between the
embedded default (SQLite, in-memory channel layer, in-process tasks) and the full stack
(PostgreSQL, channels-redis, Redis broker) can be tested for any environment without reloading
the settings module. No Django import here: these run before Django is configured.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import environ

#: Where the embedded default keeps its files (SQLite database, generated secret key).
VAR_DIR_NAME = "var"


def var_dir(base_dir: Path, env: Mapping[str, str]) -> Path:
    """The folder for local state; ``WARBOARD_VAR_DIR`` moves it (tests, read-only checkouts)."""
    return Path(env.get("WARBOARD_VAR_DIR") or base_dir / VAR_DIR_NAME)


def database_config(env: Mapping[str, str], base_dir: Path) -> dict[str, Any]:
    """``DATABASES['default']``: PostgreSQL (or any URL) from ``DATABASE_URL``, else SQLite.

    SQLite runs in WAL mode with ``BEGIN IMMEDIATE`` transactions so the web process and the
    in-process task threads queue for the write lock instead of failing with "database is
    locked" when a read transaction tries to upgrade.
    """
    url = env.get("DATABASE_URL", "").strip()
    if url:
        config = environ.Env.db_url_config(url)
        if config["ENGINE"] == "django.db.backends.postgresql" and env.get("DB_POOL", "1") != "0":
            # Under ASGI each request may run on a different thread, so Django's per-thread
            # persistent connections do not help; psycopg's pool does (Django >= 5.1).
            config["OPTIONS"] = {
                **config.get("OPTIONS", {}),
                "pool": {"min_size": 1, "max_size": int(env.get("DB_POOL_MAX", "10"))},
            }
            config["CONN_MAX_AGE"] = 0  # Django refuses persistent connections with a pool
        else:
            config["CONN_MAX_AGE"] = int(env.get("DB_CONN_MAX_AGE", "0"))
        if config["ENGINE"] == "django.db.backends.postgresql":
            _fail_fast(config, env)
        # With a pool, Django passes ``ConnectionPool.check_connection`` as the pool's ``check``:
        # each connection is tested as it is handed out (one round trip) and a dead one
        # replaced. Without it a connection the server dropped (a restart,
        # ``pg_terminate_backend``, a failover) failed the request that got it, and the next
        # ones, until every dead connection in the pool had been tried.
        config["CONN_HEALTH_CHECKS"] = True
        return config
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": var_dir(base_dir, env) / "warboard.sqlite3",
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
        # The test database is a file too, not Django's shared in-memory default: threads (the
        # socket consumer's per-message contexts, the concurrency tests) then queue for the
        # write lock as they do on the real file, instead of failing with "table is locked".
        "TEST": {"NAME": var_dir(base_dir, env) / "test_warboard.sqlite3"},
    }


def _fail_fast(config: dict[str, Any], env: Mapping[str, str]) -> None:
    """Give up on an unreachable PostgreSQL within seconds (``config.outages`` answers 503):
    ``connect_timeout`` for each new connection, and the pool's ``timeout`` for a request
    waiting on a connection (psycopg's default is 30 s, after which the request got a 500)."""
    options = config.setdefault("OPTIONS", {})
    options.setdefault("connect_timeout", int(env.get("DB_CONNECT_TIMEOUT", "3")))
    if isinstance(options.get("pool"), dict):
        options["pool"] = {**options["pool"], "timeout": float(env.get("DB_POOL_TIMEOUT", "4"))}


def redis_url(env: Mapping[str, str]) -> str | None:
    """The Redis server shared by channels, Celery and the cache, or None when embedded."""
    return env.get("REDIS_URL", "").strip() or None


def channel_layers_config(env: Mapping[str, str]) -> dict[str, Any]:
    """``CHANNEL_LAYERS``: channels-redis's pub/sub layer when ``REDIS_URL`` is set, else the
    in-memory layer.

    The in-memory layer only reaches consumers in the same process, which is exactly the
    embedded default's single daphne process; scaling out needs Redis.

    Why ``RedisPubSubChannelLayer`` and not ``RedisChannelLayer`` (at most 20 Redis
    commands per action in a 6-seat game): the queue layer stores groups in sorted sets and
    messages in per-process queues, so each ``group_send`` cost a ZREMRANGEBYSCORE, a ZRANGE
    and a Lua script writing every member's queue (ZADD, EXPIRE inside), and every receiving
    process then pops it with BZPOPMIN: 50 and more commands for the seven groups of one action.
    On pub/sub a ``group_send`` is one PUBLISH; joining and leaving a group is a SUBSCRIBE /
    UNSUBSCRIBE on the process's one subscriber connection, and only when the process's first
    socket joins (or its last leaves) that group; receiving costs no command at all. What the
    game socket uses works the same: ``group_add``/``group_discard`` with the consumer's own
    channel name, ``group_send``, and ``new_channel``/``send``/``receive`` (``/healthz``).

    What pub/sub gives up is delivery to a process that is not subscribed when the message is
    published (nothing is queued) and the capacity setting (nothing is queued, so no message is
    dropped for a full queue either). Neither matters here: a socket subscribes before it reads
    the state it starts from, and a push it misses all the same is recovered by the consumer's
    gap handling (``games.play.sockets.consumers``: a fresh ``state``).
    """
    url = redis_url(env)
    if url is None:
        return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                # A dead connection must fail a publish rather than hang it; the subscriber
                # waits with its own 0.1 s timeouts, which this does not shorten.
                "hosts": [{"address": url, "socket_timeout": 30, "socket_connect_timeout": 2}],
                "prefix": env.get("CHANNEL_LAYER_PREFIX", "warboard"),
            },
        }
    }


def celery_config(env: Mapping[str, str]) -> dict[str, Any]:
    """The ``CELERY_*`` settings: a Redis broker and result store, or embedded in-process tasks.

    Embedded, ``WARBOARD_EMBEDDED_TASKS`` is True and ``config.celery.WarboardTask`` runs each
    queued task on a thread pool inside the web process: off the request path (the caller gets a
    handle back at once) but with no broker to install. ``CELERY_BROKER_URL`` overrides the broker
    when it is not the Redis server (RabbitMQ, say).
    """
    url = redis_url(env)
    broker = env.get("CELERY_BROKER_URL", "").strip() or url
    if broker is None:
        return {
            "WARBOARD_EMBEDDED_TASKS": True,
            "CELERY_BROKER_URL": "memory://",
            "CELERY_RESULT_BACKEND": None,
        }
    return {
        "WARBOARD_EMBEDDED_TASKS": False,
        "CELERY_BROKER_URL": broker,
        "CELERY_RESULT_BACKEND": env.get("CELERY_RESULT_BACKEND", "").strip() or url,
    }


def cache_config(env: Mapping[str, str]) -> dict[str, Any]:
    """``CACHES``: Django's Redis cache when ``REDIS_URL`` is set (shared by all web replicas)."""
    url = redis_url(env)
    if url is None:
        return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            # Keys of two deployments (or two test workers) sharing one Redis kept apart, as
            # CHANNEL_LAYER_PREFIX keeps their channels apart.
            "KEY_PREFIX": env.get("CACHE_KEY_PREFIX", "warboard"),
            # An unreachable Redis fails a throttle's read in seconds, not minutes (the
            # throttles then let the request through: games.web.throttles).
            # One pool per process, not one per request (config.redis_pool).
            "OPTIONS": {
                "socket_connect_timeout": 2,
                "socket_timeout": 2,
                "pool_class": "config.redis_pool.SharedConnectionPool",
            },
        }
    }


def load_or_create_secret_key(path: Path) -> str:
    """A per-installation secret key, made once and kept in ``path`` (mode 0600).

    Used only when ``SECRET_KEY`` is unset, so a fresh local install never runs on a key that is
    published in the source. The key is written to a private temporary file and hard-linked into
    place: the link either succeeds whole or fails because another process got there first, so a
    process starting at the same moment never reads a half-written key.
    """
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=".secret_key.")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
        with contextlib.suppress(FileExistsError):  # another process won the race: use its key
            os.link(tmp_name, path)
    finally:
        os.unlink(tmp_name)
    return path.read_text().strip()


def domain_of(address: str) -> str:
    """The domain of a mail address (``Warboard <warboard@example.org>`` -> ``example.org``):
    the default ``MAIL_REPLY_DOMAIN`` is that of ``DEFAULT_FROM_EMAIL``."""
    _, at, domain = address.strip().rstrip(">").rpartition("@")
    return domain if at and domain else "localhost"
