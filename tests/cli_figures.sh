#!/bin/sh
# The figures of every kind a command draws (doc/figures.md): with --format png,pdf,svg each
# is written in the three formats (checked by their magic bytes), each NAME.gp beside it
# runs under gnuplot and redraws NAME.png byte for byte (and the PDF with format='pdf');
# axes carry the model's units; the special points of the two-body Hertz loading curve
# (five within 0.003 in lambda) are numbered markers whose numbers never overlap, the key
# lists one numbered entry per special point, and a zoom panel shows their cluster; a key
# with more points than fit in one column beside its panel names the first ones; a
# sweep's Lyapunov exponents get a panel each with the zero line; a large cloud of samples
# is drawn as an image of its panel's pixels; an unknown format is refused naming it; --format none
# writes the scripts and no figure, and each script draws its figure afterwards. Figures are
# drawn only when asked: without --format every command writes its data and scripts and
# does not start gnuplot; each format is drawn alone (pdf or svg without a PNG beside it);
# the summary's files line lists the figures drawn (a PNG with --format png, none by
# default); the main job (plain vicont) alone draws its PNGs by default.
# Usage: cli_figures.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_figures.sh /path/to/vicont}
cli_name=cli-figures
. "$(dirname "$0")/cli_helpers.sh"
command -v gnuplot >/dev/null 2>&1 || { echo "FAIL: gnuplot is needed"; exit 1; }

formats="--format png,pdf,svg"

