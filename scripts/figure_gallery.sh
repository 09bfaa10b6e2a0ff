#!/bin/sh
# Draws every kind of figure vicont makes, by the commands doc/figures.md shows (each with
# --format png: vicont draws a figure only when asked), and puts a small copy of each (800
# pixels wide, 256 colours) into doc/figures/gallery_*.png.
# Usage: scripts/figure_gallery.sh [path/to/vicont]   (default: build/vicont)
# Needs gnuplot and Python 3 with Pillow (python3-pil) for the small copies.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
vicont=${1:-$root/build/vicont}
work=$(mktemp -d "${TMPDIR:-/tmp}/vicont-gallery.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work"

# run OUT ARGS...: vicont ARGS --out OUT, quiet unless it fails.
run() {
  out=$1
  shift
  "$vicont" "$@" --out "$out" >"$out.log" 2>&1 || { echo "vicont $* failed:"; cat "$out.log"; exit 1; }
}

run simulate simulate --system two-body --t-end 5 --format png
run phase simulate --t-end 30 --format png
run lyapunov lyapunov --periods 300 --transient 300 --format png
run loading continue --system two-body --set contact=hertz --param lambda --from 1 --to 0.1 --format png
run doubling continue --param omega --from 4 --to 4.7 --follow-doubling --format png
run run continue --set d=-0.005 --param omega --from 0.5 --to 2.5
run curve curve --restart run:PD1 --param2 d --from -0.005 --to -0.012 --format png
run map map --param omega --from 1.5 --to 3 --param2 d --from2 -0.004 --to2 0 --max-period 2 --format png
run sweep sweep --param omega --from 2 --to 6 --steps 161 --transient 300 --periods 300 --format png
run grid sweep --param omega --from 2 --to 3.5 --steps 30 --param2 r --from2 0.7 --to2 1 --steps2 20 \
  --set model=hard --transient 200 --periods 200 --format png
run basins basins --set omega=2.6 --x x:0.0005:0.0205:40 --y v:-0.03:0.03:40 --transient 200 --format png
run diagram diagram --param omega --from 2 --to 4.5 --format png
run impact impact --system hertz-friction --format png

# shrink NAME FILE: doc/figures/gallery_NAME.png, a small copy of FILE.
shrink() {
  python3 - "$2" "$root/doc/figures/gallery_$1.png" <<'PYTHON'
import sys
from PIL import Image
image = Image.open(sys.argv[1]).convert("RGB")
width = 800
if image.width > width:
    image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(sys.argv[2], optimize=True)
PYTHON
}

shrink timeseries simulate/timeseries.png
shrink phase phase/phase.png
shrink settled_phase lyapunov/settled_phase.png
shrink loading_curve loading/branch.png
shrink frequency_response doubling/branch.png
shrink curve curve/curve.png
shrink map map/map.png
shrink sweep sweep/sweep.png
shrink sweep_map grid/sweep_map.png
shrink basins basins/basins.png
shrink diagram diagram/diagram.png
shrink impact impact/impact.png
echo "gallery: $(ls "$root"/doc/figures/gallery_*.png | wc -l) figures in doc/figures"
