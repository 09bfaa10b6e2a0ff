#!/bin/sh
# vicont continue --restart, --switch and --follow-doubling end to end on the moving-base
# oscillator: the saved columns (labels, kinds, unit tangents), labels numbered per type in
# branch order, a doubled branch at every period doubling drawn with its parent, restarts
# from a period doubling onto the doubled branch, from a row along the saved tangent (the
# original run's period doubling again), from a row in another parameter (the saved
# orbit), from a doubled branch's own directory, and bad input (exit 2, one line naming
# the item). The runs whose figures are checked drawn (the doubled branch with its parent,
# the parent with the switched branch) pass --format png; the others write the figures'
# scripts alone, the default.
# Usage: cli_restart.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_restart.sh /path/to/vicont}
cli_name=cli-restart
. "$(dirname "$0")/cli_helpers.sh"

# files NAME PYTHON-STATEMENTS: run over the result files (csv, json, math at hand; `w` is
# the scratch directory, rows(path) the rows of a CSV as dicts); the statements must set
# `ok`.
files() {
  python3 - "$work" "$2" <<'PYTHON' || fail "$1"
import csv, json, math, sys
w = sys.argv[1]
def rows(path):
    with open(w + "/" + path) as f:
        return list(csv.DictReader(f))
ok = False
exec(sys.argv[2])
if not ok:
    print("  not true:", sys.argv[2])
sys.exit(0 if ok else 1)
PYTHON
}

# The z = 1/2 branch (n = 2) in omega from 4 to 4.7 with its period doubling PD1 near
# 4.629156 and the doubled (n = 4) branch from it, whose own period doubling is near
# 4.686782 (doc/cli.md).
if "$vicont" continue --param omega --from 4 --to 4.7 --follow-doubling --format png --out "$work/a" --json \
    >"$work/stdout" 2>"$work/a.err"; then
  check "PD1 is not the period doubling at omega = 4.629156" \
    '[p["label"] for p in d["special_points"]] == ["PD1"] and abs(d["special_points"][0]["parameter"] - 4.629156) < 1e-5 and d["special_points"][0]["kind"] == ""'
  check "doubled_branches: not one n = 4 branch from PD1 with its period doubling at 4.686782" \
    'len(d["doubled_branches"]) == 1 and d["doubled_branches"][0]["label"] == "PD1" and d["doubled_branches"][0]["n"] == 4 and d["doubled_branches"][0]["parameter"] == d["special_points"][0]["parameter"] and abs(d["doubled_branches"][0]["special_points"][0]["parameter"] - 4.686782) < 1e-5'
  expect_files "$work/a" branch.csv special_points.csv branch.png continue.json \
    doubled-PD1/branch.csv doubled-PD1/special_points.csv doubled-PD1/branch.png doubled-PD1/continue.json
  head -1 "$work/a/special_points.csv" | grep -q '^label,type,kind,after_point,omega,' ||
    fail "special_points.csv header: $(head -1 "$work/a/special_points.csv")"
  head -1 "$work/a/branch.csv" | grep -q ',x,v,tangent:x,tangent:v,tangent:omega$' ||
    fail "branch.csv lacks the tangent columns: $(head -1 "$work/a/branch.csv")"
  files "the tangents are not unit vectors, or a special point's is not its row's" '
b = rows("a/branch.csv"); s = rows("a/special_points.csv")
norm = lambda r: math.sqrt(sum(float(r[k]) ** 2 for k in ("tangent:x", "tangent:v", "tangent:omega")))
after = b[int(s[0]["after_point"])]
ok = all(abs(norm(r) - 1) < 1e-12 for r in b) and all(s[0][k] == after[k] for k in ("tangent:x", "tangent:v", "tangent:omega"))'
  draws_branch "$work/a/branch.gp" doubled-PD1/branch.csv ||
    fail "the doubled branch is not drawn in the parent's branch.png (branch.gp)"
else
  fail "vicont continue --follow-doubling (omega 4 to 4.7) failed: $(cat "$work/a.err")"
fi

# A period doubling at every one of three: the n = 1 branch in omega from 1 to 3 passes a
# grazing and three period doublings; labels are numbered per type in branch order and
# each period doubling has its doubled branch (exit 0, or 3 should one of those end early);
# each branch's figure is its script (no --format: none drawn).
"$vicont" continue --param omega --from 1 --to 3 --follow-doubling --out "$work/every" --json \
  >"$work/stdout" 2>"$work/every.err"
