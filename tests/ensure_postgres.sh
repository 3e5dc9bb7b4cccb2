#!/usr/bin/env bash
# A throwaway PostgreSQL server on localhost for the classroom store tests.
#
#   bash tests/ensure_postgres.sh install  install Debian's postgresql if missing (root with apt-get);
#                                          says loudly when it cannot, but exits 0 (the tests then fail)
#   bash tests/ensure_postgres.sh [start]  install if needed, start a cluster (or reuse the running one)
#                                          and print its URL on the last line of stdout
#   bash tests/ensure_postgres.sh stop     stop the cluster and delete its folder
#
# The cluster lives in $GOPSKIT_PG_DIR (default /tmp/gopskit-pg-$(id -u)): data, socket, log,
# (a pytest run sets GOPSKIT_PG_DIR to a folder of its own and stops that cluster when it ends:
# see tests/conftest.py),
# and a file `url` holding postgresql://gopskit@127.0.0.1:PORT/gopskit_test. It listens on a
# free localhost port only, trusts local connections (test data only), and runs without fsync.
# PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
# Exits non-zero, loudly, when no PostgreSQL can be had: the tests then FAIL, never skip.
set -euo pipefail

action="${1:-start}"
dir="${GOPSKIT_PG_DIR:-/tmp/gopskit-pg-$(id -u)}"
dbname="gopskit_test"

fail() {
  banner "$1"
  exit 1
}

banner() {
  cat >&2 <<MSG
************************************************************************
*  POSTGRESQL FOR THE CLASSROOM TESTS: $1
*  Install it with   sudo apt-get install postgresql
*  (or set GOPSKIT_TEST_POSTGRES_URL to a server the tests may use).
************************************************************************
MSG
}

pg_bindir() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$found" ] && [ -x "$found/initdb" ] && [ -x "$found/pg_ctl" ]; then
    echo "$found"
  fi
}

install_postgres() {
  [ -n "$(pg_bindir)" ] && return 0
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's postgresql for the classroom store tests..." >&2
    apt-get update -qq >&2 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 || fail "apt-get install postgresql failed"
  fi
  [ -n "$(pg_bindir)" ] || fail "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin"
}

# Run a command as the cluster's owner: ourselves, or `postgres` when we are root.
as_owner() {
  if [ "$(id -u)" = "0" ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

is_running() {
  [ -f "$dir/url" ] && [ -f "$dir/port" ] || return 1
  "$bin/pg_isready" -q -h 127.0.0.1 -p "$(cat "$dir/port")" -d "$dbname" -U gopskit
}

start_cluster() {
  if is_running; then
    echo "reusing the PostgreSQL cluster in $dir" >&2
    cat "$dir/url"
    return 0
  fi
  as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  mkdir -p "$dir"
  [ "$(id -u)" = "0" ] && chown postgres: "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U gopskit -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; fail "initdb failed (log above)"; }
  local port
  port=$(free_port)
  # 9>&-: the server must not inherit the lock, or the next caller would wait for ever
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >&2 9>&- || { cat "$dir/server.log" >&2; fail "the server did not start (log above)"; }
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U gopskit "$dbname" || fail "createdb failed"
  echo "$port" >"$dir/port"
  echo "postgresql://gopskit@127.0.0.1:$port/$dbname" >"$dir/url"
  echo "started a PostgreSQL cluster in $dir" >&2
  cat "$dir/url"
}

stop_cluster() {
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
  fi
  rm -rf "$dir"
}

case "$action" in
  install)  # for `make test`: never stop the run here; the PostgreSQL tests fail loudly instead
    ( install_postgres ) || banner "the PostgreSQL tests will FAIL until it is installed"
    exit 0
    ;;
  start)
    install_postgres
    bin=$(pg_bindir)
    mkdir -p "$(dirname "$dir")"
    exec 9>"$dir.lock"
    flock 9
    start_cluster
    ;;
  stop)
    bin=$(pg_bindir)
    [ -n "$bin" ] || exit 0
    exec 9>"$dir.lock"
    flock 9
    stop_cluster
    ;;
  *)
    echo "usage: $0 [install|start|stop]" >&2
    exit 2
    ;;
esac
