# Shared helpers for the service scripts: project paths, ports, running as a non-root user.
# Sourced, never executed. Every value can be overridden from the environment.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA_DIR="${DATA_DIR:-$ROOT/.data}"
CACHE_DIR="${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/campaign-rewards-api}"
PG_PORT="${PG_PORT:-55432}"
ES_PORT="${ES_PORT:-59200}"
ES_VERSION="${ES_VERSION:-8.19.21}"
SERVICE_USER="${SERVICE_USER:-rewardsvc}"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# Runs a command as the unprivileged service user when we are root (PostgreSQL and
# Elasticsearch both refuse root), or as ourselves otherwise.
as_user() {
  local user="$1"; shift
  if [ "$(id -u)" = 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi
}

ensure_user() {
  local user="$1"
  [ "$(id -u)" = 0 ] || return 0
  id "$user" >/dev/null 2>&1 || useradd --system --create-home --shell /bin/bash "$user"
}

# apt-get install for packages whose command is missing; needs root.
apt_install() {
  if [ "$(id -u)" != 0 ]; then log "missing packages $*: install them (apt-get install $*)"; exit 1; fi
  if [ -z "${APT_UPDATED:-}" ]; then apt-get update -qq >/dev/null; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

wait_for() { # wait_for SECONDS DESCRIPTION CMD...
  local secs="$1" what="$2"; shift 2
  local deadline=$(( $(date +%s) + secs ))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then log "$what did not come up within ${secs}s"; return 1; fi
    sleep 0.3
  done
}
