#!/bin/sh
# vicont curve end to end on the moving-base oscillator: the period-doubling curve in
# (omega, d) from PD1 of a saved branch, each of three rows checked by a second method
# through the command line (vicont continue in omega at the row's d must locate a period
# doubling within 1e-6 of the row's omega); the fold curve from LP1 and the grazing curve
# from GR1 (the orbit without impacts); the files (the figure's script, no PNG: the figure
# is drawn only with --format, as tests/cli_figures.sh does), curve.json equal to the
# --json object;
# the curve that runs into the grazing (a codimension-two point "grazing"); exit 3 with
# the files written; bad input (exit 2, one line naming the item).
# Usage: cli_curve.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_curve.sh /path/to/vicont}
cli_name=cli-curve
. "$(dirname "$0")/cli_helpers.sh"

# The branch of doc/cli.md: GR1 (0.8335639335, the orbit without impacts grazes), PD1
# (0.9452849129), LP1 (1.848010597), GR2 (1.385257317, an impact's grazing).
"$vicont" continue --set d=-0.005 --param omega --from 0.5 --to 2.5 --out "$work/run" --json \
  >"$work/stdout" 2>"$work/run.err" || fail "vicont continue (the saved run): $(cat "$work/run.err")"
check "the saved run lacks GR1, PD1, LP1, GR2" \
  '[p["label"] for p in d["special_points"]] == ["GR1", "PD1", "LP1", "GR2"] and d["special_points"][0]["kind"] == "non-impacting-gap" and d["special_points"][3]["kind"] == "impact-velocity"'

# The period-doubling curve from PD1 in d from -0.005 to -0.004.
if "$vicont" curve --restart "$work/run:PD1" --param2 d --from -0.005 --to -0.004 \
    --out "$work/pd" --json >"$work/stdout" 2>"$work/pd.err"; then
  check "the PD curve's summary" \
    'd["command"] == "curve" and d["kind"] == "period-doubling" and d["p1"] == "omega" and d["p2"] == "d" and d["start"]["label"] == "PD1" and d["rows_count"] == len(d["rows"]) >= 5 and d["ok"] and d["curve_status"] == "reached bound"'
  check "the PD curve does not start at PD1 or end at d = -0.004" \
    'abs(d["rows"][0]["p1"] - 0.9452849129) < 1e-8 and abs(d["rows"][0]["p2"] + 0.005) < 1e-9 and abs(d["rows"][-1]["p2"] + 0.004) < 1e-15'
  check "a row's multipliers do not include -1" \
    'all(min(abs(m - 1) for m in r["multiplier_moduli"]) < 1e-6 for r in d["rows"])'
  expect_files "$work/pd" curve.csv curve_points.csv curve.gp curve.json
  [ ! -e "$work/pd/curve.png" ] || fail "curve drew curve.png without --format png"
  python3 - "$work/stdout" "$work/pd/curve.json" <<'PYTHON' || fail "curve.json is not the --json object"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(0 if a == b else 1)
PYTHON
  head -1 "$work/pd/curve.csv" | grep -q '^index,omega,d,impacts,slowest_impact,min_gap,test:' ||
    fail "curve.csv header: $(head -1 "$work/pd/curve.csv")"
  grep -q "xlabel 'omega \[-\]'" "$work/pd/curve.gp" && grep -q "ylabel 'd \[-\]'" "$work/pd/curve.gp" ||
    fail "curve.gp: the axes are not named after omega and d"
  # Rows 1, the middle and the last: vicont continue in omega at the row's d (the n = 1 orbit
  # found at omega - 0.01 by its own search, the branch through the period doubling) must
  # find a period doubling within 1e-6 of the row's omega.
  python3 - "$work/stdout" >"$work/rows" <<'PYTHON'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
