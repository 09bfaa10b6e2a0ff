#!/bin/sh
# The moving-base oscillator's periodic windows as parameter-plane maps (doc/maps.md):
#   1. hard impacts, (omega, r): omega from 2 to 10, r from 0.6 to 1;
#   2. soft contact (model = soft, r = 1, so c_s = 0), (omega, k_s) in two boxes, because
#      `vicont map` has linear axes only and k_s runs over three decades (100 to 200000):
#      k_s from 100 to 2100 (the values 100, 500 and 2000) and from 2000 to 200000.
# Each map traces the fold, period-doubling, Neimark-Sacker and grazing curves of the
# orbits z = 1/1 .. 1/5 and runs a brute-force grid of the same box (every cell from rest,
# 500 transient + 300 measured forcing periods, omega in steps of 0.05 like the source's
# sweep). Then, from the files, the windows along the lines of the source's figures:
#   crossings.csv  where each traced curve (its kind, and z = impacts/n of its orbit)
#                  crosses the lines r = 1, 0.8, 0.6 and k_s = 100, 500, 2000, 200000
#                  (linear interpolation between the curve's rows);
#   windows.csv    the runs of grid cells of one z along the same lines.
# The PNGs (drawn by --format png) are copied into FIGURES (default doc/figures/; the doc
# checks give another).
#
# Usage: examples/parameter_plane_maps.sh [VICONT [OUT [FIGURES]]]
#        (defaults: build/vicont, out/parameter_plane_maps and doc/figures)
# POSIX sh and awk. About 30 s of CPU (doc/maps.md). Exit status: 0, or 1 when a map
# ended with a non-zero status (its summary says why; the other maps still run).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
vicont=${1:-"$repo/build/vicont"}
out=${2:-out/parameter_plane_maps}
figures=${3:-"$repo/doc/figures"}

if [ ! -x "$vicont" ]; then
  echo "vicont not found at $vicont (build it: cmake --build build --target vicont)" >&2
  exit 2
fi
mkdir -p "$out" "$figures"
failed=0

# run NAME ARGS...: one map into $out/NAME, its summary in $out/NAME.txt, wall time printed.
run() {
  name=$1
  shift
  echo "== $name: vicont map $*"
  start=$(date +%s)
  status=0
  "$vicont" map "$@" --grid-transient 500 --grid-periods 300 --threads 2 --format png \
    --out "$out/$name" >"$out/$name.txt" || status=$?
  end=$(date +%s)
  echo "   exit $status, $((end - start)) s of wall time"
  [ "$status" -eq 0 ] || failed=1
  cat "$out/$name.txt"
}

run eta_r --system moving-base --param omega --from 2 --to 10 \
  --param2 r --from2 0.6 --to2 1 --lines 5 --grid 161 --grid2 41
run eta_ks_low --system moving-base --set model=soft --param omega --from 2 --to 10 \
  --param2 ks --from2 100 --to2 2100 --lines 5 --grid 161 --grid2 21
run eta_ks_high --system moving-base --set model=soft --param omega --from 2 --to 10 \
  --param2 ks --from2 2000 --to2 200000 --lines 5 --grid 161 --grid2 34

# crossings MAP LINE LOW HIGH: each curve of MAP that crosses p2 = LINE, with omega there.
# Rows outside the box [LOW, HIGH] of p2 are skipped (some curves leave it: doc/maps.md),
# and a curve that ends on the line (the box's edge) is counted once.
crossings() {
  awk -F, -v map="$1" -v line="$2" -v low="$3" -v high="$4" '
    NR == 1 { next }
    $6 == "nan" || $6 == "" { have = 0; next }
    {
      c = $1; p1 = $6 + 0; p2 = $7 + 0
      tol = 1e-6 * (line < 0 ? -line : line)
      if (p2 < low - tol || p2 > high + tol) { have = 0; next }
      if (have && c == curve && (prev2 - line) * (p2 - line) < 0) {
        x = prev1 + (p1 - prev1) * (line - prev2) / (p2 - prev2)
        printf "%s,%s,%s,%s/%s,%d,%.4f\n", map, line, $2, $8, $3, c, x
      }
      d = p2 - line
      if (d < 0) d = -d
      if (d <= tol && !(c in on_line)) {
        on_line[c] = 1
        printf "%s,%s,%s,%s/%s,%d,%.4f\n", map, line, $2, $8, $3, c, p1
      }
      curve = c; prev1 = p1; prev2 = p2; have = 1
    }' "$out/$1/map_curves.csv"
}

# windows MAP LINE: runs of consecutive grid cells of one class along p2 = LINE.
windows() {
  awk -F, -v map="$1" -v line="$2" '
    NR == 1 { next }
    {
      d = $6 - line
      if (d < 0) d = -d
      if (d > 1e-6 * (line < 0 ? -line : line)) next
      if (run && $16 == label) { to = $5; cells++; next }
      if (run) printf "%s,%s,%s,%s,%s,%d\n", map, line, label, from, to, cells
      run = 1; label = $16; from = $5; to = $5; cells = 1
    }
    END { if (run) printf "%s,%s,%s,%s,%s,%d\n", map, line, label, from, to, cells }' \
    "$out/$1/map_grid.csv"
}

echo "map,line,kind,z,curve,omega" >"$out/crossings.csv"
echo "map,line,class,omega_from,omega_to,cells" >"$out/windows.csv"
for line in 1 0.8 0.6; do
  crossings eta_r $line 0.6 1 | sort -t, -k6 -g >>"$out/crossings.csv"
  windows eta_r $line >>"$out/windows.csv"
done
for line in 100 500 2000; do
  crossings eta_ks_low $line 100 2100 | sort -t, -k6 -g >>"$out/crossings.csv"
  windows eta_ks_low $line >>"$out/windows.csv"
done
for line in 2000 200000; do
  crossings eta_ks_high $line 2000 200000 | sort -t, -k6 -g >>"$out/crossings.csv"
  windows eta_ks_high $line >>"$out/windows.csv"
done

for name in eta_r eta_ks_low eta_ks_high; do
  cp "$out/$name/map.png" "$figures/map_$name.png"
  cp "$out/$name/map_grid.png" "$figures/map_${name}_grid.png"
done
echo "files: $out/crossings.csv, $out/windows.csv; figures in $figures/map_*.png"
exit "$failed"
