# Elasticsearch helpers shared by es.sh (one node) and esCluster.sh (N nodes): the 8.x
# distribution from Maven Central (integ-test-zip), unpacked once under .data/es, Java 17, and
# starting one node as the non-root service user. Sourced after lib.sh, never executed.
ES_DIR="$DATA_DIR/es"
ES_HOME="$ES_DIR/elasticsearch-$ES_VERSION"
ZIP="$CACHE_DIR/elasticsearch-$ES_VERSION.zip"

java_home() {
  local j
  for j in /usr/lib/jvm/java-17-openjdk-*; do [ -x "$j/bin/java" ] && { echo "$j"; return; }; done
  command -v java >/dev/null && dirname "$(dirname "$(readlink -f "$(command -v java)")")"
}

es_fetch() {
  [ -f "$ZIP" ] && return 0
  command -v mvn >/dev/null || { log "installing maven"; apt_install maven; }
  mkdir -p "$CACHE_DIR"
  log "fetching elasticsearch $ES_VERSION from Maven Central"
  mvn -q dependency:copy -Dartifact="org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION:zip" \
    -DoutputDirectory="$CACHE_DIR" >"$CACHE_DIR/mvn.log" 2>&1 || { cat "$CACHE_DIR/mvn.log" >&2; exit 1; }
}

# Java, curl and the unpacked distribution (idempotent).
es_prepare() {
  [ -n "$(java_home)" ] || { log "installing java 17"; apt_install openjdk-17-jre-headless; }
  command -v curl >/dev/null || apt_install curl
  if [ ! -x "$ES_HOME/bin/elasticsearch" ]; then
    es_fetch
    command -v unzip >/dev/null || apt_install unzip
    mkdir -p "$ES_DIR"
    unzip -q -o "$ZIP" -d "$ES_DIR"
  fi
  # The distribution's config directory (jvm.options, log4j2.properties): what each cluster node's starts from.
  [ -d "$ES_HOME/config.dist" ] || cp -a "$ES_HOME/config" "$ES_HOME/config.dist"
}

# es_start CONF_DIR NODE_DIR HEAP: starts one node daemonized as the service user (pid in NODE_DIR/es.pid).
es_start() {
  local conf="$1" dir="$2" heap="$3" jh
  ensure_user "$SERVICE_USER"
  mkdir -p "$dir/data" "$dir/logs"
  [ "$(id -u)" = 0 ] && chown -R "$SERVICE_USER" "$dir" "$conf"
  jh="$(java_home)"
  # runuser resets the soft nofile limit; raise it inside the child (hard limit may be 20000 here).
  as_user "$SERVICE_USER" env ES_JAVA_HOME="$jh" ES_PATH_CONF="$conf" ES_JAVA_OPTS="-Xms$heap -Xmx$heap" \
    bash -c "ulimit -n \$(ulimit -Hn) 2>/dev/null; exec '$ES_HOME/bin/elasticsearch' -d -p '$dir/es.pid' >'$dir/stdout.log' 2>&1"
}

# es_stop PIDFILE [SIGNAL]: signals the node and waits (up to 20 s) until it is gone.
es_stop() {
  local pidfile="$1" signal="${2:-TERM}" pid
  [ -f "$pidfile" ] || return 0
  pid="$(cat "$pidfile")"
  kill "-$signal" "$pid" 2>/dev/null || { rm -f "$pidfile"; return 0; }
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  rm -f "$pidfile"
}
