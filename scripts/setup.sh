#!/usr/bin/env bash
# One step for a fresh Debian 12 machine: install what is missing, configure and build
# libcont into build/ (Release, both cores).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2
