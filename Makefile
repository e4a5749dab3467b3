# The two set-up commands (README): `make run` serves, `make test` runs the whole suite.
.PHONY: run test lint bench

run:
	@scripts/bootstrap.sh
	@scripts/serve.sh

test:
	@scripts/bootstrap.sh test
	@scripts/test.sh

lint:
	@scripts/bootstrap.sh test
	@.venv/bin/ruff check . && .venv/bin/ruff format --check .

bench:
	@scripts/bootstrap.sh test
	@.venv/bin/python bench/healthz_and_ping.py
	@.venv/bin/python bench/aa_odds.py
	@.venv/bin/python bench/risk_odds.py
	@.venv/bin/python bench/crt_resolutions.py
	@.venv/bin/python bench/risk_engine.py
