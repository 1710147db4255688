#!/usr/bin/env bash
# PostgreSQL from Debian's packages, our own cluster under .data/pg on loopback, run as `postgres`.
# Usage: pg.sh up|down|status
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PG_DIR="$DATA_DIR/pg"

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
ready() { "$(pg_bin)/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; }

up() {
  [ -n "$(pg_bin)" ] || { log "installing postgresql"; apt_install postgresql; }
  local bin; bin="$(pg_bin)"
  if ready; then log "postgresql already answering on 127.0.0.1:$PG_PORT"; return 0; fi
  ensure_user postgres
  mkdir -p "$PG_DIR"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$PG_DIR"
  chmod 700 "$PG_DIR"
  if [ ! -f "$PG_DIR/data/PG_VERSION" ]; then
    as_user postgres "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$PG_DIR/initdb.log"
  fi
  local t0=$(date +%s%N)
  as_user postgres "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PG_DIR -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
  log "postgresql up on 127.0.0.1:$PG_PORT in $(( ($(date +%s%N) - t0) / 1000000 ))ms"
}

down() {
  [ -f "$PG_DIR/data/PG_VERSION" ] || return 0
  as_user postgres "$(pg_bin)/pg_ctl" -D "$PG_DIR/data" -m fast -w status >/dev/null 2>&1 || return 0
  as_user postgres "$(pg_bin)/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null && log "postgresql stopped"
}

case "${1:-up}" in
  up) up ;; down) down ;; status) ready && echo up || { echo down; exit 1; } ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
