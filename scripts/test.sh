#!/usr/bin/env bash
# The whole test suite: installs what is missing, starts PostgreSQL and Elasticsearch unless they
# already answer (suites start their own devnets), installs Chromium for the browser tests when
# missing, type-checks the API and the web pages and checks format and lint (Biome) while it runs unit and
# integration tests in TEST_JOBS worker processes (default: the cores + 1, at most 4; test/.mocharc.parallel.cjs: the checks use
# the cores the workers leave idle while they wait), then the suites that must run alone
# (test/serialSuites.cjs), with one closing line "N passed, N failed" for both. Given arguments (files,
# mocha options) or TEST_JOBS=1, it checks first and runs the whole suite (or those files) in one process.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensureDeps.sh
bash scripts/ensureBrowser.sh
bash scripts/ensureSchemathesis.sh
bash scripts/services/up.sh
t0=$(date +%s)
static_checks() {
  npx --no-install tsc -p . --noEmit && npx --no-install tsc -p web --noEmit && npx --no-install biome check .
}
if [ "$#" -gt 0 ] || [ "${TEST_JOBS:-}" = 1 ]; then
  static_checks
  npx --no-install mocha --config test/.mocharc.cjs "$@"
  echo "[test] suite wall time $(( $(date +%s) - t0 ))s" >&2
  exit 0
fi
summary=$(mktemp)
checks_log=$(mktemp)
trap 'rm -f "$summary" "$checks_log"' EXIT
static_checks > "$checks_log" 2>&1 &
checks=$!
rc=0
TEST_SUMMARY_FILE=$summary npx --no-install mocha --config test/.mocharc.parallel.cjs || rc=$?
if wait "$checks"; then
  echo "[test] type-check (API, web) and Biome: no finding" >&2
else
  cat "$checks_log" >&2
  echo "[test] type-check (API, web) or Biome failed: see above" >&2
  rc=1
fi
t1=$(date +%s)
TEST_SUMMARY_FILE=$summary npx --no-install mocha --config test/.mocharc.serial.cjs || rc=$?
echo "[test] parallel part $(( t1 - t0 ))s, serial part $(( $(date +%s) - t1 ))s" >&2
node -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").filter(Boolean).map(JSON.parse);
  const sum = (k) => lines.reduce((n, l) => n + l[k], 0);
  const skipped = sum("pending");
  console.log(`\n${sum("passes")} passed, ${sum("failures")} failed${skipped ? `, ${skipped} skipped` : ""}`);
' "$summary"
echo "[test] suite wall time $(( $(date +%s) - t0 ))s" >&2
exit "$rc"
