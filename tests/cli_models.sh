#!/bin/sh
# The newer systems through vicont: the 2DOF cantilever (e required: exit 2 naming it;
# simulate, orbit and lyapunov on an impacting motion, with the exponent sum against the
# exact contraction rate), the platform's three contacts (energy balance of the soft
# ones), the two-body system under random loading (the same seed gives the same run,
# another seed another; a fractional seed is exit 2 naming it), and the smooth Duffing
# oscillator through orbit, continue and curve (its cusp). About 12 s of computing.
# Usage: cli_models.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_models.sh /path/to/vicont}
cli_name=cli-models
. "$(dirname "$0")/cli_helpers.sh"

# run NAME ARGS...: vicont ARGS with --json into $work/stdout; a failure is reported.
run() {
  name=$1
  shift
  "$vicont" "$@" --json >"$work/stdout" 2>"$work/stderr" || fail "$name failed: $(cat "$work/stderr")"
}

# --- the catalogue lists both new systems; e shows as required ------------------------
run "systems" systems
check "cantilever-2dof and platform listed" \
  '{"cantilever-2dof", "platform"} <= {s["name"] for s in d["systems"]}'
check "e of the cantilever has no value" \
  '[p["value"] for s in d["systems"] if s["name"] == "cantilever-2dof" for p in s["parameters"] if p["name"] == "e"] == [None]'

# --- cantilever without e: bad input naming e ------------------------------------------
for command in simulate orbit lyapunov; do
  "$vicont" $command --system cantilever-2dof --out "$work/none" >/dev/null 2>"$work/stderr"
  status=$?
  [ "$status" -eq 2 ] || fail "cantilever $command without e: exit $status, expected 2"
  grep -q "'e' is required" "$work/stderr" || fail "cantilever $command without e: $(cat "$work/stderr")"
done

# --- cantilever, hard r = 0.8 near the first resonance: a 1/1 impact orbit --------------
beam="--system cantilever-2dof --set e=0.05 --set omega=1.2 --set r=0.8"
run "cantilever orbit" orbit $beam --out "$work/orbit"
check "one impact per period, stable" 'd["converged"] and d["p"] == 1 and d["n"] == 1 and d["stable"]'
# det of the monodromy matrix = exp(-2 nu T) r^2 (C = nu M; det S = r^2 per impact).
check "product of the multipliers" \
  'abs(math.prod(math.hypot(*m) for m in d["multipliers"]) / (math.exp(-2 * 0.23 * d["period"]) * 0.64) - 1) < 1e-6'
run "cantilever lyapunov" lyapunov $beam --transient 100 --periods 100 --out "$work/lyap"
check "exponent sum = -2 nu + 2 ln(r) / T" \
  'abs(d["exponent_sum"] - (-2 * 0.23 + 2 * math.log(0.8) * d["impacts_per_period"] / d["period"])) < 1e-6'
run "cantilever soft simulate" simulate $beam --set model=soft --set ks=2000 --out "$work/soft"
check "soft contacts and energy balance" \
  'len(d["contacts"]) >= 10 and abs(d["energy"]["relative_balance_error"]) < 1e-6'
check "cs derived from r" 'd["contact_damping"]["origin"] == "derived"'

# --- platform: every contact runs; the soft ones close their energy balance ------------
for contact in linear hertz newton; do
  run "platform $contact" simulate --system platform --set contact=$contact --t-end 0.8 \
    --out "$work/platform_$contact"
  check "platform $contact: success with impacts or contacts" 'd["ok"] and d["impacts"] + len(d.get("contacts", [])) > 0'
  [ $contact = newton ] ||
    check "platform $contact: energy balance" 'abs(d["energy"]["relative_balance_error"]) < 1e-6'
done

# --- two-body under random loading -------------------------------------------------------
run "random seed 3" simulate --system two-body --set loading=random --set seed=3 --t-end 20 --out "$work/r3"
cp "$work/stdout" "$work/first.json"
run "random seed 3 again" simulate --system two-body --set loading=random --set seed=3 --t-end 20 --out "$work/r3b"
python3 - "$work/first.json" "$work/stdout" <<'EOF' || fail "same seed, different final state"
import json, sys
a, b = (json.load(open(p))["final_state"]["state"] for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
EOF
run "random seed 4" simulate --system two-body --set loading=random --set seed=4 --t-end 20 --out "$work/r4"
python3 - "$work/first.json" "$work/stdout" <<'EOF' || fail "another seed, the same final state"
import json, sys
a, b = (json.load(open(p))["final_state"]["state"] for p in sys.argv[1:3])
sys.exit(0 if a != b else 1)
EOF
"$vicont" simulate --system two-body --set loading=random --set seed=1.5 --out "$work/bad" >/dev/null 2>"$work/stderr"
status=$?
[ "$status" -eq 2 ] || fail "fractional seed: exit $status, expected 2"
grep -q "'seed'" "$work/stderr" || fail "fractional seed: $(cat "$work/stderr")"

# --- duffing: a smooth system without contacts through orbit, continue and curve ---------
run "duffing orbit" orbit --system duffing --out "$work/duffing_orbit"
check "duffing: one orbit per period, no impacts" 'd["converged"] and d["p"] == 0 and d["n"] == 1 and d["impacts"] == 0'
# Liouville: det M = exp(-c T / m), the field's trace being -c / m (c = 0.05).
check "duffing: product of the multipliers" \
  'abs(math.prod(math.hypot(*m) for m in d["multipliers"]) / math.exp(-0.05 * d["period"]) - 1) < 1e-8'
run "duffing continue" continue --system duffing --param omega --from 0.8 --to 2 --out "$work/duffing_branch"
check "duffing: the hysteresis's two folds" '[s["label"] for s in d["special_points"]] == ["LP1", "LP2"]'
run "duffing curve" curve --restart "$work/duffing_branch:LP1" --param2 a --from 0.1 --to 0.005 \
  --max-step 0.05 --out "$work/duffing_curve"
# The fold curve turns at its cusp, within 1 % on the scales (omega - 1) / zeta and
# a / zeta^(3/2) of harmonic balance's (zeta = 0.025, gamma = 1; doc/theory.md 6.4):
# eta_c = 1.0442383, a_c = 0.0170934 (measured 0.15 % and 0.23 % from them).
check "duffing: cusp and turning point" \
  'sorted(p["type"] for p in d["points"]) == ["cusp", "turning-point"] and abs(d["points"][0]["p1"] - d["points"][1]["p1"]) < 1e-6'
check "duffing: the cusp near harmonic balance's" \
  '[abs((p["p1"] - 1) / 0.0442383 - 1) < 0.01 and abs(p["p2"] / 0.0170934 - 1) < 0.01 for p in d["points"] if p["type"] == "cusp"] == [True]'

finish cli_models
