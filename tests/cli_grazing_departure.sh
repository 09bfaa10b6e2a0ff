#!/bin/sh
# Continuation through both grazings of a forced linear oscillator with a fixed stop (a
# model file): m x'' + c x' + k x = f cos(omega t), stop at x = g with restitution r. The
# non-impacting orbit's amplitude f / sqrt((k - m w^2)^2 + (c w)^2) reaches g at two
# frequencies (the closed form); the branch must pass both, onto the impacting family and
# back, for every (g, r) here. At r = 0.8 the departure onto the impacting family once
# ended the branch with "the other family cannot be reached: " and no reason.
# Usage: cli_grazing_departure.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_grazing_departure.sh /path/to/vicont}
cli_name=cli-grazing-departure
. "$(dirname "$0")/cli_helpers.sh"

cat >"$work/stop.json" <<'JSON'
{
  "name": "oscillator-stop",
  "description": "forced oscillator hitting a fixed stop at x = g",
  "parameters": {
    "m": {"default": 1.0, "rule": "positive", "description": "mass"},
    "k": {"default": 1.0, "rule": "positive", "description": "spring stiffness"},
    "c": {"default": 0.1, "rule": "non-negative", "description": "viscous damping"},
    "f": {"default": 0.1, "rule": "any", "description": "forcing amplitude"},
    "omega": {"default": 0.8, "rule": "positive", "description": "forcing frequency"},
    "g": {"default": 0.5, "rule": "positive", "description": "gap from rest to the stop"},
    "r": {"default": 0.6, "rule": "unit-interval", "description": "restitution coefficient"}
  },
  "mass": "m", "stiffness": "k", "damping": "c",
  "forcing": {"frequency": "omega", "cos": ["f"]},
  "contacts": [
    {"name": "stop", "normal": [-1], "surface": "-g", "law": "hard", "restitution": "r"}
  ]
}
JSON

for case in "0.5 0.8" "0.3 0.8" "0.5 0.9" "0.3 0.6"; do
  set -- $case
  g=$1
  r=$2
  if "$vicont" continue --model "$work/stop.json" --set g="$g" --set r="$r" --param omega \
       --from 0.5 --to 1.5 --out "$work/g$g-r$r" --json >"$work/stdout" 2>"$work/stderr"; then
    # The grazings of the closed form: (1 - u)^2 + 0.01 u = (0.1 / g)^2, u = omega^2.
    python3 - "$work/stdout" "$g" <<'PYTHON' || fail "g = $g, r = $r: grazings or end"
import json, math, sys
d = json.load(open(sys.argv[1]))
g = float(sys.argv[2])
b, c = 2.0 - 0.01, 1.0 - (0.1 / g) ** 2
roots = [math.sqrt((b - s * math.sqrt(b * b - 4 * c)) / 2) for s in (1, -1)]
grazings = sorted(p["parameter"] for p in d["special_points"] if p["type"] == "grazing")
print("  g = %g: grazings %s, closed form %s" % (g, grazings, roots))
ok = len(grazings) == 2 and all(abs(a - e) <= 1e-8 for a, e in zip(grazings, roots))
sys.exit(0 if ok and d["ok"] and d["last_point"]["parameter"] == 1.5 else 1)
PYTHON
  else
    fail "g = $g, r = $r: exit status $? ($(tail -1 "$work/stderr"))"
  fi
done

[ "$failures" -eq 0 ] || exit 1
echo "cli_grazing_departure: ok"
