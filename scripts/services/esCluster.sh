#!/usr/bin/env bash
# An Elasticsearch 8.x cluster of ES_CLUSTER_NODES nodes (default 3) on loopback, no Docker: the
# distribution es.sh uses (.data/es), one config and data directory per node under
# .data/es-cluster/node-<i>, HTTP ports ES_CLUSTER_PORT.. (default 59201..59203), transport ports
# 100 above them, ES_CLUSTER_HEAP each (default 384m). Every node is master-eligible and holds
# data, so any one may go down while the others keep serving (with ES_REPLICAS ≥ 1).
# Point the services at it: ES_URL=$(bash scripts/services/esCluster.sh urls) ES_REPLICAS=1
# Usage: esCluster.sh up|down|status|urls|start-node <i>|stop-node <i>|kill-node <i>
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/esLib.sh"
NODES="${ES_CLUSTER_NODES:-3}"
FIRST_PORT="${ES_CLUSTER_PORT:-59201}"
HEAP="${ES_CLUSTER_HEAP:-384m}"
CLUSTER_DIR="$DATA_DIR/es-cluster"

http_port() { echo $((FIRST_PORT + $1 - 1)); }
transport_port() { echo $((FIRST_PORT + 100 + $1 - 1)); }
node_dir() { echo "$CLUSTER_DIR/node-$1"; }
urls() { local i out=(); for i in $(seq 1 "$NODES"); do out+=("http://127.0.0.1:$(http_port "$i")"); done; (IFS=,; echo "${out[*]}"); }

node_ready() { curl -fsS "http://127.0.0.1:$(http_port "$1")/_cluster/health?timeout=1s" >/dev/null 2>&1; }
# Every node joined one cluster and every shard is assigned.
cluster_green() {
  curl -fsS "http://127.0.0.1:$(http_port 1)/_cluster/health?wait_for_status=green&wait_for_nodes=$NODES&timeout=1s" >/dev/null ||
    curl -fsS "http://127.0.0.1:$(http_port "$NODES")/_cluster/health?wait_for_status=green&wait_for_nodes=$NODES&timeout=1s" >/dev/null
}

configure() { # configure <i>: the node's config directory, rewritten every start (ports may change).
  local i="$1" dir conf seeds="" masters="" j
  dir="$(node_dir "$i")"; conf="$dir/config"
  for j in $(seq 1 "$NODES"); do seeds+="${seeds:+, }\"127.0.0.1:$(transport_port "$j")\""; masters+="${masters:+, }node-$j"; done
  mkdir -p "$dir"
  [ -d "$conf" ] || cp -a "$ES_HOME/config.dist" "$conf"
  cat >"$conf/elasticsearch.yml" <<YML
cluster.name: campaign-rewards-cluster
node.name: node-$i
path.data: $dir/data
path.logs: $dir/logs
network.host: 127.0.0.1
http.port: $(http_port "$i")
transport.port: $(transport_port "$i")
discovery.seed_hosts: [$seeds]
# Only read when the cluster forms the first time (empty data directories); ignored afterwards.
cluster.initial_master_nodes: [$masters]
xpack.security.enabled: false
cluster.routing.allocation.disk.threshold_enabled: false
action.destructive_requires_name: false
YML
}

start_node() {
  local i="$1"
  if node_ready "$i"; then log "node-$i already answering on 127.0.0.1:$(http_port "$i")"; return 0; fi
  configure "$i"
  es_start "$(node_dir "$i")/config" "$(node_dir "$i")" "$HEAP"
}

stop_node() { es_stop "$(node_dir "$1")/es.pid" "${2:-TERM}"; }

up() {
  local t0=$(date +%s%N) i pids=()
  es_prepare; ensure_user "$SERVICE_USER"
  # In parallel: each start waits for its JVM to boot, and the first cannot form a cluster alone.
  for i in $(seq 1 "$NODES"); do start_node "$i" & pids+=($!); done
  for i in "${pids[@]}"; do wait "$i"; done
  wait_for 300 "elasticsearch cluster ($NODES nodes, green)" cluster_green || {
    for i in $(seq 1 "$NODES"); do tail -n 15 "$(node_dir "$i")/logs/campaign-rewards-cluster.log" >&2 2>/dev/null || true; done
    exit 1
  }
  log "elasticsearch cluster of $NODES nodes up on $(urls) in $(( ($(date +%s%N) - t0) / 1000000 ))ms"
}

down() {
  local i
  for i in $(seq 1 "$NODES"); do stop_node "$i"; done
  log "elasticsearch cluster stopped"
}

node_arg() {
  [[ "${1:-}" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le "$NODES" ] || { echo "node number 1..$NODES expected" >&2; exit 2; }
  echo "$1"
}

case "${1:-up}" in
  up) up ;;
  down) down ;;
  status) cluster_green && echo green || { echo "not green"; exit 1; } ;;
  urls) urls ;;
  start-node) i="$(node_arg "${2:-}")"; es_prepare; start_node "$i"; wait_for 180 "node-$i" node_ready "$i"; log "node-$i up" ;;
  stop-node) i="$(node_arg "${2:-}")"; stop_node "$i" ;;
  # SIGKILL, as a crash or an out-of-memory kill would: no clean shutdown, no handoff.
  kill-node) i="$(node_arg "${2:-}")"; stop_node "$i" KILL ;;
  *) echo "usage: $0 up|down|status|urls|start-node <i>|stop-node <i>|kill-node <i>" >&2; exit 2 ;;
esac
