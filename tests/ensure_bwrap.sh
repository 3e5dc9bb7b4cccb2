#!/usr/bin/env bash
# Make sure bubblewrap (the operating-system sandbox for students' strategies) is installed.
# Installs Debian's bubblewrap when run as root with apt-get; otherwise says loudly what is missing.
# The sandbox tests themselves FAIL (never skip) when bubblewrap is missing or cannot start.
set -u
bwrap="${GOPSKIT_BWRAP:-/usr/bin/bwrap}"
if [ -x "$bwrap" ] || command -v bwrap >/dev/null 2>&1; then
  exit 0
fi
if [ "$(uname -s)" = "Linux" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's bubblewrap for the student-code sandbox..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null && exit 0
fi
cat >&2 <<MSG
************************************************************************
*  NO BUBBLEWRAP FOUND at $bwrap
*  Students' strategies would run with the in-process fence only, and
*  tests/test_sandbox_hostile.py will FAIL. Install it with
*      sudo apt-get install bubblewrap
*  or point GOPSKIT_BWRAP at a bwrap binary.
************************************************************************
MSG
exit 0
