#!/usr/bin/env bash
# Installs the Debian packages the test tiers drive, when missing (docs/toolchain-notes.md):
# chromium (browser tiers) and docker-compose 1.29 (offline compose validation).
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing packages: ${need[*]} (install them with apt-get as root)" >&2
  exit 1
fi
echo "[vault] installing ${need[*]} from Debian..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
