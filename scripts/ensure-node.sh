#!/usr/bin/env bash
# Lighthouse (and other npm tools) need Node.js >= 18.16 and npm. Install Debian's when they are missing.
set -euo pipefail
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  exit 0
fi
echo "installing Debian's nodejs and npm" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null
