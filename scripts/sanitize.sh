#!/usr/bin/env bash
# The test suite built with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-sanitize/ (Debug-level optimisation -O1 keeps it fast enough; line tables only,
# -g1, are what the sanitizers' reports need and take 40 % less compile time than full debug
# information); long tests skipped. A unity build, as scripts/setup.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIBCONT_SANITIZE=ON \
  -DLIBCONT_BUILD_BENCH=OFF -DCMAKE_UNITY_BUILD=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" >/dev/null
cmake --build build-sanitize -j2
# One quick test is left to the Release build: its point is a long run's numbers (the
# explicit pair at a contact's onset after 10^5 periods), its code is the shorter tests',
# and under the sanitizers it takes minutes.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-sanitize --output-on-failure -j2 -LE long \
  -E "explicit pair takes the Hertz contact's onset late in a long run"
