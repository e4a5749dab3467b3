#!/usr/bin/env bash
# The whole test suite, in two passes over one code base:
#   1. the embedded default (SQLite, in-memory channel layer, in-process tasks): every test not
#      marked `services`, with DATABASE_URL/REDIS_URL removed from the environment;
#   2. the `services` tests against the real PostgreSQL and Redis (scripts/services.sh finds,
#      or under CI=true starts, them).
# Ends with one line totalling both passes; exits non-zero if either failed.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT
status=0

# SKIP_SLOW=1 (make test-quick) leaves out the tests marked `slow` (long property tests); CI and
# `make test` run them.
embedded="not services"
services="services"
if [ "${SKIP_SLOW:-0}" = 1 ]; then
  embedded="not services and not slow"
  services="services and not slow"  # the fault tests (tests/integration/test_faults.py)
fi

# shellcheck source=scripts/services.sh
. scripts/services.sh
# Node.js runs game.js's patch applier in tests/frontend/test_game_js_patch.py: installed from
# Debian's packages when missing (as root); without it that test fails, saying so.
command -v node >/dev/null || _apt_install nodejs || echo "WARNING: Node.js is not installed"
# Playwright drives Debian's Chromium in the `browser` tests (tests/frontend/browser.py; its own
# browsers are never downloaded): installed the same way; without it those tests fail, saying so.
command -v chromium >/dev/null || _apt_install chromium || echo "WARNING: Chromium is not installed"

# The browser code's linter (ESLint), as `make lint` runs it.
scripts/lint_js.sh || status=$?

echo "== pass 1: embedded default =="
env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL -u CELERY_RESULT_BACKEND \
  "$PY" -m pytest -m "$embedded" --junitxml="$reports/embedded.xml" "$@" || status=$?

echo "== pass 2: PostgreSQL + Redis =="
ensure_services
if [ "$SERVICES_UP" = 1 ]; then
  DATABASE_URL="$SERVICES_DATABASE_URL" REDIS_URL="$SERVICES_REDIS_URL" \
    "$PY" -m pytest -m "$services" --junitxml="$reports/services.xml" "$@" || status=$?
fi

"$PY" scripts/junit_total.py "$reports"/*.xml
exit "$status"
