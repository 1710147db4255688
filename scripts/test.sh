#!/usr/bin/env bash
# The whole test suite: installs what is missing, starts PostgreSQL and Elasticsearch unless they
# already answer (suites start their own devnets), installs Chromium for the browser tests when
# missing, type-checks the API and the web pages, checks format and lint (Biome), then runs unit and
# integration tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensureDeps.sh
bash scripts/ensureBrowser.sh
bash scripts/ensureSchemathesis.sh
bash scripts/services/up.sh
t0=$(date +%s)
npx --no-install tsc -p . --noEmit
npx --no-install tsc -p web --noEmit
npx --no-install biome check .
npx --no-install mocha --config test/.mocharc.cjs "$@"
echo "[test] suite wall time $(( $(date +%s) - t0 ))s" >&2
