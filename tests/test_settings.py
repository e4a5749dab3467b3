"""The settings choose the embedded default with an empty environment, the full stack from URLs."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from config import environment
from tests.conftest import ROOT

PROBE = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({'db': settings.DATABASES['default']['ENGINE'], "
    "'db_name': str(settings.DATABASES['default']['NAME']), "
    "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'], "
    "'broker': settings.CELERY_BROKER_URL, 'embedded': settings.WARBOARD_EMBEDDED_TASKS, "
    "'cache': settings.CACHES['default']['BACKEND'], 'debug': settings.DEBUG, "
    "'hosts': settings.ALLOWED_HOSTS, 'key_len': len(settings.SECRET_KEY)}))"
)


def load_settings(python: str, env: dict[str, str]) -> dict:
    out = subprocess.run(
        [python, "-c", PROBE],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_an_empty_environment_runs_the_embedded_default(python, bare_env, tmp_path):
    loaded = load_settings(python, bare_env)
    assert loaded["db"] == "django.db.backends.sqlite3"
    assert loaded["db_name"] == str(tmp_path / "var" / "warboard.sqlite3")
    assert loaded["layer"] == "channels.layers.InMemoryChannelLayer"
    assert loaded["broker"] == "memory://"
    assert loaded["embedded"] is True
    assert loaded["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert loaded["debug"] is False
    assert loaded["hosts"] == ["127.0.0.1", "localhost", "[::1]"]


def test_the_embedded_default_makes_one_secret_key_and_keeps_it(python, bare_env, tmp_path):
    first = load_settings(python, bare_env)
    key_file = tmp_path / "var" / "secret_key"
    assert first["key_len"] == len(key_file.read_text().strip()) >= 50
    assert key_file.stat().st_mode & 0o777 == 0o600
    before = key_file.read_text()
    load_settings(python, bare_env)
    assert key_file.read_text() == before


def test_urls_choose_postgresql_and_redis(python, bare_env):
    loaded = load_settings(
        python,
        {
            **bare_env,
            "DATABASE_URL": "postgres://alice:secret@db.internal:5433/warboard",
            "REDIS_URL": "redis://cache.internal:6380/2",
        },
    )
    assert loaded["db"] == "django.db.backends.postgresql"
    assert loaded["db_name"] == "warboard"
    assert loaded["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert loaded["broker"] == "redis://cache.internal:6380/2"
    assert loaded["embedded"] is False
    assert loaded["cache"] == "django.core.cache.backends.redis.RedisCache"


def test_database_url_is_parsed_into_its_parts():
    config = environment.database_config(
        {"DATABASE_URL": "postgres://alice:secret@db.internal:5433/warboard"}, Path("/srv")
    )
    assert (config["HOST"], config["PORT"], config["USER"], config["PASSWORD"]) == (
        "db.internal",
        5433,
        "alice",
        "secret",
    )
    assert config["CONN_MAX_AGE"] == 0


def test_redis_url_feeds_the_channel_layer_broker_and_results():
    env = {"REDIS_URL": "redis://cache.internal:6380/2"}
    layer = environment.channel_layers_config(env)["default"]["CONFIG"]
    # An unreachable Redis fails a publish within 2 s, a dead connection within 30.
    assert layer["hosts"] == [
        {"address": "redis://cache.internal:6380/2", "socket_timeout": 30,
         "socket_connect_timeout": 2},
    ]  # fmt: skip
    assert layer["prefix"] == "warboard"
    assert "capacity" not in layer  # pub/sub queues nothing (config.environment)
    celery = environment.celery_config(env)
    assert celery["CELERY_BROKER_URL"] == celery["CELERY_RESULT_BACKEND"] == env["REDIS_URL"]
    cache = environment.cache_config(env)["default"]
    assert cache["LOCATION"] == env["REDIS_URL"]
    assert cache["OPTIONS"] == {
        "socket_connect_timeout": 2, "socket_timeout": 2,
        "pool_class": "config.redis_pool.SharedConnectionPool",
    }  # fmt: skip
    assert cache["KEY_PREFIX"] == "warboard"


def test_the_channel_and_cache_prefixes_keep_two_users_of_one_redis_apart():
    env = {"REDIS_URL": "redis://cache.internal:6380/2", "CHANNEL_LAYER_PREFIX": "blue",
           "CACHE_KEY_PREFIX": "blue"}  # fmt: skip
    assert environment.channel_layers_config(env)["default"]["CONFIG"]["prefix"] == "blue"
    assert environment.cache_config(env)["default"]["KEY_PREFIX"] == "blue"


def test_queuing_a_task_neither_stores_nor_waits_for_its_result():
    """With a result backend, queuing subscribed to the task's result channel, which
    with Redis down retried for 19 s and then broke the process's result consumer for good.
    Only the ``games.ping`` probe keeps its result; a publish to a dead broker retries once."""
    from config.celery import app
    from games.play.tasks import advance, ping

    assert app.conf.task_ignore_result is True
    assert (advance.ignore_result, ping.ignore_result) == (True, False)
    assert app.conf.task_publish_retry_policy["max_retries"] == 1


def test_a_separate_broker_url_overrides_redis_for_celery_only():
    env = {"REDIS_URL": "redis://cache:6379/0", "CELERY_BROKER_URL": "amqp://guest@mq//"}
    assert environment.celery_config(env)["CELERY_BROKER_URL"] == "amqp://guest@mq//"
    assert environment.celery_config(env)["CELERY_RESULT_BACKEND"] == "redis://cache:6379/0"


def test_check_deploy_passes_with_the_production_variables(python, bare_env):
    """README "Production variables": with these set, Django's deployment checklist is clean."""
    env = {
        **bare_env,
        "SECRET_KEY": "k" * 20 + "0123456789abcdefghijklmnopqrstuvwxyz!@#$%^&*",
        "DEBUG": "false",
        "ALLOWED_HOSTS": "warboard.example.org",
        "CSRF_TRUSTED_ORIGINS": "https://warboard.example.org",
        "HTTPS": "true",
        "DATABASE_URL": "postgres://warboard:pw@db:5432/warboard",
        "REDIS_URL": "redis://redis:6379/0",
    }
    result = subprocess.run(
        [python, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_flags_the_local_defaults(python, bare_env):
    """The same check does fail on plain-http local settings, so the test above can fail."""
    result = subprocess.run(
        [python, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=bare_env,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout  # SECURE_SSL_REDIRECT off


def test_postgresql_gets_a_connection_pool_unless_turned_off():
    url = {"DATABASE_URL": "postgres://alice@db:5432/warboard"}
    pooled = environment.database_config(url, Path("/srv"))
    assert pooled["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 10, "timeout": 4.0}
    # ... whose connections are checked as they are handed out (dropped connections come back).
    assert pooled["CONN_HEALTH_CHECKS"] is True
    assert pooled["CONN_MAX_AGE"] == 0
    plain = environment.database_config({**url, "DB_POOL": "0", "DB_CONN_MAX_AGE": "60"}, Path("/"))
    assert "pool" not in plain.get("OPTIONS", {})
    assert plain["CONN_MAX_AGE"] == 60


def test_an_unreachable_postgresql_fails_a_request_within_seconds_not_30():
    """connect_timeout for each new connection and the pool's wait for one (psycopg's default
    30 s, after which the request got a 500; config.outages answers 503 instead)."""
    url = {"DATABASE_URL": "postgres://alice@db:5432/warboard"}
    pooled = environment.database_config(url, Path("/srv"))
    assert pooled["OPTIONS"]["connect_timeout"] == 3
    assert pooled["OPTIONS"]["pool"]["timeout"] == 4.0
    plain = environment.database_config({**url, "DB_POOL": "0"}, Path("/"))
    assert plain["OPTIONS"] == {"connect_timeout": 3}
    tuned = {**url, "DB_CONNECT_TIMEOUT": "1", "DB_POOL_TIMEOUT": "2.5"}
    options = environment.database_config(tuned, Path("/"))["OPTIONS"]
    assert (options["connect_timeout"], options["pool"]["timeout"]) == (1, 2.5)
    sqlite = environment.database_config({}, Path("/srv"))
    assert "connect_timeout" not in sqlite["OPTIONS"]


def test_the_celery_broker_uses_the_redis_transport_that_survives_an_outage():
    """config.redis_broker: a redis:// broker connection gets the transport whose channels
    refuse with a connection error, not an AttributeError that stopped the worker, once
    their connection is released. Nothing connects here."""
    from config.celery import app
    from config.redis_broker import Transport

    for url in ("redis://127.0.0.1:1/0", "rediss://127.0.0.1:1/0"):
        with app.connection_for_write(url) as connection:
            assert isinstance(connection.transport, Transport)


def test_a_task_of_a_killed_worker_goes_back_to_the_queue_within_minutes():
    """acks_late alone acknowledges a task whose pool child was killed as failed;
    with reject_on_worker_lost it is re-queued, and a vanished worker's message comes back
    after the visibility timeout (Redis broker), 5 minutes rather than the default hour."""
    from config.celery import app

    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.broker_transport_options == {
        "visibility_timeout": 300, "socket_connect_timeout": 2,
    }  # fmt: skip
