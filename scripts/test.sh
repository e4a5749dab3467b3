#!/usr/bin/env bash
# The whole test suite: the static checks, then the tests in two passes over one code base:
#   lint.   ruff (lint rules, then the formatter), mypy, import-linter and ESLint, each a step of its own
#           (configured in pyproject.toml). A failing check fails the run, but the tests still run.
#   pass 1. the embedded default (SQLite, in-memory channel layer, in-process tasks): every test
#           not marked `services`, with DATABASE_URL/REDIS_URL removed from the environment;
#   pass 2. the `services` tests against the real PostgreSQL and Redis (scripts/services.sh
#           finds, or under CI=true starts, them), run beside pass 1 (its output after pass 1's).
# Both passes run on pytest-xdist workers: PYTEST_WORKERS of them (a number, or `auto`, one per
# core: the default; CI=true runs 2, the CI machine's cores; 0 runs the tests in this process).
# Each worker has its own test database (pytest-django) and its own Redis prefixes
# (tests/conftest.py); tests that must not run beside each other share an xdist group.
# Ends with the wall time of each step and of the whole run on one line (from `make test`'s start,
# install included, when it set WARBOARD_TEST_STARTED), then one line totalling both passes (the
# last line, which CI reads); exits non-zero if any step failed.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every process of the run reads and writes the bytecode caches (why: the Makefile's
# `unexport PYTHONDONTWRITEBYTECODE`); the first to import a module compiles it for the rest.
unset PYTHONDONTWRITEBYTECODE

VENV="${VENV:-.venv}"
PY="$VENV/bin/python"
reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT
status=0
now() { date +%s; }
started=$(now)
# `make test` notes when it started, before installing: the install is a step of the run too.
install_time=$((started - ${WARBOARD_TEST_STARTED:-$started}))
started=${WARBOARD_TEST_STARTED:-$started}

# SKIP_SLOW=1 (make test-quick) leaves out the tests marked `slow` (long property tests); CI and
# `make test` run them.
embedded="not services"
services="services"
if [ "${SKIP_SLOW:-0}" = 1 ]; then
  embedded="not services and not slow"
  services="services and not slow"  # the fault tests (tests/integration/test_faults.py)
fi

if [ "${CI:-}" = true ]; then
  workers="${PYTEST_WORKERS:-2}"
else
  workers="${PYTEST_WORKERS:-auto}"
fi
# `loadgroup`: tests marked with one `xdist_group` run on one worker, one after the other.
parallel=(-n "$workers")
[ "$workers" = 0 ] || parallel+=(--dist loadgroup)

# "12 min 5 s" for a number of seconds.
_duration() {
  local s=$1
  if [ "$s" -ge 60 ]; then echo "$((s / 60)) min $((s % 60)) s"; else echo "$s s"; fi
}

# One static check: its name, its output, and a failure noted without stopping the run.
_check() {
  local name=$1
  shift
  echo "== lint: $name =="
  "$@" || { echo "FAILED: $name" >&2; status=1; }
}

# shellcheck source=scripts/services.sh
. scripts/services.sh
# Node.js runs game.js's patch applier in tests/frontend/test_game_js_patch.py: installed from
# Debian's packages when missing (as root); without it that test fails, saying so.
command -v node >/dev/null || _apt_install nodejs || echo "WARNING: Node.js is not installed"
# Playwright drives Debian's Chromium in the `browser` tests (tests/frontend/browser.py; its own
# browsers are never downloaded): installed the same way; without it those tests fail, saying so.
command -v chromium >/dev/null || _apt_install chromium || echo "WARNING: Chromium is not installed"

# numba compiles the combat kernels once into var/numba (27 s of one core from nothing, 0.3 s
# to load), in the background beside the static checks: the test processes, the servers they
# start and the two passes then load them instead of each compiling its own.
mkdir -p var
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$PWD/var/numba}"
"$PY" -c "from combat.apps import _warm_up; _warm_up()" >"$reports/numba.log" 2>&1 &

step=$(now)
_check "ruff check" "$VENV/bin/ruff" check .
_check "ruff format" "$VENV/bin/ruff" format --check .
_check "mypy" "$VENV/bin/mypy"
_check "import contracts" "$VENV/bin/lint-imports" --no-cache
_check "eslint (the browser code)" scripts/lint_js.sh
lint_time=$(($(now) - step))

# The two passes run side by side: pass 2's tests (workers, outages, killed processes) mostly
# wait on timeouts and other processes, so alone it left the cores idle for minutes. Its output
# is kept in a file and printed after pass 1's, so the two do not interleave.
step=$(now)
ensure_services
pass2_log="$reports/services.log"
pass2_pid=""
if [ "$SERVICES_UP" = 1 ]; then
  (
    DATABASE_URL="$SERVICES_DATABASE_URL" REDIS_URL="$SERVICES_REDIS_URL" \
      "$PY" -m pytest "${parallel[@]}" -m "$services" --durations=15 \
      --junitxml="$reports/services.xml" "$@" >"$pass2_log" 2>&1 && rc=0 || rc=$?
    # (set -e holds in this subshell: a bare failing pytest ended it before these two lines, and
    # a red pass 2 printed "pass 2 beside it 0 s")
    echo "$rc" >"$reports/services.status"
    echo $(($(now) - step)) >"$reports/services.time"
  ) &
  pass2_pid=$!
fi

echo "== pass 1: embedded default ($workers workers; pass 2 beside it) =="
env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL -u CELERY_RESULT_BACKEND \
  "$PY" -m pytest "${parallel[@]}" -m "$embedded" --durations=15 \
  --junitxml="$reports/embedded.xml" "$@" || status=$?
pass1_time=$(($(now) - step))

echo "== pass 2: PostgreSQL + Redis ($workers workers) =="
pass2_time=0
if [ -n "$pass2_pid" ]; then
  wait "$pass2_pid" || true
  cat "$pass2_log"
  pass2_status=$(cat "$reports/services.status" 2>/dev/null || echo 1)
  [ "$pass2_status" = 0 ] || status=$pass2_status
  pass2_time=$(cat "$reports/services.time" 2>/dev/null || echo 0)
fi

steps="lint $(_duration "$lint_time"), pass 1 $(_duration "$pass1_time"), pass 2 beside it $(_duration "$pass2_time")"
[ "$install_time" = 0 ] || steps="install $(_duration "$install_time"), $steps"
echo "make test: $(_duration $(($(now) - started))) ($steps)"
"$PY" scripts/junit_total.py "$reports"/*.xml
exit "$status"
