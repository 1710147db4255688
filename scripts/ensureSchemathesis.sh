#!/usr/bin/env bash
# Schemathesis (PyPI) in a project virtualenv (.data/venv) for the suite's bounded property-based
# fuzzing of /v4/openapi.json; installed once, python3-venv from apt when missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/services/lib.sh
SCHEMATHESIS_VERSION=4.32.5
VENV="$DATA_DIR/venv"
if ! "$VENV/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  log "[deps] schemathesis $SCHEMATHESIS_VERSION into $VENV"
  PYTHON="${PYTHON:-python3}"
  "$PYTHON" -m venv "$VENV" 2>/dev/null || { apt_install python3-venv; "$PYTHON" -m venv "$VENV"; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
