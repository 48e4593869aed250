#!/usr/bin/env bash
# Chromium for the browser tests of the review pages: Debian's package.
#
#   .ci/chromium.sh
#       Installs Chromium (apt-get install chromium) when /usr/bin/chromium is missing, then
#       prints CHROMIUM=/usr/bin/chromium on stdout (progress goes to stderr).
#
# The tests launch it through playwright-core with --headless --no-sandbox (root cannot use the
# sandbox) --disable-gpu --disable-quic --no-first-run --disable-background-networking
# --disable-component-update --disable-sync and a fresh profile: nothing reaches the internet.
set -euo pipefail

log() { echo "chromium.sh: $*" >&2; }
die() {
  log "$*"
  exit 1
}

CHROMIUM=/usr/bin/chromium

if [ ! -x "$CHROMIUM" ]; then
  log "Chromium is not installed; installing it with apt-get"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: install Chromium (apt-get install chromium)"
    sudo="sudo"
  fi
  command -v apt-get >/dev/null || die "no apt-get: install Chromium at $CHROMIUM by hand"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >&2
  [ -x "$CHROMIUM" ] || die "chromium was installed but $CHROMIUM is missing"
fi
log "$("$CHROMIUM" --version 2>/dev/null || echo "chromium at $CHROMIUM")"
echo "CHROMIUM=$CHROMIUM"