# figure DIR NAME: NAME.png, NAME.pdf, NAME.svg exist with their formats' magic bytes;
# NAME.gp redraws the PNG identically and the PDF as a PDF, from the data beside it (the
# CSV files, the images of clouds). (Its variables are not those of expect_files: sh has
# no local variables.)
figure() {
  fig_dir=$1
  fig=$2
  expect_files "$fig_dir" "$fig.png" "$fig.gp"
  [ "$(head -c 4 "$fig_dir/$fig.pdf" 2>/dev/null)" = "%PDF" ] || fail "$fig_dir/$fig.pdf is not a PDF"
  grep -q "<svg" "$fig_dir/$fig.svg" 2>/dev/null || fail "$fig_dir/$fig.svg is not an SVG"
  mkdir -p "$work/redraw"
  rm -f "$work/redraw/"*
  cp "$fig_dir/"*.csv "$fig_dir/"*.rgba "$fig_dir/$fig.gp" "$work/redraw/" 2>/dev/null
  # The doubled branches' files, where the figure reads them.
  for sub in "$fig_dir"/*/; do
    [ -d "$sub" ] && mkdir -p "$work/redraw/$(basename "$sub")" &&
      cp "$sub"*.csv "$work/redraw/$(basename "$sub")/" 2>/dev/null
  done
  (cd "$work/redraw" && gnuplot "$fig.gp") >"$work/gnuplot.txt" 2>&1 ||
    fail "$fig.gp does not run: $(head -3 "$work/gnuplot.txt")"
  cmp -s "$work/redraw/$fig.png" "$fig_dir/$fig.png" || fail "$fig.gp does not redraw $fig.png identically"
  (cd "$work/redraw" && gnuplot -e "format='pdf'" "$fig.gp") >"$work/gnuplot.txt" 2>&1 ||
    fail "$fig.gp with format='pdf' does not run"
  [ "$(head -c 4 "$work/redraw/$fig.pdf" 2>/dev/null)" = "%PDF" ] ||
    fail "$fig.gp with format='pdf' draws no PDF"
  rm -rf "$work/redraw"
}

# The two-body Hertz loading curve: its special points cluster near lambda = 0.25.
"$vicont" continue --system two-body --set contact=hertz --param lambda --from 1 --to 0.1 \
  $formats --out "$work/loading" --json >"$work/stdout" 2>"$work/err" ||
  fail "loading curve: exit status $? ($(cat "$work/err"))"
figure "$work/loading" branch
python3 - "$work/stdout" "$work/loading/branch.gp" <<'PYTHON' || fail "loading curve: special points not numbered apart"
import json, re, sys
d = json.load(open(sys.argv[1]))
gp = open(sys.argv[2]).read()
n = len(d["special_points"])
lambdas = sorted(p["parameter"] for p in d["special_points"])
ok = True
def no(message):
    global ok
    print("  " + message)
    ok = False
if not any(b - a < 0.003 for a, b in zip(lambdas, lambdas[1:])):
    no("no two special points within 0.003 (the case this test is about): %s" % lambdas)
# The key: one numbered entry per special point, numbered 1..n.
keys = re.findall(r"keyentry with points .* title '(\d+)  ", gp)
if keys != [str(k) for k in range(1, n + 1)]:
    no("key entries %s, expected 1..%d" % (keys, n))
# Each panel's numbers: every point once, and no two closer than a number's width.
panels = gp.split("\nplot ")
placed = 0
for panel in panels:
    at = [(m.group(1), float(m.group(2)))
          for m in re.finditer(r"set label 1\d\d\d '(\d+)' at graph ([-0-9.e]+), graph 1", panel)]
    if not at:
        continue
    placed += 1
    numbers = [a for a, _ in at]
    if len(set(numbers)) != len(numbers):
        no("a number drawn twice in one panel: %s" % numbers)
    xs = sorted(x for _, x in at)
    width = min(0.032, 0.98 / len(xs))
    if any(b - a < width - 1e-9 for a, b in zip(xs, xs[1:])):
        no("numbers closer than their width %g: %s" % (width, xs))
    if xs[0] < 0 or xs[-1] > 1:
        no("numbers outside the panel: %s" % xs)
if placed == 0:
    no("no numbered special points in branch.gp")
if "zoom on the shaded interval" not in gp:
    no("no zoom panel on the cluster of special points")
if "set xlabel 'lambda [-]'" not in gp or "set ylabel 'max x1 [m]'" not in gp:
    no("axes not labelled with units (lambda [-], max x1 [m])")
sys.exit(0 if ok else 1)
PYTHON

# A branch with more special points than its key has room for (the cantilever beam's
# z = 4/1 orbit over omega 0.5 to 1.5: 48): the key beside the top panel (440 pixels with
# its margins, some 23 rows of 10 point sans) names the first ones and refers to the CSV
# for the rest, in one column; a second column would spill over the panel.
"$vicont" continue --system cantilever-2dof --set e=0.05 --param omega --from 0.5 --to 1.5 \
  --format none --out "$work/many" --json >"$work/stdout" 2>"$work/err" ||
  fail "cantilever branch: exit status $? ($(cat "$work/err"))"
python3 - "$work/stdout" "$work/many/branch.gp" <<'PYTHON' || fail "cantilever branch: the key does not fit"
import json, re, sys
n = len(json.load(open(sys.argv[1]))["special_points"])
gp = open(sys.argv[2]).read()
keys = [int(k) for k in re.findall(r"keyentry with points .* title '(\d+)  ", gp)]
rest = re.findall(r"title '(\d+) to (\d+): see the special points'' CSV'", gp)
if n <= 23:
    sys.exit("only %d special points: not the case this test is about" % n)
if keys != list(range(1, len(keys) + 1)) or not keys:
    sys.exit("key entries %s, expected 1..k" % keys)
if len(keys) + 2 + 1 > 23:
    sys.exit("%d numbered entries, two curves and the CSV line exceed 23 rows" % len(keys))
if rest != [(str(len(keys) + 1), str(n))]:
    sys.exit("the rest's line %s, expected %d to %d" % (rest, len(keys) + 1, n))
PYTHON

# A period-doubling run: the doubled branch in the parent's figure, its points numbered on.
"$vicont" continue --param omega --from 4 --to 4.7 --follow-doubling --format svg \
  --out "$work/doubling" --json >"$work/stdout" 2>"$work/err" ||
  fail "period-doubling run: exit status $? ($(cat "$work/err"))"
draws_branch "$work/doubling/branch.gp" doubled-PD1/branch.csv ||
  fail "the doubled branch is not in the parent's branch.gp"
grep -q "<svg" "$work/doubling/branch.svg" 2>/dev/null || fail "--format svg drew no branch.svg"
[ -e "$work/doubling/branch.pdf" ] && fail "--format svg drew a PDF too"
[ -e "$work/doubling/branch.png" ] && fail "--format svg drew a PNG too"
[ -e "$work/doubling/doubled-PD1/branch.png" ] && fail "--format svg drew the doubled branch's PNG too"

# A sweep: three sections as in the sources, one panel per exponent with the zero line.
"$vicont" sweep --param omega --from 3 --to 4 --steps 5 --transient 100 --periods 100 $formats \
  --out "$work/sweep" --json >"$work/stdout" 2>"$work/err" || fail "sweep: exit status $? ($(cat "$work/err"))"
figure "$work/sweep" sweep
grep -q "multiplot layout 4,1" "$work/sweep/sweep.gp" ||
  fail "sweep.gp: not four panels (samples, lambda_1, lambda_2, impacts)"
[ "$(grep -c "^plot 0 with lines" "$work/sweep/sweep.gp")" -eq 2 ] ||
  fail "sweep.gp: not one zero line per exponent panel"
grep -q "set ylabel 'lambda_2 \[-\]'" "$work/sweep/sweep.gp" || fail "sweep.gp: lambda_2 has no panel of its own"
[ -e "$work/sweep/sweep_samples.rgba" ] && fail "a small sweep drew its samples as an image"
grep -q "^plot 'sweep_samples.csv' using 'omega'" "$work/sweep/sweep.gp" ||
  fail "a small sweep does not draw its samples from sweep_samples.csv"

# Many samples: the cloud is drawn as one image of its panel's pixels (RGBA, 4 bytes a
# pixel, as many pixels as sweep.gp's `binary array` says), listed in the summary; its
# script redraws the PNG from it identically, and the PDF.
"$vicont" sweep --param omega --from 3 --to 4 --steps 41 --transient 50 --periods 600 --samples 600 \
  $formats --out "$work/cloud" --json >"$work/stdout" 2>"$work/err" ||
  fail "large sweep: exit status $? ($(cat "$work/err"))"
figure "$work/cloud" sweep
expect_files "$work/cloud" sweep_samples.rgba
dims=$(sed -n "s/.*'sweep_samples.rgba' binary array=(\([0-9]*\),\([0-9]*\)).*/\1 \2/p" "$work/cloud/sweep.gp")
[ -n "$dims" ] || fail "sweep.gp does not draw sweep_samples.rgba"
set -- $dims
[ "$(wc -c <"$work/cloud/sweep_samples.rgba")" -eq $((4 * $1 * $2)) ] ||
  fail "sweep_samples.rgba is not the $1 x $2 pixels sweep.gp reads"
check "the summary lists the image of the samples" \
  "any(f.endswith('sweep_samples.rgba') for f in d['files'])"

# The other kinds, each in the three formats.
"$vicont" simulate --t-end 20 $formats --out "$work/sim" >/dev/null 2>"$work/err" || fail "simulate: $(cat "$work/err")"
figure "$work/sim" timeseries
figure "$work/sim" phase
grep -q "set xlabel 't \[-\]'" "$work/sim/timeseries.gp" || fail "timeseries.gp: t without its unit"
"$vicont" simulate --system two-body --t-end 2 --format pdf --out "$work/si" >/dev/null 2>"$work/err" ||
  fail "simulate two-body: $(cat "$work/err")"
grep -q "set xlabel 't \[s\]'" "$work/si/timeseries.gp" && grep -q "set ylabel 'v1 \[m/s\]'" "$work/si/timeseries.gp" ||
  fail "two-body timeseries.gp: not t [s] and v1 [m/s]"
# A model file's units ("units" and each parameter's "unit"), on the axes and in the listing.
models="$(dirname "$0")/../examples/models"
"$vicont" simulate --model "$models/three_mass_chain.json" --t-end 2 --out "$work/file" >/dev/null 2>"$work/err" ||
  fail "simulate --model: $(cat "$work/err")"
grep -q "set xlabel 't \[s\]'" "$work/file/timeseries.gp" && grep -q "set ylabel 'x1 \[m\]'" "$work/file/timeseries.gp" ||
  fail "a model file's timeseries.gp: not t [s] and x1 [m]"
"$vicont" systems --model "$models/three_mass_chain.json" --json >"$work/stdout" 2>"$work/err" || fail "systems --model failed"
check "systems --json lists the model file's units" \
  "(d['systems'][0]['time_unit'] == 's' and d['systems'][0]['state_units'][:1] == ['m'] and
    [p.get('unit') for p in d['systems'][0]['parameters'] if p['name'] == 'k'] == ['N/m'])"
