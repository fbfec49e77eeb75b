#!/usr/bin/env bash
# Debian packages the project uses beyond Node: chromium (browser tests of /docs and
# /playground) and libjemalloc2 (the allocator the start command prefers; sharp's
# recommendation on glibc). Installs only what is missing; needs root or sudo.
#
# Chromium comes with its recommended packages, as `apt install chromium` gives users
# (chromium-common recommends fonts-liberation, upower, udev, libgl1-mesa-dri, ...): the
# tests must run on what users' machines hold. A bug showed only where fonts-liberation
# was installed (the drawing threads picked up a host font;
# test/system/process/drawing-threads.test.ts). A chromium installed earlier without its
# recommended packages gets the missing ones. libjemalloc2 needs nothing beyond itself.
set -euo pipefail

installed () { [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]; }

# The recommended packages of the installed chromium and chromium-common that are not
# installed: for each unmet "a | b" choice, its first package.
missing_chromium_recommends () {
  local group choice met
  dpkg-query -W -f='${Recommends},' chromium chromium-common 2>/dev/null | tr ',' '\n' |
    sed -E 's/\([^)]*\)//g; s/:[a-z0-9]+//g; s/[[:space:]]+//g' |
    while IFS= read -r group; do
      [ -n "$group" ] || continue
      met=""
      IFS='|' read -ra choices <<< "$group"
      for choice in "${choices[@]}"; do installed "$choice" && met=1 && break; done
      [ -n "$met" ] || echo "${choices[0]}"
    done
}

with_recommends=()
if ! command -v chromium >/dev/null 2>&1; then
  with_recommends=(chromium)
else
  mapfile -t with_recommends < <(missing_chromium_recommends)
fi
alone=()
ls /usr/lib/*/libjemalloc.so.2 >/dev/null 2>&1 || alone+=(libjemalloc2)
[ ${#with_recommends[@]} -eq 0 ] && [ ${#alone[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
all=("${with_recommends[@]}" "${alone[@]}")
echo "[system packages] installing ${all[*]} with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# Explicit, whatever the machine's APT::Install-Recommends says.
[ ${#with_recommends[@]} -eq 0 ] || $sudo apt-get install -y -qq --install-recommends "${with_recommends[@]}" >/dev/null
[ ${#alone[@]} -eq 0 ] || $sudo apt-get install -y -qq --no-install-recommends "${alone[@]}" >/dev/null
