#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the Postgres tests (issue 16).
#
#   scripts/postgres.sh start   installs Debian's `postgresql` when missing,
#                               initdb's a cluster in a new temporary directory,
#                               starts it on a free loopback port and prints
#                                 BDK_PG_DIR=<dir>
#                                 DATABASE_URL=postgres://bdk@127.0.0.1:<port>/bdk
#                               (`eval "$(scripts/postgres.sh start)"` sets both)
#                               (BDK_PG_SETTINGS, e.g. "-c shared_preload_libraries=pg_stat_statements",
#                               adds server settings: bench/cluster profiles with it)
#   scripts/postgres.sh stop <dir>
#                               stops that cluster and removes its directory
#
# The cluster trusts local connections (loopback only, no password): it lives
# for one test run. initdb and the server refuse to run as root, so as root
# they run as the `postgres` user the Debian package creates.
set -euo pipefail
cd "$(dirname "$0")/.."

# The newest installed server's binaries (Debian keeps them out of PATH).
pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$dir" ] && [ -x "$dir/initdb" ] && echo "$dir"
}

# Runs a server binary as a user it accepts: ourselves, or `postgres` when we are root.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
  else
    "$@"
  fi
}

install_postgres() {
  echo "Installing from Debian for the tests: postgresql" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
}

free_port() {
  node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

start() {
  local bin dir port
  bin=$(pg_bin) || { install_postgres; bin=$(pg_bin); } || { echo "postgres.sh: no initdb after installing postgresql" >&2; exit 1; }
  if [ "$(id -u)" -eq 0 ]; then
    # Under /tmp, not $TMPDIR: the postgres user must be able to reach it (root's own temp dir may be private).
    dir=$(mktemp -d /tmp/bdk-pg-XXXXXX)
    chown postgres: "$dir"
  else
    dir=$(mktemp -d "${TMPDIR:-/tmp}/bdk-pg-XXXXXX")
  fi
  as_owner "$bin/initdb" -D "$dir/data" --username=bdk --auth=trust --encoding=UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  port=$(free_port)
  # Sockets in the cluster's own directory: nothing touches /var/run/postgresql.
  if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 ${BDK_PG_SETTINGS:-}" start >/dev/null; then
    cat "$dir/server.log" >&2
    exit 1
  fi
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U bdk bdk
  echo "BDK_PG_DIR=$dir"
  echo "DATABASE_URL=postgres://bdk@127.0.0.1:$port/bdk"
}

stop() {
  local dir=${1:?usage: postgres.sh stop <dir>}
  local bin
  bin=$(pg_bin)
  [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  *) echo "usage: scripts/postgres.sh start | stop <dir>" >&2; exit 2 ;;
esac
