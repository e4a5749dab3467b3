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

stamp="$venv/.warboard-installed${extra:+-$extra}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ requirements/constraints.txt -nt "$stamp" ]; then
  echo "Installing warboard${extra:+[$extra]} into $venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -c requirements/constraints.txt -e ".${extra:+[$extra]}"
  touch "$stamp"
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
