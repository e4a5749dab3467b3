#!/usr/bin/env bash
# Create the virtual environment and install Warboard into it (with an extra, e.g. "test").
# Re-installs only when pyproject.toml or the constraints changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."

extra="${1:-}"
venv="${VENV:-.venv}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
  "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    echo "Warboard needs Python 3.11 or newer; '$python' is $("$python" --version 2>&1)." >&2
    echo "Point PYTHON at a newer interpreter: PYTHON=python3.12 make run" >&2
    exit 1
  }
  echo "Creating the virtual environment in $venv"
  "$python" -m venv "$venv"
fi

# pip's whole output goes to a log, and a short line per package shows that it is moving (a
# fresh install takes a minute or two); a failure prints the log's end.
log="${INSTALL_LOG:-var/install.log}"
mkdir -p "$(dirname "$log")"
pip_step() {
  local what="$1" started=$SECONDS
  shift
  echo "$what (pip's log: $log)"
  if ! "$venv/bin/python" -m pip "$@" --disable-pip-version-check --progress-bar off </dev/null 2>&1 \
      | tee -a "$log" \
      | { grep --line-buffered -E '^(Collecting|Installing collected)' \
          | sed -u -E 's/^Collecting ([^ ;]+).*/  collecting \1/; s/^Installing collected.*/  installing them/'
          true; }; then
    echo "pip failed; the end of $log:" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
  echo "  done in $((SECONDS - started)) s"
}

stamp="$venv/.warboard-installed${extra:+-$extra}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ requirements/constraints.txt -nt "$stamp" ]; then
  : >"$log"
  pip_step "Updating pip in $venv" install --upgrade pip
  # --no-compile: pip byte-compiled every file of every package (numba's, hypothesis's, their
  # tests...), 14 of a fresh install's 31 s; Python compiles what is imported, once, on first use
  # (the Makefile makes sure it may write the caches: `unexport PYTHONDONTWRITEBYTECODE`).
  pip_step "Installing warboard${extra:+[$extra]} and its dependencies into $venv" install \
    --no-compile -c requirements/constraints.txt -e ".${extra:+[$extra]}"
  touch "$stamp"
else
  echo "warboard${extra:+[$extra]} is installed in $venv (up to date)"
fi

# The browser code's linter (ESLint, `make lint`) from package-lock.json, for the test extra and
# only where Node.js is installed: nothing at runtime needs it.
js_stamp="node_modules/.warboard-installed"
if [ "$extra" = test ] && command -v npm >/dev/null; then
  if [ ! -f "$js_stamp" ] || [ package-lock.json -nt "$js_stamp" ]; then
    echo "Installing the JS linter (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error
    touch "$js_stamp"
  fi
fi