python3 - "$models/three_mass_chain.json" "$work/bad_units.json" <<'PYTHON'
import json, sys
model = json.load(open(sys.argv[1]))
model["units"] = {"length": "m"}
json.dump(model, open(sys.argv[2], "w"))
PYTHON
expect_bad "units.length" systems --model "$work/bad_units.json"
"$vicont" lyapunov --periods 100 --transient 100 $formats --out "$work/lyap" >/dev/null 2>"$work/err" ||
  fail "lyapunov: $(cat "$work/err")"
figure "$work/lyap" settled_phase
"$vicont" diagram --param omega --from 2 --to 2.8 --steps 5 --transient 150 --periods 150 $formats \
  --out "$work/diagram" >/dev/null 2>"$work/err" || fail "diagram: $(cat "$work/err")"
figure "$work/diagram" diagram
"$vicont" basins --set omega=2.6 --x x:0.0005:0.0205:3 --y v:-0.03:0.03:3 --transient 100 $formats \
  --out "$work/basins" >/dev/null 2>"$work/err" || fail "basins: $(cat "$work/err")"
figure "$work/basins" basins
"$vicont" impact --system hertz-friction $formats --out "$work/impact" >/dev/null 2>"$work/err" ||
  fail "impact: $(cat "$work/err")"
