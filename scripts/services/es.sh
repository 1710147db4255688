#!/usr/bin/env bash
# Elasticsearch 8.x from Maven Central (integ-test-zip), unpacked under .data/es, run with the
# machine's Java 17 as a non-root user, single node on loopback with a small heap.
# A three-node cluster: esCluster.sh. Usage: es.sh up|down|status
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/esLib.sh"
ES_HEAP="${ES_HEAP:-512m}"

ready() { curl -fsS "http://127.0.0.1:$ES_PORT/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null; }

# Written at every start (ports and paths may have changed since the last: a stale file would serve the old ones).
configure() {
  cat >"$ES_HOME/config/elasticsearch.yml" <<YML
cluster.name: campaign-rewards
node.name: node-1
path.data: $ES_DIR/data
path.logs: $ES_DIR/logs
network.host: 127.0.0.1
http.port: $ES_PORT
transport.port: $((ES_PORT + 100))
discovery.type: single-node
xpack.security.enabled: false
cluster.routing.allocation.disk.threshold_enabled: false
action.destructive_requires_name: false
YML
}

up() {
  if ready; then log "elasticsearch already answering on 127.0.0.1:$ES_PORT"; return 0; fi
  es_prepare; configure
  local t0=$(date +%s%N)
  es_start "$ES_HOME/config" "$ES_DIR" "$ES_HEAP"
  wait_for 180 elasticsearch ready || { tail -n 40 "$ES_DIR/logs/campaign-rewards.log" >&2 2>/dev/null; exit 1; }
  log "elasticsearch $ES_VERSION up on 127.0.0.1:$ES_PORT in $(( ($(date +%s%N) - t0) / 1000000 ))ms"
}

down() {
  [ -f "$ES_DIR/es.pid" ] || return 0
  es_stop "$ES_DIR/es.pid"
  log "elasticsearch stopped"
}

case "${1:-up}" in
  up) up ;; down) down ;; status) ready && echo up || { echo down; exit 1; } ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
