#!/bin/sh
# vicont impact end to end: the --json object of data set (a) at v0 = 1 against
# doc/reproduction.md (closed form to 1e-5, closed form against the ODE to 1e-7,
# restitution K_r), its result files (the figure's script; its PNG only with --format,
# tests/cli_figures.sh), and exit status 2 for any system but hertz-friction.
# Usage: cli_impact.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_impact.sh /path/to/vicont}
cli_name=cli-impact
. "$(dirname "$0")/cli_helpers.sh"

if "$vicont" impact --system hertz-friction --set alpha=1.5 --set c=2.1873e6 --set M=0.1 \
     --set Kr=0.73 --set v0=1 --out "$work/a" --json >"$work/json" 2>"$work/stderr"; then
  if ! python3 -c '
import json, sys
d = json.load(sys.stdin)
published = {"x_c": 1.13918e-3, "P_c": 109.728, "P_c_star": 58.474, "t_c": 1.67647e-3,
             "t_y": 3.97300e-3}
for key, value in published.items():
    assert abs(d[key] - value) <= 1e-5 * value, "%s = %r, published %r" % (key, d[key], value)
assert d["restitution"] == 0.73, d["restitution"]
for key in list(published) + ["restitution"]:
    ode = d["ode"][key]
    assert abs(ode - d[key]) <= 1e-7 * abs(d[key]), "ODE %s = %r, closed form %r" % (key, ode, d[key])
    assert d["relative_difference"][key] <= 1e-7, key
assert d["ok"] is True, d["status"]
assert abs(d["ateb"]["B"] + 0.026137) <= 5e-7 and abs(d["ateb"]["C"] + 0.0020705) <= 5e-8, d["ateb"]
assert d["ateb"]["approximation_error_sine"] <= 3.4e-4, d["ateb"]
' <"$work/json"; then
    fail "impact --json output:"
    sed 's/^/    /' "$work/json"
  fi
  expect_files "$work/a" impact.json impact.csv ateb.csv impact.gp
  [ ! -e "$work/a/impact.png" ] || fail "impact drew impact.png without --format png"
  head -1 "$work/a/impact.csv" | grep -q '^t,stage,x_closed,x_ode,v_closed,v_ode,P_closed,P_ode$' ||
    fail "impact.csv header: $(head -1 "$work/a/impact.csv")"
else
  fail "impact exited with status $?: $(cat "$work/stderr")"
fi

# Any other system: exit 2, one line naming the command's system.
for system in moving-base drop; do
  expect_bad hertz-friction impact --system "$system" --out "$work/b"
done
expect_bad Kr impact --set Kr=1.5 --out "$work/b"
# An impact velocity whose square underflows (or a compression that overflows): refused by
# name, not an Ateb argument of 0/0.
expect_bad v0 impact --set v0=4.9e-324 --out "$work/b"
expect_bad v0 impact --set v0=1e300 --out "$work/b"

finish "impact"
