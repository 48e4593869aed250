#!/usr/bin/env bash
# Chromium for the browser tests of the review pages, the last resort: Debian's package.
#
#   .ci/chromium.sh
#       Installs Chromium (apt-get install chromium, as root or with sudo) when /usr/bin/chromium
#       is missing, then prints CHROMIUM=/usr/bin/chromium on stdout (progress goes to stderr).
#
# The tests (tests/service/chromium.ts) call it only when they find no browser of their own:
# EVALGATE_TEST_CHROMIUM, a Chromium or Chrome on PATH or in the usual places (macOS included),
# or one that Playwright installed. They launch it through playwright-core with --headless
# --disable-gpu --disable-quic --no-first-run --disable-background-networking
# --disable-component-update --disable-sync and a fresh profile (nothing reaches the internet),
# in Chromium's sandbox except as root or where the sandbox cannot work (then --no-sandbox).
set -euo pipefail

log() { echo "chromium.sh: $*" >&2; }
die() {
  log "$*"
  exit 1
}

CHROMIUM=/usr/bin/chromium

if [ ! -x "$CHROMIUM" ]; then
  log "Chromium is not installed; installing Debian's chromium with apt-get"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: install Chromium or Chrome yourself, or set EVALGATE_TEST_CHROMIUM"
    # Without a terminal nobody can type a password: fail at once instead of waiting.
    if [ -t 0 ]; then sudo=(sudo); else sudo=(sudo -n); fi
  fi
  command -v apt-get >/dev/null || die "no apt-get: install Chromium or Chrome yourself, or set EVALGATE_TEST_CHROMIUM"
  ${sudo[@]+"${sudo[@]}"} apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
  ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive \
    apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium >&2
  [ -x "$CHROMIUM" ] || die "chromium was installed but $CHROMIUM is missing"
fi
log "$("$CHROMIUM" --version 2>/dev/null || echo "chromium at $CHROMIUM")"
echo "CHROMIUM=$CHROMIUM"
