#!/usr/bin/env bash
# Installs the Debian packages the test tiers drive, when missing
# (docs/operations.md "Toolchain on the test machines"):
# chromium (browser tiers), docker-compose 1.29 (offline compose validation), ClamAV's
# clamd (the scan worker's medium tests; scripts/lib/clamd.mjs starts a private one) and nginx
# (`nginx -t` in the deploy tier, the web tier's private nginx).
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
{ command -v clamd >/dev/null 2>&1 || [ -x /usr/sbin/clamd ]; } || need+=(clamav clamav-daemon)
{ command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } || need+=(nginx)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing packages: ${need[*]} (install them with apt-get as root)" >&2
  exit 1
fi
echo "[vault] installing ${need[*]} from Debian..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# No service starts on install (nginx would take port 80): the tiers start their own, on free ports.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"
  trap 'rm -f "$policy"' EXIT
fi
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
