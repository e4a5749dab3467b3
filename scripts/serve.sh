#!/usr/bin/env bash
# Migrate, collect static files and serve Warboard over ASGI (HTTP + websockets) with daphne.
# HOST and PORT choose the address (default http://127.0.0.1:8000). Each step says what it does,
# and the address to open is printed once the server answers.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${VENV:-.venv}"
host="${HOST:-127.0.0.1}"
port="${PORT:-8000}"
# On 0.0.0.0 the server is reached at 127.0.0.1 from this machine.
open_host="$host"
if [ "$host" = 0.0.0.0 ]; then open_host=127.0.0.1; fi
address="http://$open_host:$port/"

echo "Preparing the database (migrate)"
"$venv/bin/python" manage.py migrate --noinput
echo "Collecting the static files"
"$venv/bin/python" manage.py collectstatic --noinput --verbosity 0
echo "Starting the server (daphne on $host:$port)"
"$venv/bin/daphne" --bind "$host" --port "$port" config.asgi:application &
server=$!
# Ctrl-C or a TERM stops daphne with this script, and the script ends with daphne.
trap 'kill -TERM "$server" 2>/dev/null || true; wait "$server" || true; exit 0' INT TERM

# The address is printed once the server answers its health probe (daphne's own "Listening"
# line comes before the application has loaded); two minutes at most.
ready='
import sys, time, urllib.request
deadline = time.monotonic() + 120
while time.monotonic() < deadline:
    try:
        with urllib.request.urlopen(sys.argv[1], timeout=2):
            sys.exit(0)
    except OSError:
        time.sleep(0.3)
sys.exit(1)
'
if "$venv/bin/python" -c "$ready" "${address}healthz"; then
  echo "Warboard is ready: open $address (health: ${address}healthz; Ctrl-C stops it)"
else
  echo "Warboard did not answer ${address}healthz within 120 s (daphne's output is above)" >&2
fi
wait "$server"
