#!/usr/bin/env bash
# Make PostgreSQL and Redis available for the integration tests, or say why not.
# Sourced by scripts/test.sh; sets SERVICES_DATABASE_URL, SERVICES_REDIS_URL and SERVICES_UP=1|0.
# Outside CI a missing server only skips the integration pass (loudly). Under CI=true the servers
# are started if installed but stopped, installed from Debian's packages if missing (root only),
# and the run fails if they still cannot be reached: CI never passes without them.

SERVICES_DATABASE_URL="${DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/warboard}"
SERVICES_REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"

_endpoint() {  # URL -> "host port"
  "$PY" - "$1" <<'PY'
import sys
from urllib.parse import urlsplit
url = urlsplit(sys.argv[1])
default = {"postgres": 5432, "postgresql": 5432, "redis": 6379, "rediss": 6379}[url.scheme]
print(url.hostname or "127.0.0.1", url.port or default)
PY
}

_reachable() {  # host port
  "$PY" -c 'import socket,sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), 2).close()' "$1" "$2" 2>/dev/null
}

_wait_for() {  # host port seconds
  for _ in $(seq 1 "$3"); do _reachable "$1" "$2" && return 0; sleep 1; done
  return 1
}

_apt_install() {
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
  echo "services: installing $* from Debian's packages"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

_start_postgres() {
  if ! command -v pg_ctlcluster >/dev/null; then
    _apt_install postgresql || return 1
    local fresh=1
  fi
  for version in $(ls /etc/postgresql 2>/dev/null); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  done
  # A cluster we just installed authenticates TCP by password: give it the one the URL uses.
  if [ "${fresh:-0}" = 1 ]; then
    _wait_for 127.0.0.1 5432 30 && su postgres -c "psql -qc \"ALTER USER postgres PASSWORD 'postgres'\""
  fi
}

_start_redis() {
  command -v redis-server >/dev/null || _apt_install redis-server || return 1
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
}

ensure_services() {
  SERVICES_UP=1
  local name url host port
  # The fault tests (tests/integration/test_faults.py) start and kill a Redis of their own, so
  # the server binary is needed even when the shared Redis runs elsewhere (a container).
  command -v redis-server >/dev/null || _apt_install redis-server || \
    echo "WARNING: redis-server is not installed: the fault tests will fail" >&2
  for name in postgres redis; do
    if [ "$name" = postgres ]; then url="$SERVICES_DATABASE_URL"; else url="$SERVICES_REDIS_URL"; fi
    read -r host port < <(_endpoint "$url")
    _reachable "$host" "$port" && { echo "services: $name is up at $host:$port"; continue; }
    if [ "${CI:-}" = true ]; then
      echo "services: $name is not running at $host:$port; starting it (CI=true)"
      "_start_$name" || true
      if ! _wait_for "$host" "$port" 30; then
        echo "FATAL: $name is still unreachable at $host:$port; CI needs the real server." >&2
        exit 1
      fi
      echo "services: $name is up at $host:$port"
    else
      echo "WARNING: $name is not reachable at $host:$port: the integration tests will NOT run." >&2
      SERVICES_UP=0
    fi
  done
  if [ "$SERVICES_UP" = 1 ]; then
    _ensure_database || echo "WARNING: could not make the database of $SERVICES_DATABASE_URL" >&2
    # Migrated once here, before pass 2's workers start: with a connection pool, pytest-django's
    # workers each ran the migrations on this database too while making their test databases,
    # at the same moment, and on a database not yet migrated they collided (duplicate
    # django_content_type) and every test of pass 2 failed at setup.
    DATABASE_URL="$SERVICES_DATABASE_URL" REDIS_URL="$SERVICES_REDIS_URL" \
      "${PY:-.venv/bin/python}" manage.py migrate --noinput --verbosity 0 || \
      echo "WARNING: could not migrate the database of $SERVICES_DATABASE_URL" >&2
  fi
  return 0
}

# The database the URL names, made when missing: a fresh machine's PostgreSQL has only its own
# (postgres, template1, ...), and the server's connection pool opens a connection to it before
# the tests make theirs (test_<name>_gw0, ...). Without it every test of pass 2 failed at setup.
_ensure_database() {
  "${PY:-.venv/bin/python}" - "$SERVICES_DATABASE_URL" <<'PYTHON'
import sys
from urllib.parse import unquote, urlsplit

import psycopg
from psycopg import sql

url = urlsplit(sys.argv[1])
name = unquote(url.path.lstrip("/"))
params = {"host": url.hostname or "127.0.0.1", "port": url.port or 5432, "dbname": "postgres",
          "user": unquote(url.username or "postgres"), "password": unquote(url.password or ""),
          "autocommit": True}
with psycopg.connect(**params) as conn:
    if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        print(f"services: made the database {name}")
PYTHON
}
