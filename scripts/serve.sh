#!/usr/bin/env bash
# Migrate, collect static files and serve Warboard over ASGI (HTTP + websockets) with daphne.
# HOST and PORT choose the address (default http://127.0.0.1:8000).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${VENV:-.venv}"
host="${HOST:-127.0.0.1}"
port="${PORT:-8000}"

"$venv/bin/python" manage.py migrate --noinput
"$venv/bin/python" manage.py collectstatic --noinput --verbosity 0
echo "Warboard is serving on http://$host:$port/ (health: http://$host:$port/healthz)"
exec "$venv/bin/daphne" --bind "$host" --port "$port" config.asgi:application
