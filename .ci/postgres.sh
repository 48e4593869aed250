#!/usr/bin/env bash
# A throwaway PostgreSQL for the checkpointer tests.
#
#   .ci/postgres.sh [start] [--no-install]
#       Installs PostgreSQL (Debian: apt-get install postgresql) when it is missing, unless
#       --no-install; starts a new cluster in a temp dir on a free 127.0.0.1 port (as the postgres
#       user when run as root; trust auth, no fsync), creates the database "evalgate" and prints
#           DATABASE_URL=postgres://postgres@127.0.0.1:<port>/evalgate
#           EVALGATE_PG_DIR=<the temp dir>
#       on stdout (progress goes to stderr).
#   .ci/postgres.sh stop <EVALGATE_PG_DIR>
#       Stops that cluster and removes its temp dir.
set -euo pipefail

log() { echo "postgres.sh: $*" >&2; }
die() {
  log "$*"
  exit 1
}

# The bin folder of the newest PostgreSQL under /usr/lib/postgresql, or nothing.
find_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; fi
  done | sort -t/ -k4,4n | tail -n 1
}

# Runs a command as the postgres user when we are root (initdb refuses root), else as ourselves.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

install_postgres() {
  log "PostgreSQL is not installed; installing it with apt-get"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: install PostgreSQL (apt-get install postgresql)"
    sudo="sudo"
  fi
  command -v apt-get >/dev/null || die "no apt-get: install PostgreSQL (initdb, pg_ctl) by hand"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >&2
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();});'
}

start() {
  local install=1 arg
  for arg in "$@"; do
    case "$arg" in
      --no-install) install=0 ;;
      *) die "unknown option: $arg" ;;
    esac
  done

  local bin
  bin="$(find_bin)"
  if [ -z "$bin" ]; then
    [ "$install" -eq 1 ] || die "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); run .ci/postgres.sh to install it"
    install_postgres
    bin="$(find_bin)"
    [ -n "$bin" ] || die "PostgreSQL was installed but no /usr/lib/postgresql/*/bin/initdb was found"
  fi
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "running as root but there is no postgres user to run the server as"
  fi

  local dir
  dir="$(mktemp -d "${TMPDIR:-/tmp}/evalgate-pg.XXXXXX")"
  chmod 700 "$dir"
  [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
  log "initdb in $dir ($bin)"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; die "initdb failed"; }

  local port attempt started=0
  for attempt in 1 2 3 4 5; do
    port="$(free_port)"
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >&2; then
      started=1
      break
    fi
    log "start on port $port failed (attempt $attempt)"
  done
  if [ "$started" -ne 1 ]; then
    cat "$dir/server.log" >&2 || true
    die "the server did not start"
  fi
  "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres evalgate >&2
  log "running on 127.0.0.1:$port; stop with: .ci/postgres.sh stop $dir"
  echo "DATABASE_URL=postgres://postgres@127.0.0.1:$port/evalgate"
  echo "EVALGATE_PG_DIR=$dir"
}

stop() {
  local dir="${1:-}"
  [ -n "$dir" ] || die "usage: .ci/postgres.sh stop <EVALGATE_PG_DIR>"
  case "$(basename "$dir")" in
    evalgate-pg.*) ;;
    *) die "$dir is not a directory this script made" ;;
  esac
  [ -d "$dir" ] || { log "$dir is gone already"; return 0; }
  local bin
  bin="$(find_bin)"
  if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >&2 || log "pg_ctl stop failed"
  fi
  rm -rf "$dir"
}

command="${1:-start}"
case "$command" in
  start)
    shift || true
    start "$@"
    ;;
  --no-install) start "$@" ;;
  stop)
    shift
    stop "$@"
    ;;
  *) die "usage: .ci/postgres.sh [start] [--no-install] | stop <EVALGATE_PG_DIR>" ;;
esac
