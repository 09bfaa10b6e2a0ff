#!/bin/sh
# vicont orbit and vicont continue from the command line: the documented JSON keys, the
# published two-body amplitude (reference/two_body.md), the period doubling of the
# moving-base z = 1/2 branch (located by continuation; a direct-integration check of the
# same point is in tests/test_continuation_period_doubling.cpp), the result files, and
# bad input (exit 2, one line naming the item).
# Usage: cli_orbit_continue.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_orbit_continue.sh /path/to/vicont}
work=$(mktemp -d "${TMPDIR:-/tmp}/vicont-orbit-test.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed to check JSON"; exit 1; }

# check FILE PYTHON-EXPRESSION DESCRIPTION: the expression, with d the parsed JSON object,
# must be true.
check() {
  python3 - "$1" "$2" <<'PY' || fail "$3"
import json, sys
with open(sys.argv[1]) as f:
    d = json.load(f)
ok = eval(sys.argv[2], {"d": d, "abs": abs, "len": len})
sys.exit(0 if ok else 1)
PY
}

# Two-body Hertz at lambda = 1: A_max(x1) = 0.078504 within 2e-4 rel, one impact per period.
if "$vicont" orbit --system two-body --set contact=hertz --out "$work/orbit" --json \
    >"$work/orbit.json" 2>"$work/orbit.err"; then
  check "$work/orbit.json" 'all(k in d for k in ("p", "n", "multipliers", "stable", "state", "amplitudes"))' \
    "orbit --json lacks a documented key"
  check "$work/orbit.json" 'd["p"] == 1 and d["n"] == 1 and d["stable"] is True' "orbit: expected a stable z = 1/1 orbit"
  check "$work/orbit.json" 'abs(d["amplitudes"]["x1"] / 0.078504 - 1) <= 2e-4' "orbit: A_max(x1) not 0.078504 within 2e-4"
  check "$work/orbit.json" 'len(d["multipliers"]) == 4 and all(len(m) == 2 for m in d["multipliers"])' \
    "orbit: multipliers are not four [re, im] pairs"
  for f in orbit.json orbit.csv orbit_phase.png orbit_timeseries.png; do
    [ -s "$work/orbit/$f" ] || fail "orbit did not write $f"
  done
else
  fail "vicont orbit (two-body hertz) failed: $(cat "$work/orbit.err")"
fi

# Moving base, z = 1/2 branch in eta from 4 to 4.7: a period doubling near 4.62916
# (test_continuation finds 4.629156; the reference window of period 2 ends at 4.60 +- 0.05).
if "$vicont" continue --param eta --from 4 --to 4.7 --out "$work/branch" --json \
    >"$work/branch.json" 2>"$work/branch.err"; then
  check "$work/branch.json" '"special_points" in d and "points" in d and d["points"] > 10' \
    "continue --json lacks special_points or points"
  check "$work/branch.json" 'any(p["type"] == "period-doubling" and abs(p["parameter"] - 4.629156) < 1e-4 for p in d["special_points"])' \
    "continue: no period doubling at eta = 4.629156"
  for f in branch.csv special_points.csv branch.png branch.gp continue.json; do
    [ -s "$work/branch/$f" ] || fail "continue did not write $f"
  done
  head -1 "$work/branch/branch.csv" | grep -q '^index,eta,A_max:x,impacts,spectral_radius' ||
    fail "branch.csv header: $(head -1 "$work/branch/branch.csv")"
else
  fail "vicont continue (moving-base eta) failed: $(cat "$work/branch.err")"
fi

# Bad input: exit 2 and one stderr line naming the item.
expect_bad() {
  item=$1
  shift
  "$vicont" "$@" >/dev/null 2>"$work/stderr"
  status=$?
  [ "$status" -eq 2 ] || fail "vicont $*: exit status $status, expected 2"
  [ "$(wc -l <"$work/stderr")" -eq 1 ] || fail "vicont $*: stderr is not one line"
  grep -q -- "$item" "$work/stderr" || fail "vicont $*: stderr does not name $item: $(cat "$work/stderr")"
}
expect_bad "--param" continue --from 1 --to 2 --out "$work/bad"
expect_bad "--to" continue --param eta --from 1 --out "$work/bad"
expect_bad "nosuch" continue --param nosuch --from 1 --to 2 --out "$work/bad"
expect_bad "period" orbit --period -1 --out "$work/bad"
expect_bad "autonomous" orbit --system drop --out "$work/bad"

[ "$failures" -eq 0 ] && echo "all orbit/continue CLI checks passed"
exit "$failures"
