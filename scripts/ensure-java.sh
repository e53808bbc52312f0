#!/usr/bin/env bash
# The Nu Html Checker (vnu.jar from npm's vnu-jar, in tools/lighthouse) runs on Java 11 or later.
# Install Debian's when java is missing (needs root, as in CI, or sudo). Run before `npm ci` there:
# vnu-jar's install step would otherwise try to download a Java runtime of its own.
set -euo pipefail
if command -v java >/dev/null 2>&1; then
  exit 0
fi
echo "installing Debian's default-jre-headless for the Nu Html Checker" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq default-jre-headless >/dev/null
