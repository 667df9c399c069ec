#!/usr/bin/env bash
# Installs the Debian packages the tests need (chromium, postgresql) when they are missing (and
# Chromium when it is older than MIN_CHROMIUM);
# scripts/ceph.sh installs Ceph (for the S3 tests) the same way.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium fonts-dejavu-core)
# The browser tests are written against Debian's current Chromium (bookworm-security): an older
# one (bookworm's own) starts no drag from a long press and never fetches a failed module again.
MIN_CHROMIUM=156
if [ -z "${CHROMIUM_PATH:-}" ] && command -v chromium >/dev/null 2>&1; then
  chromium_major=$(chromium --version 2>/dev/null | grep -oE '[0-9]+' | head -n 1)
  [ "${chromium_major:-0}" -ge "$MIN_CHROMIUM" ] || missing+=(chromium)
fi
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "installing: ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
