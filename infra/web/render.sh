#!/bin/sh
# Renders the web tier's nginx configuration and /env-config.js from the environment, into
# WEB_RUNTIME_DIR (a writable folder: the image's root filesystem stays read-only). The image runs
# it at start as a /docker-entrypoint.d script; scripts/web-tier-e2e.mjs and infra/validate.mjs run
# it on this machine. Every value is checked before it reaches the configuration: a bad one stops
# with a line naming the variable and exit code 1, as the services do (infra/web/README.md).
set -eu

fail() {
  echo "vault-web: $1" >&2
  exit 1
}

# One line matching the extended regular expression $1 whole (a newline never passes).
matches() {
  case $2 in *'
'*) return 1 ;; esac
  printf '%s\n' "$2" | grep -Eqx -- "$1"
}

# A decimal whole number in [min, max]; leading zeros are dropped. $1 name, $2 value, $3 min, $4 max.
number() {
  matches '[0-9]{1,9}' "$2" || fail "$1: must be a whole number of milliseconds, not '$2'"
  n=$(printf '%s' "$2" | sed 's/^0*//')
  n=${n:-0}
  [ "$n" -ge "$3" ] && [ "$n" -le "$4" ] || fail "$1: must be between $3 and $4, not $n"
  printf '%s' "$n"
}

# The origin (scheme://host[:port], lower case, default port dropped) of an http(s) URL, as the
# gateway reduces S3_PUBLIC_ENDPOINT and CLOUDINARY_UPLOAD_ORIGIN for its CSP. $1 name, $2 value.
origin() {
  matches '[Hh][Tt][Tt][Pp][Ss]?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?([/?#].*)?' "$2" ||
    fail "$1: not an http(s) URL without user or password: $2"
  o=$(printf '%s\n' "$2" | sed -E 's#^([^:]+://[^/?#]+).*#\1#' | tr 'A-Z' 'a-z')
  case $o in
    http://*:80) o=${o%:80} ;;
    https://*:443) o=${o%:443} ;;
  esac
  port=$(printf '%s\n' "$o" | sed -nE 's#^.*[^:]:([0-9]+)$#\1#p')
  [ -z "$port" ] || [ "$port" -le 65535 ] || fail "$1: port $port is out of range"
  printf '%s' "$o"
}

here=$(cd "$(dirname "$0")" && pwd)
TEMPLATES=${WEB_TEMPLATE_DIR:-$here}
OUT=${WEB_RUNTIME_DIR:-/tmp/vault-web}
LISTEN_PORT=${LISTEN_PORT:-8080}
LISTEN_ADDRESS=${LISTEN_ADDRESS:-}
GATEWAY_UPSTREAM=${GATEWAY_UPSTREAM:-gateway:8080}
WEB_ROOT=${WEB_ROOT:-/usr/share/nginx/html}
NGINX_MIME_TYPES=${NGINX_MIME_TYPES:-/etc/nginx/mime.types}
# The container's stdout by default; a file, or `off`, where stdout cannot be opened by path.
WEB_ACCESS_LOG=${WEB_ACCESS_LOG:-/dev/stdout}

path='/[A-Za-z0-9._/-]*'
matches "$path" "$OUT" || fail "WEB_RUNTIME_DIR: must be an absolute path of letters, digits, . _ - /: $OUT"
matches "$path" "$WEB_ROOT" || fail "WEB_ROOT: must be an absolute path of letters, digits, . _ - /: $WEB_ROOT"
matches "$path" "$NGINX_MIME_TYPES" || fail "NGINX_MIME_TYPES: must be an absolute path: $NGINX_MIME_TYPES"
[ "$WEB_ACCESS_LOG" = off ] || matches "$path" "$WEB_ACCESS_LOG" ||
  fail "WEB_ACCESS_LOG: must be an absolute path or off: $WEB_ACCESS_LOG"
