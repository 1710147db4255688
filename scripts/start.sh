#!/usr/bin/env bash
# Quick start: installs what is missing, starts PostgreSQL, Elasticsearch and two devnets, migrates,
# creates the indices, deploys contracts, seeds demo campaigns, runs the jobs and serves the API on
# http://127.0.0.1:3000 until Ctrl-C, which stops everything this script started.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensureDeps.sh
started=()
bash scripts/services/pg.sh status >/dev/null 2>&1 || started+=(pg)
bash scripts/services/es.sh status >/dev/null 2>&1 || started+=(es)
cleanup() {
  for s in "${started[@]}"; do bash "scripts/services/$s.sh" down || true; done
}
trap cleanup EXIT
bash scripts/services/up.sh
# Ctrl-C (or SIGTERM to this script) reaches node, which stops the API, the scheduler and the
# devnets it started; then the EXIT trap stops PostgreSQL and Elasticsearch if this script started them.
node --import tsx scripts/dev.ts &
app=$!
trap 'kill -TERM "$app" 2>/dev/null || true' INT TERM
status=0
wait "$app" || status=$?
# `wait` returns early when a trapped signal arrives: wait again for node's own shutdown.
while kill -0 "$app" 2>/dev/null; do wait "$app" || status=$?; done
exit "$status"
