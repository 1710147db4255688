#!/usr/bin/env bash
# Installs what the service needs when missing: the npm dependencies (when node_modules is missing
# or older than package-lock.json), then bundles the pages. Test-only tools: ensureBrowser.sh,
# ensureSchemathesis.sh (called by scripts/test.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/services/lib.sh
command -v node >/dev/null || { echo "Node.js >= 20.19 is required" >&2; exit 1; }
node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("Node.js >= 20.19 required, found "+process.versions.node); process.exit(1) }'
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  if [ -L node_modules ]; then
    # npm ci empties node_modules first: through a link, the directory another checkout runs from.
    echo "[deps] node_modules links to $(readlink -f node_modules) and is older than package-lock.json: not reinstalled here (npm ci would empty that directory); run npm ci where it lives" >&2
  else
    echo "[deps] npm ci" >&2
    npm ci --no-audit --no-fund --loglevel=error
  fi
fi
# The explorer and operations pages (web/ → web/dist, git-ignored): bundled offline from node_modules
# by esbuild in well under a second, so every install, quick start and test run serves fresh pages.
npx --no-install tsx web/build.ts
