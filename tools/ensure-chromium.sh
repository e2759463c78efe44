#!/usr/bin/env bash
# Installs Debian's chromium (headless passkey end-to-end test) when it is not there yet.
# Idempotent: does nothing when a chromium binary already answers.
set -euo pipefail
CHROMIUM_BIN="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM_BIN" ] && "$CHROMIUM_BIN" --version >/dev/null 2>&1; then
  echo "chromium present: $("$CHROMIUM_BIN" --version)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium
"$CHROMIUM_BIN" --version
