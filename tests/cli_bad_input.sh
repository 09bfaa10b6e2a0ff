#!/bin/sh
# Bad input to the command-line driver (doc/cli.md): exit status 2 and exactly one line on
# stderr that names the offending item. Then one good run whose --json output must be a
# single JSON object with the documented keys.
# Usage: cli_bad_input.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_bad_input.sh /path/to/vicont}
cli_name=cli-bad-input
. "$(dirname "$0")/cli_helpers.sh"

out="$work/out"
expect_bad r       simulate --system moving-base --set r=1.5 --t-end 1 --out "$out"
expect_bad m       simulate --system moving-base --set m=0 --t-end 1 --out "$out"
expect_bad m       simulate --system moving-base --set m=-1 --t-end 1 --out "$out"
expect_bad k       simulate --system moving-base --set k=0 --t-end 1 --out "$out"
expect_bad omega     simulate --system moving-base --set omega=nan --t-end 1 --out "$out"
expect_bad omega     simulate --system moving-base --set omega=abc --t-end 1 --out "$out"
expect_bad foo     simulate --system moving-base --set foo=1 --t-end 1 --out "$out"
expect_bad r       simulate --system moving-base --set r --t-end 1 --out "$out"
expect_bad nosuch  simulate --system nosuch --t-end 1 --out "$out"
expect_bad r       lyapunov --system moving-base --set r=1.5 --periods 10 --transient 10 --out "$out"

# A good run: one JSON object on stdout. With r = 1 the exponent sum is -c/m = -0.23
# exactly (doc/theory.md, 5; the library keeps it within 1e-9); 1e-5 allows for the printed
# precision. At the default omega = 4 the motion is z = 1/2 (published; doc/reproduction.md).
if "$vicont" lyapunov --system moving-base --json --periods 200 --transient 200 \
     --out "$work/json" >"$work/json.stdout" 2>"$work/json.stderr"; then
  if ! python3 -c '
import json, sys
d = json.load(sys.stdin)
assert isinstance(d, dict), "not a JSON object"
for key in ("exponents", "p", "n", "impacts_per_period", "energy_per_period"):
    assert key in d, "missing key " + key
e = d["exponents"]
assert isinstance(e, list) and len(e) == 2, "exponents: %r" % (e,)
assert abs(e[0] + e[1] + 0.23) < 1e-5, "exponent sum %r" % (e[0] + e[1],)
assert d["p"] == 1 and d["n"] == 2, "z = %r/%r, expected 1/2" % (d["p"], d["n"])
assert abs(d["impacts_per_period"] - 0.5) < 1e-9, d["impacts_per_period"]
assert isinstance(d["energy_per_period"], (int, float))
' <"$work/json.stdout"; then
    fail "lyapunov --json output:"
    sed 's/^/    /' "$work/json.stdout"
  fi
else
  fail "lyapunov --json exited with status $?: $(cat "$work/json.stderr")"
fi

finish "bad input CLI"
