#!/usr/bin/env bash
# Throwaway PostgreSQL server for tests: installs Debian's `postgresql` when missing, initialises a cluster
# in a temporary directory on a free port. `source scripts/postgres.sh start` exports TEST_DATABASE_URL;
# `pg_test_stop` stops and deletes it.
set -euo pipefail

pg_bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

pg_install() {
  if [ -n "$(pg_bin_dir)" ]; then return 0; fi
  echo "[postgres] installing Debian's postgresql package" >&2
  local SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >&2
}

pg_test_start() {
  pg_install
  local bin; bin="$(pg_bin_dir)"
  PG_TEST_DIR="$(mktemp -d -t plenum-pg.XXXXXX)"
  local port; port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  local run=""
  if [ "$(id -u)" = "0" ]; then
    chown postgres:postgres "$PG_TEST_DIR"
    run="su postgres -s /bin/bash -c"
  else
    run="bash -c"
  fi
  $run "'$bin/initdb' -D '$PG_TEST_DIR/data' --auth=trust -U postgres >/dev/null"
  $run "'$bin/pg_ctl' -D '$PG_TEST_DIR/data' -l '$PG_TEST_DIR/log' -w -o \"-p $port -k $PG_TEST_DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c shared_buffers=256MB\" start >/dev/null"
  PG_TEST_RUN="$run"
  PG_TEST_BIN="$bin"
  export PG_TEST_DIR PG_TEST_RUN PG_TEST_BIN
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "[postgres] $($bin/postgres --version) on 127.0.0.1:$port" >&2
}

pg_test_stop() {
  if [ -n "${PG_TEST_DIR:-}" ] && [ -d "$PG_TEST_DIR/data" ]; then
    $PG_TEST_RUN "'$PG_TEST_BIN/pg_ctl' -D '$PG_TEST_DIR/data' -m immediate stop >/dev/null 2>&1" || true
    rm -rf "$PG_TEST_DIR"
  fi
}
