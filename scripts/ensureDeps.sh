#!/usr/bin/env bash
# Installs what the tests need when missing: the npm dependencies (when node_modules is missing or
# older than package-lock.json), Debian's Chromium (browser tests of /graphql/v1 and /docs) and
# Schemathesis in a project virtualenv (.data/venv; property-based fuzzing of /v4/openapi.json).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/services/lib.sh
command -v node >/dev/null || { echo "Node.js >= 20.19 is required" >&2; exit 1; }
node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("Node.js >= 20.19 required, found "+process.versions.node); process.exit(1) }'
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[deps] npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  log "[deps] apt-get install chromium"
  apt_install chromium
fi
SCHEMATHESIS_VERSION=4.32.5
VENV="$DATA_DIR/venv"
if ! "$VENV/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  log "[deps] schemathesis $SCHEMATHESIS_VERSION into $VENV"
  PYTHON="${PYTHON:-python3}"
  "$PYTHON" -m venv "$VENV" 2>/dev/null || { apt_install python3-venv; "$PYTHON" -m venv "$VENV"; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
