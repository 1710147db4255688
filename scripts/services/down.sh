#!/usr/bin/env bash
# Stops the PostgreSQL and Elasticsearch started from this checkout.
set -euo pipefail
dir="$(dirname "${BASH_SOURCE[0]}")"
bash "$dir/es.sh" down
bash "$dir/pg.sh" down
