#!/usr/bin/env bash
# Schemathesis (PyPI) for the suite's bounded property-based fuzzing of /v4/openapi.json: installed once
# per machine in a virtualenv under the user's cache (CACHE_DIR, beside the Elasticsearch download; python3-venv
# from apt when missing), which .data/venv links to, so a fresh checkout does not build it again (11 s).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/services/lib.sh
SCHEMATHESIS_VERSION=4.32.5
VENV="$CACHE_DIR/schemathesis-$SCHEMATHESIS_VERSION"
LINK="$DATA_DIR/venv"
if ! "$VENV/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  log "[deps] schemathesis $SCHEMATHESIS_VERSION into $VENV"
  PYTHON="${PYTHON:-python3}"
  rm -rf "$VENV"
  mkdir -p "$CACHE_DIR"
  "$PYTHON" -m venv "$VENV" 2>/dev/null || { apt_install python3-venv; "$PYTHON" -m venv "$VENV"; }
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi
if [ "$(readlink "$LINK" 2>/dev/null)" != "$VENV" ]; then
  mkdir -p "$DATA_DIR"
  rm -rf "$LINK"
  ln -s "$VENV" "$LINK"
fi
