#!/bin/sh
# vicont simulate on the rheological damper and the soft contacts, as doc/models/
# rheological.md ("CLI additions") describes: the JSON summary's contacts, contact maxima,
# final outputs and energy balance; the y and R columns of the time series; the hysteresis
# PNGs (--format png: figures are drawn only when asked); nothing of that for a hard
# model; a bad damper law is exit 2 naming "model".
# Usage: cli_rheological.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_rheological.sh /path/to/vicont}
cli_name=cli-rheological
. "$(dirname "$0")/cli_helpers.sh"

# --- elastoplastic damper, 10 s ------------------------------------------------------
"$vicont" simulate --system rheological --set model=elastoplastic --t-end 10 \
  --format png --out "$work/ep" --json >"$work/stdout" 2>"$work/stderr" || fail "elastoplastic run failed: $(cat "$work/stderr")"
check "contacts are [t_in, t_out] pairs starting at the first contact" \
  'len(d["contacts"]) == 7 and abs(d["contacts"][0][0] - 0.423803) < 1e-5 and d["contacts"][-1][1] is None'
check "contact maxima" 'abs(d["max_contact_force"] - 4442.49) < 0.01 and abs(d["max_penetration"] - 2.37703) < 1e-5'
check "final state with outputs y and R" \
  'set(d["final_state"]["state"]) == {"x", "v", "z"} and set(d["final_state"]["outputs"]) == {"y", "R"}'
check "energy balance to 1e-6 of the initial energy" \
  'd["energy"]["initial"] == 4193 and abs(d["energy_balance_error"]) < 1e-6 * 4193 and d["energy"]["balance_error"] == d["energy_balance_error"]'
check "hysteresis plots listed" \
  'any(f.endswith("hysteresis_R_y.png") for f in d["files"]) and any(f.endswith("hysteresis_R_z.png") for f in d["files"])'
expect_files "$work/ep" hysteresis_R_y.png hysteresis_R_z.png hysteresis_R_y.gp timeseries.png
head -1 "$work/ep/timeseries.csv" | grep -q '^t,x,v,z,dissipated_energy,supplied_energy,y,R,mode,event$' ||
  fail "time series header: $(head -1 "$work/ep/timeseries.csv")"

# --- soft drop: contacts and balance; hard moving base: none of it -------------------
"$vicont" simulate --system drop --set model=soft --out "$work/drop" --json >"$work/stdout" 2>&1 ||
  fail "soft drop run failed"
check "soft drop: depth of the first contact (test_drop: 0.030210)" \
  'len(d["contacts"]) == 4 and abs(d["max_penetration"] - 0.030210) < 1e-5 and abs(d["energy_balance_error"]) < 1e-6 * 9.81'
"$vicont" simulate --system moving-base --out "$work/hard" --json >"$work/stdout" 2>&1 ||
  fail "hard moving-base run failed"
check "hard model: no contact or energy keys" \
  'not any(k in d for k in ("contacts", "max_contact_force", "max_penetration", "energy_balance_error", "energy"))'

# --- bad input -------------------------------------------------------------------------
expect_bad model simulate --system rheological --set model=plastic --out "$work/bad"

finish "rheological CLI"
