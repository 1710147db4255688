#!/usr/bin/env bash
# Elasticsearch 8.x from Maven Central (integ-test-zip), unpacked under .data/es, run with the
# machine's Java 17 as a non-root user, single node on loopback with a small heap.
# Usage: es.sh up|down|status
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ES_DIR="$DATA_DIR/es"
ES_HOME="$ES_DIR/elasticsearch-$ES_VERSION"
ES_HEAP="${ES_HEAP:-512m}"
ZIP="$CACHE_DIR/elasticsearch-$ES_VERSION.zip"

ready() { curl -fsS "http://127.0.0.1:$ES_PORT/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null; }

java_home() {
  local j
  for j in /usr/lib/jvm/java-17-openjdk-*; do [ -x "$j/bin/java" ] && { echo "$j"; return; }; done
  command -v java >/dev/null && dirname "$(dirname "$(readlink -f "$(command -v java)")")"
}

fetch() {
  [ -f "$ZIP" ] && return 0
  command -v mvn >/dev/null || { log "installing maven"; apt_install maven; }
  mkdir -p "$CACHE_DIR"
  log "fetching elasticsearch $ES_VERSION from Maven Central"
  mvn -q dependency:copy -Dartifact="org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION:zip" \
    -DoutputDirectory="$CACHE_DIR" >"$CACHE_DIR/mvn.log" 2>&1 || { cat "$CACHE_DIR/mvn.log" >&2; exit 1; }
}

install() {
  [ -x "$ES_HOME/bin/elasticsearch" ] && return 0
  command -v unzip >/dev/null || apt_install unzip
  mkdir -p "$ES_DIR"
  unzip -q -o "$ZIP" -d "$ES_DIR"
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
  [ -n "$(java_home)" ] || { log "installing java 17"; apt_install openjdk-17-jre-headless; }
  command -v curl >/dev/null || apt_install curl
  fetch; install
  ensure_user "$SERVICE_USER"
  mkdir -p "$ES_DIR/data" "$ES_DIR/logs"
  [ "$(id -u)" = 0 ] && chown -R "$SERVICE_USER" "$ES_DIR"
  local t0=$(date +%s%N) jh; jh="$(java_home)"
  # runuser resets the soft nofile limit; raise it inside the child (hard limit may be 20000 here).
  as_user "$SERVICE_USER" env ES_JAVA_HOME="$jh" ES_JAVA_OPTS="-Xms$ES_HEAP -Xmx$ES_HEAP" \
    bash -c "ulimit -n \$(ulimit -Hn) 2>/dev/null; exec '$ES_HOME/bin/elasticsearch' -d -p '$ES_DIR/es.pid' >'$ES_DIR/stdout.log' 2>&1"
  wait_for 180 elasticsearch ready || { tail -n 40 "$ES_DIR/logs/campaign-rewards.log" >&2 2>/dev/null; exit 1; }
  log "elasticsearch $ES_VERSION up on 127.0.0.1:$ES_PORT in $(( ($(date +%s%N) - t0) / 1000000 ))ms"
}

down() {
  [ -f "$ES_DIR/es.pid" ] || return 0
  local pid; pid="$(cat "$ES_DIR/es.pid")"
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  log "elasticsearch stopped"
}

case "${1:-up}" in
  up) up ;; down) down ;; status) ready && echo up || { echo down; exit 1; } ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
