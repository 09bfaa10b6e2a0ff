#!/bin/sh
# The two-body Hertz loading curve, lambda 0.1 -> 3, by libcont and by AUTO-07p
# in the same run: times, their ratio, A_max(x1) at lambda = 1, 2, 3 (agreement within
# 1e-4 relative is the accuracy check) and the special points of both side by side.
#
#   cmake --build build --target bench_loading_curve && bench/loading_curve_vs_auto.sh
#   bench/loading_curve_vs_auto.sh [build-dir]
# Environment: TWO_BODY_NTST, TWO_BODY_NCOL, TWO_BODY_EPS (AUTO's mesh and the contact's
# smoothing width; defaults 100, 4, 1e-6), AUTO_THREADS (OpenMP threads of AUTO, default
# 1, as libcont runs on one: with two, AUTO's CPU time counts OpenMP threads spinning
# while they wait, which on a busy machine inflates it several-fold; doc/performance.md),
# LIBCONT_RUNS (the bench_loading_curve argument sets to run, separated by ";"; default:
# the library defaults (the explicit Runge-Kutta pair in the contact), then CVODE's Adams
# there, --method adams).
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
echo "running AUTO-07p on $threads thread(s) ..."
(cd "$work" && OMP_NUM_THREADS=$threads auto-07p two_body.auto > auto.log 2>&1) || { tail -20 "$work/auto.log" >&2; exit 2; }
runs=${LIBCONT_RUNS:-" ;--method adams"}
i=0
echo "$runs" | tr ';' '\n' | while IFS= read -r args; do
  i=$((i + 1))
  echo "running libcont: bench_loading_curve $args ..."
  # shellcheck disable=SC2086
  "$bench" $args > "$work/libcont_$i.log" || true
  echo "$args" > "$work/libcont_$i.args"
done
python3 "$here/loading_curve_compare.py" "$work"