status=$?
if [ "$status" -eq 0 ] || [ "$status" -eq 3 ]; then
  check "labels are not numbered per type in branch order" \
    '[p["label"] for p in d["special_points"]] == ["GR1", "PD1", "PD2", "PD3"] and [p["after_point"] for p in d["special_points"]] == sorted(p["after_point"] for p in d["special_points"])'
  check "a grazing has no kind" 'd["special_points"][0]["kind"] in ("impact-velocity", "interior-tangency", "non-impacting-gap")'
  check "not one doubled branch per period doubling" \
    '[b["label"] for b in d["doubled_branches"]] == ["PD1", "PD2", "PD3"] and all(b["n"] == 2 and b["points"] > 1 for b in d["doubled_branches"]) and [b["parameter"] for b in d["doubled_branches"]] == [p["parameter"] for p in d["special_points"][1:]]'
  for k in 1 2 3; do
    expect_files "$work/every/doubled-PD$k" branch.csv special_points.csv branch.gp continue.json
    [ ! -e "$work/every/doubled-PD$k/branch.png" ] || fail "doubled-PD$k: branch.png drawn unasked"
    draws_branch "$work/every/branch.gp" "doubled-PD$k/branch.csv" ||
      fail "doubled-PD$k is not drawn in the parent's branch.gp"
  done
  files "special_points.csv: labels differ from the JSON's" '
ok = [r["label"] for r in rows("every/special_points.csv")] == ["GR1", "PD1", "PD2", "PD3"]'
else
  fail "vicont continue --follow-doubling (omega 1 to 3): exit status $status: $(cat "$work/every.err")"
fi

# The tutorial's frequency response (d = -0.005): the doubled branch from PD1 goes down in
# omega to the grazing of the non-impacting orbit it was born from, and ends there: exit 0,
# the reason saying that the grazing orbit closes after one of its two periods, at the
# parent's GR1.
if "$vicont" continue --set d=-0.005 --param omega --from 0.5 --to 2.5 --follow-doubling --format none \
    --out "$work/born" --json >"$work/stdout" 2>"$work/born.err"; then
  check "the doubled branch does not end at the grazing it was born from" \
    '(lambda b: b["ok"] and "closes after 1 of the" in b["stop_reason"] and "2 forcing periods" in b["stop_reason"] and abs(b["special_points"][-1]["parameter"] - d["special_points"][0]["parameter"]) < 1e-8)(d["doubled_branches"][0]) and d["special_points"][0]["label"] == "GR1"'
else
  fail "vicont continue --follow-doubling (d = -0.005, omega 0.5 to 2.5) failed: $(cat "$work/born.err")"
fi

# --switch at PD1: the doubled branch (n = 4) starts at the period doubling itself and
# finds the next one near 4.686782; the parent is drawn in the same plot.
if "$vicont" continue --restart "$work/a:PD1" --switch --to 4.7 --format png --out "$work/switch" --json \
    >"$work/stdout" 2>"$work/switch.err"; then
  check "--switch: not the doubled n = 4 branch" \
    'd["n"] == 4 and d["start"]["mode"] == "switch" and d["start"]["label"] == "PD1" and d["points"] > 5'
  check "--switch: no period doubling near 4.686782 on the doubled branch" \
    'any(p["label"] == "PD1" and abs(p["parameter"] - 4.686782) < 1e-5 for p in d["special_points"])'
  files "--switch: the first point is not at the period doubling (1e-9)" '
pd = rows("a/special_points.csv")[0]; first = rows("switch/branch.csv")[0]
ok = abs(float(first["omega"]) - float(pd["omega"])) <= 1e-9 and first["n"] == "4"'
  expect_files "$work/switch" branch.png parent/branch.csv parent/special_points.csv
  draws_branch "$work/switch/branch.gp" parent/branch.csv ||
    fail "--switch: the parent branch is not drawn with the doubled one"
else
  fail "vicont continue --restart PD1 --switch failed: $(cat "$work/switch.err")"
fi

# From a doubled branch's own directory: its period doubling onto the n = 8 branch.
if "$vicont" continue --restart "$work/a/doubled-PD1:PD1" --switch --to 4.7 --out "$work/switch8" \
    --json >"$work/stdout" 2>"$work/switch8.err"; then
  check "--switch from doubled-PD1: not an n = 8 branch from omega = 4.686782" \
    'd["n"] == 8 and abs(d["from"] - 4.686782) < 1e-5 and d["points"] > 1'