for r in (rows[1], rows[len(rows) // 2], rows[-1]):
    print(repr(r["p1"]), repr(r["p2"]))
PYTHON
  k=0
  while read -r omega dd; do
    k=$((k + 1))
    lo=$(python3 -c "print($omega - 0.01)")
    hi=$(python3 -c "print($omega + 0.01)")
    if "$vicont" continue --set "d=$dd" --param omega --from "$lo" --to "$hi" --period 1 --out "$work/check$k" \
        --json >"$work/stdout" 2>"$work/check$k.err"; then
      check "row at omega = $omega, d = $dd: no period doubling of vicont continue within 1e-6" \
        "any(p['type'] == 'period-doubling' and abs(p['parameter'] - $omega) < 1e-6 for p in d['special_points'])"
      python3 - "$work/stdout" "$omega" "$dd" <<'PYTHON'
import json, sys
d = json.load(open(sys.argv[1]))
omega = float(sys.argv[2])
pd = min((p["parameter"] for p in d["special_points"] if p["type"] == "period-doubling"),
         key=lambda v: abs(v - omega), default=float("nan"))
print("  row omega = %s, d = %s: continue's PD at %.12f, |difference| = %.2g" % (sys.argv[2], sys.argv[3], pd, abs(pd - omega)))
PYTHON
    else
      fail "vicont continue at the row's d = $dd: $(cat "$work/check$k.err")"
    fi
  done <"$work/rows"
  [ "$k" -eq 3 ] || fail "not three rows checked ($k)"
else
  fail "vicont curve from PD1 failed: $(cat "$work/pd.err")"
fi

# Towards d = -0.012 the PD curve runs into the grazing at omega* = w_d = 0.993365491649,
# d* = -0.0110645721282 (doc/theory.md 6.4): the curve ends there, exit 0.
if "$vicont" curve --restart "$work/run:PD1" --param2 d --from -0.005 --to -0.012 \
    --out "$work/graze" --json >"$work/stdout" 2>"$work/graze.err"; then
  check "the PD curve does not end at the grazing (0.993365491649, -0.0110645721282)" \
    'd["points"][-1]["type"] == "grazing" and d["points"][-1]["label"] == "GR1" and abs(d["points"][-1]["p1"] - 0.993365491649) < 1e-6 and abs(d["points"][-1]["p2"] + 0.0110645721282) < 1e-8 and d["curve_status"] == "ended at boundary"'
  grep -q '^GR1,grazing,' "$work/graze/curve_points.csv" || fail "curve_points.csv lacks GR1"
else
  fail "vicont curve from PD1 to d = -0.012 failed: $(cat "$work/graze.err")"
fi

# The fold curve from LP1 in r, the grazing curve from GR1 in d.
"$vicont" curve --restart "$work/run:LP1" --param2 r --from 1 --to 0.9 --max-points 40 \
  --out "$work/lp" --json >"$work/stdout" 2>"$work/lp.err" || fail "vicont curve from LP1: $(cat "$work/lp.err")"
check "the fold curve from LP1" \
  'd["kind"] == "fold" and abs(d["rows"][0]["p2"] - 1) < 1e-9 and abs(d["rows"][-1]["p2"] - 0.9) < 1e-12 and all(min(abs(m - 1) for m in r["multiplier_moduli"]) < 1e-6 for r in d["rows"])'
"$vicont" curve --restart "$work/run:GR1" --param2 d --from -0.005 --to -0.004 \
  --out "$work/gr" --json >"$work/stdout" 2>"$work/gr.err" || fail "vicont curve from GR1: $(cat "$work/gr.err")"
check "the grazing curve from GR1" \
  'd["kind"] == "grazing" and abs(d["rows"][0]["p1"] - 0.8335639335) < 1e-8 and abs(d["rows"][-1]["p2"] + 0.004) < 1e-15 and all("tangency_time" in r and r["impacts"] == 0 for r in d["rows"])'

# A start that cannot be corrected (the base amplitude ten times larger: no period
# doubling near the saved orbit) is a numerical failure, exit 3, its files written.
"$vicont" curve --restart "$work/run:PD1" --set a=0.025 --param2 d --from -0.005 --to -0.004 \
  --out "$work/fail" --json >"$work/stdout" 2>"$work/fail.err"
status=$?
[ "$status" -eq 3 ] || fail "a curve whose start fails: exit $status, not 3 ($(cat "$work/fail.err"))"
check "a failed curve's summary" 'not d["ok"] and d["status"] != "success" and d["rows_count"] == 0'
expect_files "$work/fail" curve.csv curve_points.csv curve.json

# Bad input: exit 2, one line naming the item.
# The Neimark-Sacker curve of the two-body Hertz loading curve's NS1 in (lambda, omega):
# every row has its critical pair on the unit circle and kappa = cos theta of it.
# With --at 0.8 the branch's orbit at exactly lambda = 0.8 is listed as UZ1.
"$vicont" continue --system two-body --set contact=hertz --param lambda --from 1 --to 0.1 \
  --at 0.8 --out "$work/loading" --json >"$work/stdout" 2>"$work/loading.err" ||
  fail "vicont continue (two-body loading): $(cat "$work/loading.err")"
# On the way down the branch meets a Neimark-Sacker point, the collision of its pair on the
# real axis and a fold within 1.5e-3 of lambda; a step over all three loses the first
# (ContinuationOptions::target_turn_degrees). Both folds and Neimark-Sacker points of the
# independent reference (bench/loading_curve_reference.json: variational shooting in scipy)
# within 1e-8.
check "the loading curve from 1 down finds both folds and Neimark-Sacker points" \
  "len([p for p in d['special_points'] if p['type'] in ('fold', 'neimark-sacker')]) == 4 and all(min(abs(p['parameter'] - r) for p in d['special_points'] if p['type'] == t) <= 1e-8 for t, r in (('fold', 0.564730425363), ('neimark-sacker', 0.566152550736), ('neimark-sacker', 0.567002824103), ('fold', 0.567003105025)))"
# UZ1 against the orbit that vicont orbit finds at lambda = 0.8 by shooting from a
# transient (a second method): A_max of both bodies within 1e-9.
"$vicont" orbit --system two-body --set contact=hertz --set lambda=0.8 --out "$work/orbit-0.8" \
  --quiet >/dev/null 2>"$work/orbit.err" || fail "vicont orbit at lambda = 0.8: $(cat "$work/orbit.err")"
check "UZ1 of --at 0.8 is the orbit at lambda = 0.8" \
  "[p['label'] for p in d['special_points'] if p['type'] == 'user-value'] == ['UZ1'] and next(p for p in d['special_points'] if p['label'] == 'UZ1')['parameter'] == 0.8 and all(abs(next(p for p in d['special_points'] if p['label'] == 'UZ1')['amplitudes'][k] - json.load(open('$work/orbit-0.8/orbit.json'))['amplitudes'][k]) <= 1e-9 for k in ('x1', 'x2'))"
ns_lambda=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(repr(next(p["parameter"] for p in d["special_points"] if p["label"] == "NS1")))' "$work/stdout")
if "$vicont" curve --restart "$work/loading:NS1" --param2 omega --from 6 --to 6.01 \
    --out "$work/ns-curve" --json >"$work/stdout" 2>"$work/ns.err"; then
  check "the NS curve's summary" \
    'd["kind"] == "neimark-sacker" and d["p1"] == "lambda" and d["p2"] == "omega" and d["rows_count"] >= 3 and d["ok"]'
  check "the NS curve does not start at NS1 (lambda = '"$ns_lambda"')" \
    "abs(d['rows'][0]['p1'] - $ns_lambda) < 1e-8 and abs(d['rows'][-1]['p2'] - 6.01) < 1e-15"
  check "a row's critical pair is off the unit circle or kappa is missing" \
    'all(abs(r["multiplier_moduli"][0] - 1) < 1e-8 and abs(r["multiplier_moduli"][1] - 1) < 1e-8 and -1 < r["kappa"] < 1 for r in d["rows"])'
  head -1 "$work/ns-curve/curve.csv" | grep -q ',kappa$' || head -1 "$work/ns-curve/curve.csv" | grep -q ',kappa,' ||
    fail "curve.csv of a Neimark-Sacker curve has no kappa column: $(head -1 "$work/ns-curve/curve.csv")"
else
  fail "vicont curve from NS1: $(cat "$work/ns.err")"
fi

# The fold curve of the loading curve's LP1 turns twice in lambda (TP1, TP2): the figure's
# line runs through each turning point between the rows either side of it, so that the
# turns are not cut off (curve.gp's data block $curve).
if "$vicont" curve --restart "$work/loading:LP1" --param2 omega --from 6 --to 5 \
    --out "$work/lp-curve" --json >"$work/stdout" 2>"$work/lp.err"; then
  python3 - "$work/lp-curve" <<'PYTHON' || fail "the fold curve's figure does not run through its turning points"
import csv, re, sys
d = sys.argv[1]
rows = [(float(r["lambda"]), float(r["omega"])) for r in csv.DictReader(open(d + "/curve.csv"))]
points = [r for r in csv.DictReader(open(d + "/curve_points.csv")) if r["type"] == "turning-point"]
block = re.search(r"^\$curve << EOD\nx,y\n(.*?)^EOD$", open(d + "/curve.gp").read(), re.M | re.S)
vertices = [tuple(map(float, line.split(","))) for line in block.group(1).split("\n") if line]
ok = len(points) >= 2 and len(vertices) == len(rows) + len(list(csv.DictReader(open(d + "/curve_points.csv"))))
for p in points:
    at = vertices.index((float(p["lambda"]), float(p["omega"])))
    row = int(p["after_row"])
    ok = ok and vertices[at - 1] == rows[row] and vertices[at + 1] == rows[row + 1]
sys.exit(0 if ok else 1)
PYTHON
else
  fail "vicont curve from LP1: $(cat "$work/lp.err")"
fi

refused() {
  what=$1
  word=$2
  shift 2
  "$vicont" curve "$@" --out "$work/bad" >"$work/stdout" 2>"$work/bad.err"
  status=$?
  if [ "$status" -ne 2 ]; then
    fail "$what: exit $status, not 2"
  elif [ "$(wc -l <"$work/bad.err")" -ne 1 ] || ! grep -q -- "$word" "$work/bad.err"; then
    fail "$what: stderr does not name $word in one line: $(cat "$work/bad.err")"
  fi
}
pd="$work/run:PD1"
refused "no --restart" "--restart" --param2 d --from -0.005 --to -0.004
refused "unknown --param2" "nosuch" --restart "$pd" --param2 nosuch --from -0.005 --to -0.004
refused "--param2 the branch's parameter" "--param2 omega" --restart "$pd" --param2 omega --from 0.9 --to 1
refused "--param2 a choice" "model" --restart "$pd" --param2 model --from 0 --to 1
refused "from == to" "--to" --restart "$pd" --param2 d --from -0.005 --to -0.005
refused "--to nan" "--to" --restart "$pd" --param2 d --from -0.005 --to nan
refused "--to inf" "--to" --restart "$pd" --param2 d --from -0.005 --to inf
refused "a range without the start" "d = -0.005" --restart "$pd" --param2 d --from -0.004 --to -0.003
refused "r out of its range" "--to" --restart "$pd" --param2 r --from 1 --to 1.5
refused "--p1-from: omega = 0" "--p1-from" --restart "$pd" --param2 d --from -0.005 --to -0.004 --p1-from 0
refused "--p1 range without PD1" "--p1-to" --restart "$pd" --param2 d --from -0.005 --to -0.004 --p1-from 1 --p1-to 2
refused "--set omega" "--set omega" --restart "$pd" --set omega=1 --param2 d --from -0.005 --to -0.004
# An impact's grazing (GR2: the z = 1/1 impact slows to zero) has its curve of tangencies
# too, from GR2 itself.
"$vicont" curve --restart "$work/run:GR2" --param2 d --from -0.005 --to -0.004 \
  --out "$work/gr2" --json >"$work/stdout" 2>"$work/gr2.err" ||
  fail "the grazing curve from GR2: $(cat "$work/gr2.err")"
check "the grazing curve from GR2" \
  'd["kind"] == "grazing" and d["curve_status"] == "reached bound" and len(d["rows"]) >= 5 and abs(d["rows"][0]["p1"] - 1.385257317) < 1e-8 and abs(d["rows"][-1]["p2"] + 0.004) < 1e-15'
refused "a row" "run:3" --restart "$work/run:3" --param2 d --from -0.005 --to -0.004
refused "a label not there" "NS1" --restart "$work/run:NS1" --param2 d --from -0.005 --to -0.004
# A Neimark-Sacker point (PD1 relabelled: the library refuses the kind before it computes).
mkdir -p "$work/ns"
cp "$work/run/continue.json" "$work/run/branch.csv" "$work/ns/"
sed 's/^PD1,period-doubling,/NS1,neimark-sacker,/' "$work/run/special_points.csv" >"$work/ns/special_points.csv"
refused "a label that is no Neimark-Sacker point" "NS1" --restart "$work/ns:NS1" --param2 d --from -0.005 --to -0.004
grep -q "neimark-sacker" "$work/bad.err" || fail "the Neimark-Sacker refusal does not say why: $(cat "$work/bad.err")"

[ "$failures" -eq 0 ] && echo "cli_curve: all checks passed"
exit "$failures"
