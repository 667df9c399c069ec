#!/usr/bin/env bash
# pg_start / pg_stop: a throwaway PostgreSQL cluster on loopback for the server tests.
# Sets PG_URL. Runs the server as the `postgres` user when we are root.
PG_ROOT=""
PG_URL=""

pg_as() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_start() {
  local bin port
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$bin" ] || { echo "PostgreSQL is not installed"; return 1; }
  PG_ROOT=$(mktemp -d /tmp/avatar-studio-pg.XXXXXX)
  [ "$(id -u)" -eq 0 ] && chown postgres "$PG_ROOT"
  port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  pg_as "$bin/initdb" -D "$PG_ROOT/data" -A trust -U postgres >"$PG_ROOT/initdb.log" 2>&1 || { cat "$PG_ROOT/initdb.log"; return 1; }
  pg_as "$bin/pg_ctl" -D "$PG_ROOT/data" -l "$PG_ROOT/server.log" -w \
    -o "-p $port -k $PG_ROOT -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off" start >/dev/null || { cat "$PG_ROOT/server.log"; return 1; }
  PG_BIN=$bin
  PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
  export PG_URL
}

pg_stop() {
  [ -n "$PG_ROOT" ] || return 0
  pg_as "$PG_BIN/pg_ctl" -D "$PG_ROOT/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PG_ROOT"
}
