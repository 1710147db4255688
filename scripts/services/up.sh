#!/usr/bin/env bash
# Starts PostgreSQL and Elasticsearch unless they already answer (idempotent).
set -euo pipefail
dir="$(dirname "${BASH_SOURCE[0]}")"
bash "$dir/pg.sh" up
bash "$dir/es.sh" up
