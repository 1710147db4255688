#!/bin/sh
# Entry point of the production image (Dockerfile) and of `npm run start:prod`: runs the compiled
# build (npm run build → dist/) with plain node, no TypeScript at run time.
#   api        the HTTP API (several may run side by side)
#   scheduler  every job on its cron (run one per job set); migrates and creates indices first
#   migrate    apply SQL migrations and create the search indices, then exit
#   jobs ...   the jobs CLI (list, run <job>, pause, resume, schedule, backfill, check, reindex)
set -e
cd "$(dirname "$0")/.."
role="${1:-api}"
[ $# -gt 0 ] && shift
case "$role" in
  api) exec node dist/api/server.js ;;
  scheduler) exec node dist/jobs/scheduler.js ;;
  migrate) node dist/sql/migrate.js && exec node dist/search-mappings/setup.js ;;
  jobs) exec node dist/jobs/cli.js "$@" ;;
  *) echo "usage: docker-entrypoint.sh api|scheduler|migrate|jobs <command>" >&2; exit 2 ;;
esac
