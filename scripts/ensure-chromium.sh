#!/usr/bin/env bash
# Browser tests drive Debian's Chromium through Playwright (which cannot download its own browsers here).
# Install it when it is missing; needs root (CI runs as root) or sudo.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "installing Debian's chromium for the browser tests" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
