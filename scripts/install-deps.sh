#!/usr/bin/env bash
# Installs the Debian packages libcont needs, and only those that are missing.
# Idempotent and quiet when nothing is missing.
#   scripts/install-deps.sh           what the library, vicont and the tests need
#   scripts/install-deps.sh --bench   also the peers the benchmarks run against
#                                     (python3-scipy, auto-07p; doc/performance.md)
set -euo pipefail
packages=(build-essential cmake python3 libsundials-dev libeigen3-dev libspectra-dev
  libboost-math-dev libboost-dev libboost-iostreams-dev libboost-filesystem-dev
  libboost-system-dev catch2 gnuplot-nox libgnuplot-iostream-dev libcli11-dev
  nlohmann-json3-dev libopenmpi-dev openmpi-bin pkg-config
  python3-pybind11 python3-dev python3-numpy python3-matplotlib python3-pytest)
if [ "${1:-}" = "--bench" ]; then
  packages+=(python3-scipy python3-numpy auto-07p)
elif [ $# -gt 0 ]; then
  echo "install-deps.sh: unknown option '$1' (the only option is --bench)" >&2
  exit 2
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
