#!/usr/bin/env bash
# A streaming read replica of the PostgreSQL on PG_PORT (scripts/services/pg.sh's, or any primary that
# accepts replication connections from 127.0.0.1), under .data/pg-replica on PG_REPLICA_PORT, run as
# `postgres`. Made once with `pg_basebackup -R` (standby.signal + primary_conninfo), then started and
# stopped like the primary. The primary is only read from: nothing here changes its configuration.
# Usage: pgReplica.sh up|down|status|rebuild
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PG_REPLICA_PORT="${PG_REPLICA_PORT:-55433}"
REPLICA_DIR="$DATA_DIR/pg-replica"
# Extra server settings of the replica (e.g. `-c recovery_min_apply_delay=2s` to rehearse lag).
PG_REPLICA_OPTS="${PG_REPLICA_OPTS:-}"

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
ready() { "$(pg_bin)/pg_isready" -q -h 127.0.0.1 -p "$PG_REPLICA_PORT"; }
primary_ready() { "$(pg_bin)/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; }

up() {
  [ -n "$(pg_bin)" ] || { log "installing postgresql"; apt_install postgresql; }
  [ "$PG_REPLICA_PORT" != "$PG_PORT" ] || { log "PG_REPLICA_PORT must differ from PG_PORT ($PG_PORT)"; exit 2; }
  local bin; bin="$(pg_bin)"
  if ready; then log "replica already answering on 127.0.0.1:$PG_REPLICA_PORT"; return 0; fi
  ensure_user postgres
  mkdir -p "$REPLICA_DIR"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$REPLICA_DIR"
  chmod 700 "$REPLICA_DIR"
  if [ ! -f "$REPLICA_DIR/data/PG_VERSION" ]; then
    primary_ready || { log "no primary answering on 127.0.0.1:$PG_PORT (start it first: PG_PORT=$PG_PORT bash scripts/services/pg.sh up)"; exit 1; }
    local t0=$(date +%s%N)
    # -R writes standby.signal and primary_conninfo; -X stream copies the WAL written meanwhile;
    # --checkpoint=fast does not wait for the primary's next scheduled checkpoint.
    as_user postgres "$bin/pg_basebackup" -h 127.0.0.1 -p "$PG_PORT" -U postgres -D "$REPLICA_DIR/data" \
      -R -X stream --checkpoint=fast >"$REPLICA_DIR/basebackup.log" 2>&1 \
      || { log "pg_basebackup from 127.0.0.1:$PG_PORT failed: $(tail -n 3 "$REPLICA_DIR/basebackup.log")"; rm -rf "$REPLICA_DIR/data"; exit 1; }
    log "base backup of 127.0.0.1:$PG_PORT taken in $(( ($(date +%s%N) - t0) / 1000000 ))ms"
  fi
  local t0=$(date +%s%N)
  # hot_standby: read-only queries while it replays; the primary's own settings (copied by the
  # backup) apply otherwise, with this port and socket directory.
  as_user postgres "$bin/pg_ctl" -D "$REPLICA_DIR/data" -l "$REPLICA_DIR/server.log" -w -t 60 \
    -o "-p $PG_REPLICA_PORT -c listen_addresses=127.0.0.1 -k $REPLICA_DIR -c hot_standby=on -c max_connections=200 -c fsync=off $PG_REPLICA_OPTS" start >/dev/null
  log "replica of 127.0.0.1:$PG_PORT up on 127.0.0.1:$PG_REPLICA_PORT in $(( ($(date +%s%N) - t0) / 1000000 ))ms"
}

down() {
  [ -f "$REPLICA_DIR/data/PG_VERSION" ] || return 0
  as_user postgres "$(pg_bin)/pg_ctl" -D "$REPLICA_DIR/data" -w status >/dev/null 2>&1 || return 0
  as_user postgres "$(pg_bin)/pg_ctl" -D "$REPLICA_DIR/data" -m fast -w stop >/dev/null && log "replica stopped"
}

case "${1:-up}" in
  up) up ;;
  down) down ;;
  # A fresh copy of the primary (after the replica fell too far behind for the primary's WAL).
  rebuild) down; rm -rf "$REPLICA_DIR/data"; up ;;
  status) ready && echo up || { echo down; exit 1; } ;;
  *) echo "usage: $0 up|down|status|rebuild" >&2; exit 2 ;;
esac
