#!/usr/bin/env bash
# The browser code's linter: ESLint (eslint.config.js) over frontend/static/frontend, as installed
# by `npm ci` (scripts/bootstrap.sh test does it when Node.js is present).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/eslint ]; then
  echo "ESLint is not installed: install Node.js and run scripts/bootstrap.sh test (npm ci)." >&2
  exit 1
fi
node_modules/.bin/eslint .
