#!/usr/bin/env bash
# Make sure a Chromium for the real-browser tests is installed.
# Installs Debian's chromium when run as root with apt-get; otherwise says loudly what is missing.
# The browser tests themselves FAIL (never skip) when no Chromium is found.
set -u
browser="${GOPSKIT_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$browser" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null && exit 0
fi
cat >&2 <<MSG
************************************************************************
*  NO CHROMIUM FOUND at $browser
*  The real-browser tests will FAIL. Install it with
*      sudo apt-get install chromium
*  or point GOPSKIT_CHROMIUM at a Chromium binary.
************************************************************************
MSG
exit 0
