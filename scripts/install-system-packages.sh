#!/usr/bin/env bash
# Debian packages the project uses beyond Node: chromium (browser tests of /docs and
# /playground) and libjemalloc2 (the allocator the start command prefers; sharp's
# recommendation on glibc). Installs only what is missing; needs root or sudo.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/*/libjemalloc.so.2 >/dev/null 2>&1 || missing+=(libjemalloc2)
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "[system packages] installing ${missing[*]} with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
