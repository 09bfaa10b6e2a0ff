#!/usr/bin/env bash
# Configures and builds libcont into build/ (Release) with both cores.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j2