else
  fail "vicont continue --restart doubled-PD1:PD1 --switch failed: $(cat "$work/switch8.err")"
fi

# From row 10 in the same parameter, along the saved tangent: the branch goes on as the
# original did and finds its period doubling at the same omega (1e-8).
if "$vicont" continue --restart "$work/a:10" --to 4.7 --out "$work/row" --json \
    >"$work/stdout" 2>"$work/row.err"; then
  check "row 10: not along the tangent in omega from the row" \
    'd["start"]["mode"] == "along-tangent" and d["start"]["row"] == 10 and d["parameter"] == "omega" and d["n"] == 2'
  files "row 10: the restarted branch does not start at the row, or finds PD1 elsewhere (1e-8)" '
saved = rows("a/branch.csv")[10]; first = rows("row/branch.csv")[0]
pd = float(rows("a/special_points.csv")[0]["omega"]); again = rows("row/special_points.csv")
ok = all(first[k] == saved[k] for k in ("omega", "x", "v", "section_phase")) and again[0]["label"] == "PD1" and abs(float(again[0]["omega"]) - pd) <= 1e-8'
else
  fail "vicont continue --restart row 10 failed: $(cat "$work/row.err")"
fi

# From row 10 in another parameter (the base amplitude a): omega stays at the row's value and
# the first point is the saved orbit (1e-10).
if "$vicont" continue --restart "$work/a:10" --param a --to 0.0026 --out "$work/other" --json \
    >"$work/stdout" 2>"$work/other.err"; then
  files "--param a: omega is not the row's, or the first point is not the saved orbit (1e-10)" '
saved = rows("a/branch.csv")[10]; first = rows("other/branch.csv")[0]
d = json.load(open(w + "/stdout"))
ok = (d["start"]["mode"] == "other-parameter" and d["parameters"]["omega"] == float(saved["omega"])
      and float(first["a"]) == 0.0025 and first["section_phase"] == saved["section_phase"]
      and all(abs(float(first[k]) - float(saved[k])) <= 1e-10 for k in ("x", "v")))'
else
  fail "vicont continue --restart row 10 --param a failed: $(cat "$work/other.err")"
fi

# --set overrides a saved parameter: the point is corrected at the new values first.
if "$vicont" continue --restart "$work/a:PD1" --set a=0.0026 --to 4.7 --out "$work/set" --json \
    >"$work/stdout" 2>"$work/set.err"; then
  check "--set a=0.0026: not applied over the saved a, or the point not corrected" \
    'd["parameters"]["a"] == 0.0026 and d["parameters"]["c"] == 0.23 and d["start"]["mode"] == "corrected"'
else
  fail "vicont continue --restart PD1 --set a=0.0026 failed: $(cat "$work/set.err")"
fi

# Bad input: exit 2 and one stderr line naming the item.
bad="$work/bad"
expect_bad nosuch continue --restart "$work/nosuch:PD1" --to 4.7 --out "$bad"
expect_bad PD7 continue --restart "$work/a:PD7" --to 4.7 --out "$bad"
expect_bad 99 continue --restart "$work/a:99" --to 4.7 --out "$bad"
expect_bad --switch continue --restart "$work/a:10" --switch --to 4.7 --out "$bad"
expect_bad --switch continue --param omega --from 4 --to 4.7 --switch --out "$bad"
expect_bad --restart continue --restart "$work/a" --to 4.7 --out "$bad"
expect_bad --system continue --restart "$work/a:PD1" --system drop --to 4.7 --out "$bad"
expect_bad omega continue --restart "$work/a:PD1" --set omega=4 --to 4.7 --out "$bad"
expect_bad --to continue --restart "$work/a:PD1" --out "$bad"
expect_bad --out continue --restart "$work/a:PD1" --to 4.7 --out "$work/a"
mkdir -p "$work/broken"
echo '{"system": "moving-base",' >"$work/broken/continue.json"
expect_bad continue.json continue --restart "$work/broken:PD1" --to 4.7 --out "$bad"
expect_bad continue.json continue --restart "$work:PD1" --to 4.7 --out "$bad"
cp "$work/a/continue.json" "$work/broken/continue.json"
head -3 "$work/a/branch.csv" >"$work/broken/branch.csv"
echo "3,4.5" >>"$work/broken/branch.csv"
expect_bad branch.csv continue --restart "$work/broken:1" --to 4.7 --out "$bad"

finish "restart CLI"
