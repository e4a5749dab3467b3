# The two set-up commands (README): `make run` serves, `make test` runs the whole suite.

# numba wraps its compiles in colorama's init/deinit when colorama is installed (the docs
# extra brings it), and deinit puts back the sys.stdout it saw at init: a kernel compiled in the
# start-up warm-up thread could swap the stdout another thread had just redirected (a doctest's,
# a test's capture). Without the highlighting numba never touches sys.stdout.
export NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING := 1

# Python's bytecode caches (__pycache__/*.pyc) are written and read: a machine with
# PYTHONDONTWRITEBYTECODE set (this CI machine's image sets it) compiled every module from source
# in every process. Measured on the 2-core machine: a Django start (settings, apps, URLs) took
# 11.3 s without the caches and 3.9 s with them, and `make test` starts about a hundred
# processes (pytest workers, daphne and Celery servers, manage.py commands).
unexport PYTHONDONTWRITEBYTECODE
.PHONY: run test test-quick lint bench bench-load screenshots docs docs-build

run:
	@scripts/bootstrap.sh
	@scripts/serve.sh

# The install counts in the wall time scripts/test.sh prints at the end (CI starts from nothing).
test:
	@export WARBOARD_TEST_STARTED=$$(date +%s) && scripts/bootstrap.sh test && scripts/test.sh

# The same suite without the tests marked `slow` (the long property tests), for a quick local run.
test-quick:
	@scripts/bootstrap.sh test
	@SKIP_SLOW=1 scripts/test.sh

# The static checks `make test` starts with, alone.
lint:
	@scripts/bootstrap.sh test
	@.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy && \
		.venv/bin/lint-imports --no-cache
	@scripts/lint_js.sh

bench:
	@scripts/bootstrap.sh test
	@.venv/bin/python bench/healthz_and_ping.py
	@.venv/bin/python bench/aa_odds.py
	@.venv/bin/python bench/risk_odds.py
	@.venv/bin/python bench/crt_resolutions.py
	@.venv/bin/python bench/risk_engine.py
	@.venv/bin/python bench/risk_growth.py
	@.venv/bin/python bench/seating.py
	@.venv/bin/python bench/pairing.py
	@.venv/bin/python bench/ai_strength.py --games 100 --seed 1 --round-cap 40 --jobs 2

# The load benchmark: many concurrent games on the full stack (not part of `make bench`: it
# needs PostgreSQL and Redis running, and takes a few minutes). Starts the stack itself: migrate, N daphne workers, a Celery worker;
# plays K concurrent 6-seat games with bot clients over websockets and HTTP; runs pgbench for scale.
# Arguments go through LOAD_ARGS, e.g. `make bench-load LOAD_ARGS="--games 10 --seconds 30"`;
# `.venv/bin/python bench/load.py --help` lists them.
bench-load:
	@scripts/bootstrap.sh bench
	@.venv/bin/python bench/load.py $(LOAD_ARGS)

# The README's screenshots (docs/screenshots/*.png, 1280x800): Playwright and Debian's Chromium
# against the embedded server, which the script starts itself (or give a running one with
# `make screenshots SHOTS_ARGS="--url http://127.0.0.1:8000"`). It plays a game with the hints
# until its seat is asked for a poker decision: a minute or a few.
screenshots:
	@scripts/bootstrap.sh test
	@.venv/bin/python scripts/screenshots.py $(SHOTS_ARGS)

# The documentation site (docs/, mkdocs.yml: MkDocs with the Material theme), served offline at
# http://127.0.0.1:8001 with live reload. `docs-build` builds it into site/ with --strict, so a
# broken link or a page missing from the navigation fails (tests/docs runs the same build).
docs:
	@scripts/bootstrap.sh docs
	@NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs serve -a 127.0.0.1:8001

docs-build:
	@scripts/bootstrap.sh docs
	@NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict
