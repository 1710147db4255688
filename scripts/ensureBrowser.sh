#!/usr/bin/env bash
# Debian's Chromium for the browser tests (test/integration/web/), installed with apt when missing
# (CI runs as root on Debian 12); CHROMIUM_PATH overrides where the tests look for it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/services/lib.sh"
if [ -n "${CHROMIUM_PATH:-}" ] || command -v chromium >/dev/null 2>&1; then exit 0; fi
log "installing chromium for the browser tests"
apt_install chromium
