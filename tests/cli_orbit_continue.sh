#!/bin/sh
# vicont orbit and vicont continue from the command line: the documented JSON keys, the
# published two-body amplitude (doc/reproduction.md), the period doubling of the
# moving-base z = 1/2 branch (located by continuation; a direct-integration check of the
# same point is in tests/test_continuation_period_doubling.cpp), the result files (the
# orbit's figures drawn with --format png: no other test draws them; continue's branch
# figure its script only, the default), and bad input (exit 2, one line naming the item).
# Usage: cli_orbit_continue.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_orbit_continue.sh /path/to/vicont}
cli_name=cli-orbit
. "$(dirname "$0")/cli_helpers.sh"

# Two-body Hertz at lambda = 1: A_max(x1) = 0.078504 within 2e-4 rel, one impact per period.
if "$vicont" orbit --system two-body --set contact=hertz --format png --out "$work/orbit" --json \
    >"$work/stdout" 2>"$work/orbit.err"; then
  check "orbit --json lacks a documented key" \
    'all(k in d for k in ("p", "n", "multipliers", "stable", "state", "amplitudes"))'
  check "orbit: expected a stable z = 1/1 orbit" 'd["p"] == 1 and d["n"] == 1 and d["stable"] is True'
  check "orbit: A_max(x1) not 0.078504 within 2e-4" 'abs(d["amplitudes"]["x1"] / 0.078504 - 1) <= 2e-4'
  check "orbit: multipliers are not four [re, im] pairs" \
    'len(d["multipliers"]) == 4 and all(len(m) == 2 for m in d["multipliers"])'
  expect_files "$work/orbit" orbit.json orbit.csv orbit_phase.png orbit_phase.gp \
    orbit_timeseries.png orbit_timeseries.gp
else
  fail "vicont orbit (two-body hertz) failed: $(cat "$work/orbit.err")"
fi

# Moving base, z = 1/2 branch in omega from 4 to 4.7: a period doubling near 4.62916
# (test_continuation finds 4.629156; the published window of period 2 ends at 4.60 +- 0.05).
if "$vicont" continue --param omega --from 4 --to 4.7 --out "$work/branch" --json \
    >"$work/stdout" 2>"$work/branch.err"; then
  check "continue --json lacks special_points or points" \
    '"special_points" in d and "points" in d and d["points"] > 10'
  check "continue: no period doubling at omega = 4.629156" \
    'any(p["type"] == "period-doubling" and abs(p["parameter"] - 4.629156) < 1e-4 for p in d["special_points"])'
  expect_files "$work/branch" branch.csv special_points.csv branch.gp continue.json
  [ ! -e "$work/branch/branch.png" ] || fail "continue drew branch.png without --format png"
  head -1 "$work/branch/branch.csv" | grep -q '^index,omega,A_max:x,impacts,spectral_radius' ||
    fail "branch.csv header: $(head -1 "$work/branch/branch.csv")"
else
  fail "vicont continue (moving-base omega) failed: $(cat "$work/branch.err")"
fi

# CVODE's Adams for the Hertz contact (--integrator adams; auto takes the Runge-Kutta
# pair there): the published A_max(x1) = 0.078504 at lambda = 1 (doc/reproduction.md, within
# 2e-4) at the branch's end.
if "$vicont" continue --system two-body --set contact=hertz --param lambda --from 1.2 --to 1 \
    --integrator adams --out "$work/adams" --json >"$work/stdout" 2>"$work/adams.err"; then
  check "continue --integrator adams: A_max(x1) at lambda = 1 is not 0.078504" \
    'abs(d["last_point"]["amplitudes"]["x1"] - 0.078504) <= 2e-4 * 0.078504'
else
  fail "vicont continue --integrator adams (two-body hertz) failed: $(cat "$work/adams.err")"
fi

# Bad input: exit 2 and one stderr line naming the item.
expect_bad "--param" continue --from 1 --to 2 --out "$work/bad"
expect_bad "--to" continue --param omega --from 1 --out "$work/bad"
# --at: numbers separated by commas, each inside the range.
expect_bad "--at" continue --param omega --from 1 --to 2 --at 1.5,,1.8 --out "$work/bad"
expect_bad "--at" continue --param omega --from 1 --to 2 --at 1.5,two --out "$work/bad"
expect_bad "--at" continue --param omega --from 1 --to 2 --at 2.5 --out "$work/bad"
expect_bad "nosuch" continue --param nosuch --from 1 --to 2 --out "$work/bad"
expect_bad "--integrator" continue --param omega --from 4 --to 4.1 --integrator fast --out "$work/bad"
expect_bad "period" orbit --period -1 --out "$work/bad"
expect_bad "autonomous" orbit --system drop --out "$work/bad"

finish "orbit/continue CLI"
