#!/bin/sh
# vicont orbit on the chain of N oscillators, a large state: at N = 30 with the stop at
# d = 3 the orbit never reaches it, and all 60 multipliers lie on the closed form's circle
# |mu| = exp(-c T / 2m), T = 2 pi / omega (every mode underdamped up to N = 62 at the
# defaults; doc/performance.md, "Large systems"), to 1e-9; its time series draws 12 of the
# 60 variables (the displacement coordinate x30 among them; --format png, so that gnuplot
# draws it); a chain of 0 masses is bad input. About 0.5 s.
# Usage: cli_chain_orbit.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_chain_orbit.sh /path/to/vicont}
cli_name=cli-chain
. "$(dirname "$0")/cli_helpers.sh"

if "$vicont" orbit --system chain --set N=30 --set d=3 --format png --out "$work/orbit" --json \
    >"$work/stdout" 2>"$work/orbit.err"; then
  check "chain orbit: not converged without impacts" 'd["converged"] and d["p"] == 0 and d["n"] == 1'
  check "chain orbit: not all 60 multipliers" \
    'len(d["multipliers"]) == 60 and d["multipliers_computed"].startswith("all")'
  check "chain orbit: a multiplier off |mu| = exp(-c T / 2m) by more than 1e-9" \
    'all(abs(math.hypot(*m) / math.exp(-0.05 * d["period"] / 2) - 1) <= 1e-9 for m in d["multipliers"])'
  check "chain orbit: T is not 2 pi / 0.5" 'abs(d["period"] - 4 * math.pi) <= 1e-12'
  expect_files "$work/orbit" orbit.json orbit.csv orbit_phase.png orbit_timeseries.png
  grep -q "(12 of 60 variables)" "$work/orbit/orbit_timeseries.gp" ||
    fail "orbit_timeseries.gp does not draw 12 of the 60 variables"
  [ "$(grep -c "using 't':'x30'" "$work/orbit/orbit_timeseries.gp")" -ge 1 ] ||
    fail "orbit_timeseries.gp does not draw x30"
else
  fail "vicont orbit --system chain --set N=30 failed: $(cat "$work/orbit.err")"
fi

expect_bad N orbit --system chain --set N=0 --out "$work/bad"

finish "chain orbit CLI"
