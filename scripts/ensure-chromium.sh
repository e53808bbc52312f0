#!/usr/bin/env bash
# What the browser tests need from Debian, installed when missing (needs root, as in CI, or sudo):
# Chromium (Lighthouse and pa11y start the full browser; Playwright drives its headless shell, as Playwright's
# own headless runs do; it cannot download its own browsers here), a font for the screenshots, and npm (it
# installs axe-core from package-lock.json for the accessibility tests).
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/lib/chromium/chromium-headless-shell ] || need+=(chromium-headless-shell)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ "${#need[@]}" -eq 0 ]; then
  exit 0
fi
echo "installing for the browser tests: ${need[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
