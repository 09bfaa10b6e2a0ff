#!/bin/sh
# The two-body Hertz loading curve, lambda 0.1 -> 3, by libcont and by AUTO-07p
# in the same run: times, their ratios, and each code's special points and A_max(x1) at
# lambda = 1, 2, 3 checked against independent references (bench/loading_curve_reference.json,
# computed by bench/loading_curve_reference.py; bench/loading_curve_compare.py checks).
#
#   cmake --build build --target bench_loading_curve && bench/loading_curve_vs_auto.sh
#   bench/loading_curve_vs_auto.sh [build-dir]
# Environment: AUTO_MESHES (AUTO's NTST values, the first the headline peer; default
# "400 100": NTST 400 is the coarsest mesh on which AUTO reports no spurious label,
# NTST 100 its cheapest that reaches lambda = 3), TWO_BODY_NCOL, TWO_BODY_EPS (AUTO's
# collocation points and the contact's smoothing width; defaults 4, 1e-6), AUTO_THREADS
# (OpenMP threads of AUTO, default 1, as libcont runs on one: with two, AUTO's CPU time
# counts OpenMP threads spinning while they wait, which on a busy machine inflates it
# several-fold; doc/performance.md), LIBCONT_RUNS (the bench_loading_curve argument sets
# to run, separated by ";"; default: the library defaults alone).
# Exit status: 0 when every check passes, 1 when one fails, 2 on a setup error.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
bench=$build/bench_loading_curve
[ -x "$bench" ] || { echo "no $bench: cmake --build $build --target bench_loading_curve" >&2; exit 2; }
command -v auto-07p > /dev/null || { echo "auto-07p not found (Debian package auto-07p)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/auto/two_body.f90 "$here"/auto/c.two_body "$here"/auto/two_body.auto "$work"/

echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
threads=${AUTO_THREADS:-1}
meshes=${AUTO_MESHES:-400 100}
for ntst in $meshes; do
  echo "running AUTO-07p, NTST $ntst, on $threads thread(s) ..."
  (cd "$work" && OMP_NUM_THREADS=$threads TWO_BODY_NTST=$ntst auto-07p two_body.auto \
     > "auto_$ntst.log" 2>&1) || { tail -20 "$work/auto_$ntst.log" >&2; exit 2; }
done
runs=${LIBCONT_RUNS:-" "}
i=0
echo "$runs" | tr ';' '\n' | while IFS= read -r args; do
  i=$((i + 1))
  echo "running libcont: bench_loading_curve $args ..."
  # shellcheck disable=SC2086
  "$bench" $args > "$work/libcont_$i.log" || true
  echo "$args" > "$work/libcont_$i.args"
done
AUTO_HEADLINE="auto_${meshes%% *}.log" python3 "$here/loading_curve_compare.py" "$work"