figure "$work/impact" impact
"$vicont" continue --set d=-0.005 --param omega --from 0.5 --to 2.5 --out "$work/run" >/dev/null 2>&1 ||
  fail "continue for the curve failed"
"$vicont" curve --restart "$work/run:PD1" --param2 d --from -0.005 --to -0.004 $formats \
  --out "$work/curve" >/dev/null 2>"$work/err" || fail "curve: $(cat "$work/err")"
figure "$work/curve" curve
points=$(($(wc -l <"$work/curve/curve_points.csv") - 1))
[ "$(grep -c "keyentry with points .* title '[0-9]*  " "$work/curve/curve.gp")" -eq "$points" ] ||
  fail "curve.gp: the key does not list the $points codimension-two points by number"

# The main job (plain vicont) draws in the formats asked, those alone, its axes in the
# model's units.
"$vicont" --t-end 5 --transient 20 --periods 20 --format pdf --quiet --out "$work/main" \
  >/dev/null 2>"$work/err" || fail "main job: $(cat "$work/err")"
for f in omega-4/timeseries omega-7.1/phase; do
  [ "$(head -c 4 "$work/main/$f.pdf" 2>/dev/null)" = "%PDF" ] || fail "main job: $f.pdf is not a PDF"
  [ -e "$work/main/$f.png" ] && fail "main job --format pdf: drew $f.png too"
done
grep -q "\[-\]" "$work/main/omega-4/timeseries.gp" || fail "main job: no units on the time series' axes"
# Without --format the main job, whose figures are its point, draws its PNGs (the
# subcommands' default, none, is not its own).
"$vicont" --t-end 5 --transient 20 --periods 20 --quiet --out "$work/main-default" \
  >/dev/null 2>"$work/err" || fail "main job without --format: $(cat "$work/err")"
for omega in 4 7.1; do
  expect_files "$work/main-default/omega-$omega" timeseries.png timeseries.gp phase.png phase.gp \
    settled_phase.png settled_phase.gp
done

expect_bad "--format" simulate --t-end 1 --format png,eps --out "$work/bad"
expect_bad "--format" simulate --t-end 1 --format none,png --out "$work/bad"

# --format none: the scripts and their data, no figure, none listed; each script draws its
# figure afterwards.
for run in "simulate --t-end 5" "continue --param omega --from 2 --to 3" \
           "sweep --param omega --from 3 --to 4 --steps 3 --transient 20 --periods 20"; do
  rm -rf "$work/none"
  # shellcheck disable=SC2086
  "$vicont" $run --format none --quiet --json --out "$work/none" >"$work/stdout" 2>"$work/err" ||
    fail "$run --format none: $(cat "$work/err")"
  ls "$work/none"/*.png "$work/none"/*.pdf "$work/none"/*.svg >/dev/null 2>&1 &&
    fail "$run --format none drew a figure"
  grep -q '\.png"' "$work/stdout" && fail "$run --format none lists a PNG among its files"
  scripts=$(ls "$work/none"/*.gp 2>/dev/null | wc -l)
  [ "$scripts" -ge 1 ] || fail "$run --format none wrote no gnuplot script"
  for gp in "$work/none"/*.gp; do
    (cd "$work/none" && gnuplot "$(basename "$gp")") >/dev/null 2>&1 ||
      fail "$run --format none: $(basename "$gp") does not draw afterwards"
    [ "$(head -c 4 "${gp%.gp}.png" | tail -c 3)" = "PNG" ] ||
      fail "$run --format none: $(basename "$gp") drew no PNG afterwards"
  done
done

# The default, no --format: the data and each figure's script, no figure, and gnuplot not
# even started. A gnuplot that notes its start in $work/gnuplot-started and fails stands
# first in PATH; --format png must start it and fail through it (so it is the gnuplot
# vicont finds, and the runs without --format prove something by not failing).
mkdir "$work/fake-bin"
printf '#!/bin/sh\necho started >>"%s"\nexit 1\n' "$work/gnuplot-started" >"$work/fake-bin/gnuplot"
chmod +x "$work/fake-bin/gnuplot"
PATH="$work/fake-bin:$PATH" "$vicont" simulate --t-end 5 --format png --quiet --out "$work/fake-png" \
  >/dev/null 2>"$work/err" && fail "simulate --format png succeeded with a failing gnuplot"
[ -s "$work/gnuplot-started" ] || fail "simulate --format png did not start the gnuplot first in PATH"
# by_default DIR DATA "STEMS" ARGS...: `vicont ARGS --out DIR` without --format, under the
# failing gnuplot, succeeds without starting it; writes DATA and STEM.gp for each of STEMS,
# no figure in DIR or below it (PNG, PDF, SVG); its summary's files line lists the scripts
# and no figure (once the PNGs were drawn and listed).
by_default() {
  def_dir=$1 def_data=$2 def_stems=$3
  shift 3
  rm -f "$work/gnuplot-started"
  PATH="$work/fake-bin:$PATH" "$vicont" "$@" --quiet --out "$def_dir" >"$work/summary" 2>"$work/err" ||
    fail "$1 without --format: exit status $? ($(cat "$work/err"))"
  [ -e "$work/gnuplot-started" ] && fail "$1 without --format started gnuplot"
  expect_files "$def_dir" "$def_data"
  for stem in $def_stems; do
    expect_files "$def_dir" "$stem.gp"
  done
  drawn=$(find "$def_dir" \( -name '*.png' -o -name '*.pdf' -o -name '*.svg' \) -print)
  [ -z "$drawn" ] || fail "$1 without --format drew $drawn"
  files_line=$(grep '^files ' "$work/summary")
  case ${files_line#*\{} in  # the names after DIR/{ (the scratch directory's may hold ".png")
    *.png* | *.pdf* | *.svg*) fail "$1 without --format: the files line lists a figure: $files_line" ;;
    *.gp[,}]*) ;;
    *) fail "$1 without --format: the files line lists no script: $files_line" ;;
  esac
}
by_default "$work/default-simulate" timeseries.csv "timeseries phase" simulate --t-end 5
by_default "$work/default-rheological" timeseries.csv "timeseries hysteresis_R_y hysteresis_R_z" \
  simulate --system rheological --set model=elastoplastic --t-end 2
by_default "$work/default-lyapunov" poincare.csv settled_phase lyapunov --transient 20 --periods 20
by_default "$work/default-orbit" orbit.csv "orbit_phase orbit_timeseries" orbit
by_default "$work/default-continue" doubled-PD1/branch.csv "branch doubled-PD1/branch" \
  continue --param omega --from 4 --to 4.7 --follow-doubling
by_default "$work/default-curve" curve.csv curve \
  curve --restart "$work/run:PD1" --param2 d --from -0.005 --to -0.0049
by_default "$work/default-map" map_curves.csv map \
  map --param omega --from 2 --to 2.5 --param2 d --from2 -0.004 --to2 0 --max-period 1
by_default "$work/default-sweep" sweep.csv sweep \
  sweep --param omega --from 3 --to 4 --steps 3 --transient 20 --periods 20
by_default "$work/default-diagram" diagram_branches.csv diagram \
  diagram --param omega --from 2 --to 2.8 --steps 3 --transient 20 --periods 20
by_default "$work/default-basins" basins.csv basins \
  basins --set omega=2.6 --x x:0.0005:0.0205:3 --y v:-0.03:0.03:3 --transient 20
by_default "$work/default-impact" impact.csv impact impact --system hertz-friction

# --format png: the PNG drawn, and the files line lists it beside its script.
"$vicont" sweep --param omega --from 3 --to 4 --steps 3 --transient 20 --periods 20 --format png \
  --quiet --out "$work/png" >"$work/summary" 2>"$work/err" || fail "sweep --format png: $(cat "$work/err")"
expect_files "$work/png" sweep.png sweep.gp
files_line=$(grep '^files ' "$work/summary")
case $files_line in
  *"sweep.png, sweep.gp"*) ;;
  *) fail "sweep --format png: the files line does not list sweep.png: $files_line" ;;
esac

# --format pdf alone: the PDF and no PNG beside it (once a PNG came with every format);
# the summary lists the PDF and no PNG.
"$vicont" sweep --param omega --from 3 --to 4 --steps 3 --transient 20 --periods 20 --format pdf \
  --quiet --out "$work/pdf" --json >"$work/stdout" 2>"$work/err" || fail "sweep --format pdf: $(cat "$work/err")"
[ "$(head -c 4 "$work/pdf/sweep.pdf" 2>/dev/null)" = "%PDF" ] || fail "--format pdf: sweep.pdf is not a PDF"
[ -e "$work/pdf/sweep.png" ] && fail "--format pdf drew sweep.png too"
check "--format pdf: the summary does not list sweep.pdf without a PNG" \
  "any(f.endswith('/sweep.pdf') for f in d['files']) and not any(f.endswith('.png') for f in d['files'])"

[ "$failures" -eq 0 ] || exit 1
echo "cli_figures: all checks passed"
