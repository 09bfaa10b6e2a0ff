#!/bin/sh
# vicont curve --restart CURVE_DIR:LABEL --kind KIND end to end on the moving-base
# oscillator (doc/cli.md, "Switching at a point of a saved curve"): the grazing curve of the
# orbit without impacts from a branch's GR1 locates the resonant grazings RGLP1 and RGPD1 at
# omega* = w_d = 0.993365491649, d* = -0.0110645721282; the period-doubling curve switched onto
# at RGPD1 ends on the branch's period doubling at d = -0.005 (a middle row checked by
# vicont continue at its d); the grazing curve switched onto at the grazing end of a
# period-doubling curve ends on the branch's GR1; the points file as the restart's path;
# bad input (exit 2, one line naming the item).
# Usage: cli_curve_switch.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_curve_switch.sh /path/to/vicont}
cli_name=cli-curve-switch
. "$(dirname "$0")/cli_helpers.sh"

# The branch of doc/cli.md: GR1 (omega = 0.8335639335, the orbit without impacts grazes), PD1
# (0.9452849129), LP1, GR2.
"$vicont" continue --set d=-0.005 --param omega --from 0.5 --to 2.5 --out "$work/run" --json \
  >"$work/stdout" 2>"$work/run.err" || fail "vicont continue (the saved run): $(cat "$work/run.err")"
gr1=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(repr(next(p["parameter"] for p in d["special_points"] if p["label"] == "GR1")))' "$work/stdout")
pd1=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(repr(next(p["parameter"] for p in d["special_points"] if p["label"] == "PD1")))' "$work/stdout")

# The grazing curve from GR1 down past omega* (and up again to omega = 1.2).
"$vicont" curve --restart "$work/run:GR1" --param2 d --from -0.005 --to -0.0115 --p1-from 0.8 \
  --p1-to 1.2 --out "$work/grazing" --json >"$work/stdout" 2>"$work/grazing.err" ||
  fail "vicont curve from GR1: $(cat "$work/grazing.err")"
# Both lie on one point of the curve (to 1e-16 in the curve's variable), so the order they
# are listed in is rounding's choice; their labels, kinds and place are what is checked.
check "the grazing curve's resonant grazings are not RGLP1 and RGPD1 at (w_d, d*)" \
  'sorted(p["label"] for p in d["points"]) == ["RGLP1", "RGPD1"] and all(abs(p["p1"] - 0.993365491649) < 1e-9 and abs(p["p2"] + 0.0110645721282) < 1e-11 for p in d["points"])'
grep -q '^RGPD1,resonant-grazing-flip,' "$work/grazing/curve_points.csv" ||
  fail "curve_points.csv has no RGPD1: $(cat "$work/grazing/curve_points.csv")"

# The period-doubling curve switched onto at RGPD1, towards d = -0.005: it starts 1e-3 of
# omega's range (0.4) below omega* and ends on PD1.
if "$vicont" curve --restart "$work/grazing:RGPD1" --kind period-doubling --from -0.0115 \
    --to -0.005 --out "$work/flip" --json >"$work/stdout" 2>"$work/flip.err"; then
  check "the switched curve's summary" \
    'd["kind"] == "period-doubling" and d["p1"] == "omega" and d["p2"] == "d" and d["start"]["label"] == "RGPD1" and d["start"]["type"] == "resonant-grazing-flip" and d["start"]["curve"] == "grazing" and d["ok"] and d["curve_status"] == "reached bound" and d["rows_count"] >= 10'
  check "the start is not 4e-4 below omega* in omega, within 1e-4 of d*" \
    'abs(d["start"]["first_row_offset"][0] + 4e-4) < 1e-12 and abs(d["start"]["first_row_offset"][1]) < 1e-4 and d["rows"][0]["impacts"] == 1'
  check "the last row is not PD1 of the saved run (omega = $pd1) at d = -0.005" \
    "abs(d['rows'][-1]['p2'] + 0.005) < 1e-15 and abs(d['rows'][-1]['p1'] - $pd1) < 1e-8"
  # The figure's script; no PNG, which only --format draws (tests/cli_figures.sh).
  expect_files "$work/flip" curve.csv curve_points.csv curve.gp curve.json
  [ ! -e "$work/flip/curve.png" ] || fail "the switched curve drew curve.png without --format png"
  # A middle row by a second method: vicont continue in omega at the row's d.
  set -- $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["rows"]; m=r[len(r)//2]; print(repr(m["p1"]), repr(m["p2"]))' "$work/stdout")
  omega=$1 dd=$2
  expect_flip_near "$omega" "$dd" "$(python3 -c "print($omega - 0.01)")" \
    "$(python3 -c "print($omega + 0.01)")" "$work/check" --period 1
else
  fail "vicont curve --restart grazing:RGPD1 --kind period-doubling: $(cat "$work/flip.err")"
fi

# The period-doubling curve from PD1 into its grazing (GR1 at the resonant grazing), and
# the grazing curve switched onto there, towards d = -0.005: it ends on the branch's GR1.
# The restart names the points file.
"$vicont" curve --restart "$work/run:PD1" --param2 d --from -0.005 --to -0.012 \
  --out "$work/pd" >/dev/null 2>"$work/pd.err" || fail "vicont curve from PD1: $(cat "$work/pd.err")"
if "$vicont" curve --restart "$work/pd/curve_points.csv:gr1" --kind grazing --from -0.0115 \
    --to -0.005 --out "$work/touch" --json >"$work/stdout" 2>"$work/touch.err"; then
  check "the switched grazing curve's summary" \
    'd["kind"] == "grazing" and d["start"]["label"] == "GR1" and d["start"]["curve"] == "period-doubling" and d["ok"] and abs(d["start"]["first_row_offset"][0]) < 1e-15 and abs(d["start"]["first_row_offset"][1]) < 1e-12'
  check "the grazing curve does not end on the saved run's GR1 (omega = $gr1)" \
    "abs(d['rows'][-1]['p2'] + 0.005) < 1e-15 and abs(d['rows'][-1]['p1'] - $gr1) < 1e-8"
else
  fail "vicont curve --restart pd/curve_points.csv:gr1 --kind grazing: $(cat "$work/touch.err")"
fi

# Bad input.
expect_bad GR7 curve --restart "$work/pd:GR7" --kind grazing --from -0.0115 --to -0.005 --out "$work/bad"
expect_bad fold curve --restart "$work/pd:GR1" --kind fold --from -0.0115 --to -0.005 --out "$work/bad"
expect_bad --kind curve --restart "$work/pd:GR1" --from -0.0115 --to -0.005 --out "$work/bad"
expect_bad --kind curve --restart "$work/run:PD1" --kind fold --param2 d --from -0.005 --to -0.004 --out "$work/bad"
expect_bad --param2 curve --restart "$work/pd:GR1" --kind grazing --param2 r --from 1 --to 0.9 --out "$work/bad"
[ ! -e "$work/bad" ] || fail "a refused run made its output directory"

finish cli_curve_switch