matches '[1-9][0-9]{0,4}' "$LISTEN_PORT" && [ "$LISTEN_PORT" -le 65535 ] ||
  fail "LISTEN_PORT: must be a port number (1-65535), not '$LISTEN_PORT'"
[ -z "$LISTEN_ADDRESS" ] || matches '[0-9.]+|\[[0-9A-Fa-f:.]+\]' "$LISTEN_ADDRESS" ||
  fail "LISTEN_ADDRESS: must be an IPv4 address or [IPv6] address, not '$LISTEN_ADDRESS'"
matches '([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):[1-9][0-9]{0,4}' "$GATEWAY_UPSTREAM" ||
  fail "GATEWAY_UPSTREAM: must be host:port (gateway:8080), not '$GATEWAY_UPSTREAM'"
[ -f "$WEB_ROOT/index.html" ] || fail "WEB_ROOT: $WEB_ROOT has no index.html (build the web app first)"

# The web app's settings, under the gateway's names, defaults and bounds (apps/gateway/README.md).
timeout_ms=$(number WEB_INACTIVITY_TIMEOUT_MS "${WEB_INACTIVITY_TIMEOUT_MS:-600000}" 1000 86400000)
warning_ms=$(number WEB_INACTIVITY_WARNING_MS "${WEB_INACTIVITY_WARNING_MS:-60000}" 1000 86400000)
[ "$warning_ms" -lt "$timeout_ms" ] || fail "WEB_INACTIVITY_WARNING_MS: must be less than WEB_INACTIVITY_TIMEOUT_MS"

# The CSP's connect-src: this origin, then the storage origins browsers reach directly, once each.
connect=''
for name in S3_PUBLIC_ENDPOINT CLOUDINARY_UPLOAD_ORIGIN; do
  eval "value=\${$name:-}"
  value=$(printf '%s' "$value" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')
  [ -n "$value" ] || continue
  o=$(origin "$name" "$value")
  case " $connect " in *" $o "*) ;; *) connect="$connect $o" ;; esac
done

listen=$LISTEN_PORT
access_log="$WEB_ACCESS_LOG vault"
[ "$WEB_ACCESS_LOG" != off ] || access_log=off
[ -z "$LISTEN_ADDRESS" ] || listen="$LISTEN_ADDRESS:$LISTEN_PORT"

mkdir -p "$OUT"
render() {
  sed -e "s|\${LISTEN}|$listen|g" \
    -e "s|\${GATEWAY_UPSTREAM}|$GATEWAY_UPSTREAM|g" \
    -e "s|\${WEB_ROOT}|$WEB_ROOT|g" \
    -e "s|\${WEB_RUNTIME_DIR}|$OUT|g" \
    -e "s|\${NGINX_MIME_TYPES}|$NGINX_MIME_TYPES|g" \
    -e "s|\${CSP_CONNECT_EXTRA}|$connect|g" \
    -e "s|\${ACCESS_LOG}|$access_log|g" \
    "$TEMPLATES/$1.template" >"$OUT/$1.tmp"
  mv "$OUT/$1.tmp" "$OUT/$1"
}
render nginx.conf
render security-headers.conf
render proxy.conf
# What the gateway's GET /env-config.js answers (routes/web-config): numbers only, nothing to escape.
printf 'window.__VAULT_CONFIG__ = Object.freeze({"inactivityTimeoutMs":%s,"inactivityWarningMs":%s});\n' \
  "$timeout_ms" "$warning_ms" >"$OUT/env-config.js.tmp"
mv "$OUT/env-config.js.tmp" "$OUT/env-config.js"
chmod 0644 "$OUT/nginx.conf" "$OUT/security-headers.conf" "$OUT/proxy.conf" "$OUT/env-config.js"
echo "vault-web: rendered $OUT/nginx.conf (listen $listen, gateway $GATEWAY_UPSTREAM, web root $WEB_ROOT)"
