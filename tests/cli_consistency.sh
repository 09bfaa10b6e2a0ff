#!/bin/sh
# One name for the forcing frequency (omega; eta accepted with a note), start states inside
# a contact (a warning; basins refuses such a grid), the stable column at special points,
# config file sections per command (doc/cli.md).
# Usage: cli_consistency.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_consistency.sh /path/to/vicont}
cli_name=cli-consistency
. "$(dirname "$0")/cli_helpers.sh"

# run NAME ARGS...: `vicont ARGS --json` succeeds; its stdout in $work/stdout, stderr in
# $work/stderr.
run() {
  name=$1
  shift
  "$vicont" "$@" --json >"$work/stdout" 2>"$work/stderr" ||
    fail "$name: exit status $? ($(cat "$work/stderr"))"
}

# The forcing frequency is omega in every forced system of the catalogue.
for system in moving-base cantilever-2dof duffing two-body platform chain; do
  "$vicont" systems --system "$system" --json >"$work/stdout" 2>"$work/stderr" ||
    fail "systems --system $system: exit status $?"
  check "$system: a parameter omega (old name eta), none called eta" \
    '[p.get("old_names") for p in d["systems"][0]["parameters"] if p["name"] == "omega"] == [["eta"]] and "eta" not in [p["name"] for p in d["systems"][0]["parameters"]]'
done

# The moving base's d: the base's offset, the gap at rest being -d (doc/theory.md, 3).
"$vicont" systems --system moving-base --json >"$work/stdout" 2>"$work/stderr" ||
  fail "systems --system moving-base: exit status $?"
check "the description of d says the gap at rest is -d" \
  '[p["description"] for p in d["systems"][0]["parameters"] if p["name"] == "d"][0].endswith("the gap at rest is -d")'

# eta is accepted everywhere a parameter is named, with one note naming omega.
run "--set eta" simulate --set eta=4.5 --t-end 10 --out "$work/alias-set"
check "--set eta=4.5 sets omega" 'd["parameters"]["omega"] == 4.5'
grep -q "note: parameter 'eta' is called 'omega' now" "$work/stderr" ||
  fail "--set eta: no note naming omega ($(cat "$work/stderr"))"
[ "$(stderr_lines)" -eq 1 ] || fail "--set eta: expected one note, got: $(cat "$work/stderr")"
printf '[parameters]\neta = 4.5\n' >"$work/alias.cfg"
run "config eta" simulate --config "$work/alias.cfg" --t-end 10 --out "$work/alias-config"
check "eta = 4.5 in [parameters] sets omega" 'd["parameters"]["omega"] == 4.5'
grep -q "'omega'" "$work/stderr" || fail "config eta: no note naming omega"
run "--param eta" continue --param eta --from 4 --to 4.2 --out "$work/alias-param"
check "--param eta continues omega" 'd["parameter"] == "omega"'
head -1 "$work/alias-param/branch.csv" | grep -q '^index,omega,' ||
  fail "--param eta: branch.csv has no omega column: $(head -1 "$work/alias-param/branch.csv")"
grep -q "'omega'" "$work/stderr" || fail "--param eta: no note naming omega"
# A model file declares old names as well (the example: eta for omega); one that names
# another parameter is refused.
model="$(dirname "$0")/../examples/models/moving_base.json"
run "--model --set eta" simulate --model "$model" --set eta=4.5 --t-end 10 --out "$work/alias-model"
check "--model: eta=4.5 sets omega" 'd["parameters"]["omega"] == 4.5'
grep -q "'omega'" "$work/stderr" || fail "--model --set eta: no note naming omega"
sed 's/"old_names": \["eta"\]/"old_names": ["m"]/' "$model" >"$work/taken.json"
expect_bad old_names simulate --model "$work/taken.json" --out "$work/bad"
# A bad value is refused in the parameter's own name.
expect_bad omega simulate --set eta=-1 --quiet --out "$work/bad"

# A start inside the base: a warning naming the contact, the gap and the parameter set.
run "inside the base" simulate --set d=0.001 --t-end 5 --out "$work/inside"
grep -q "warning: the initial state (x = 0, v = 0 at t = 0) lies inside the contact 'base' (gap -0.001) with d = 0.001" \
  "$work/stderr" || fail "simulate --set d=0.001: no warning naming the contact ($(cat "$work/stderr"))"
run "clear of the base" simulate --set d=-0.001 --t-end 5 --out "$work/clear"
[ ! -s "$work/stderr" ] || fail "simulate --set d=-0.001 warned: $(cat "$work/stderr")"
# basins refuses a grid with initial states inside the base, naming the contact.
expect_bad obstacle basins --x x:-0.01:0.01:3 --y v:-0.03:0.03:3 --out "$work/bad"
grep -q "3 of the 9 initial states lie inside an obstacle; the first, x = -0.01, v = -0.03" \
  "$work/stderr" || fail "basins: the refusal does not name the first cell: $(cat "$work/stderr")"

# The stable column at a special point is the branch's before it: the z = 1/2 branch from
# omega = 4 is stable up to its period doubling and unstable after it.
run "period doubling" continue --param omega --from 4 --to 4.7 --out "$work/pd"
check "PD1: stable before, unstable after" \
  'any(p["type"] == "period-doubling" and p["stable"] is True and p["stable_after"] is False for p in d["special_points"])'

# One config file for two commands: the top part shared, a section per command.
cat >"$work/two.cfg" <<'CONFIG'
system = moving-base
out = shared-out
[continue]
param = omega
from = 4
to = 4.2
[lyapunov]
transient = 20
periods = 30
out = lyapunov-out
[parameters]
d = -0.001
CONFIG
( cd "$work" && "$vicont" continue --config two.cfg --json >stdout 2>stderr ) ||
  fail "continue --config two.cfg: $(cat "$work/stderr")"
check "[continue] section read" 'd["parameter"] == "omega" and d["parameters"]["d"] == -0.001'
[ -s "$work/shared-out/continue.json" ] || fail "continue: the top part's out was not used"
( cd "$work" && "$vicont" lyapunov --config two.cfg --json >stdout 2>stderr ) ||
  fail "lyapunov --config two.cfg: $(cat "$work/stderr")"
check "[lyapunov] section read" 'd["transient_periods"] == 20 and d["periods"] == 30'
[ -s "$work/lyapunov-out/lyapunov.json" ] || fail "lyapunov: its section's out did not win"
# The command line still wins over a section.
( cd "$work" && "$vicont" lyapunov --config two.cfg --periods 40 --json >stdout 2>stderr ) ||
  fail "lyapunov --config two.cfg --periods 40: $(cat "$work/stderr")"
check "--periods over [lyapunov]" 'd["periods"] == 40'
printf '[frobnicate]\nperiods = 3\n' >"$work/bad.cfg"
expect_bad frobnicate lyapunov --config "$work/bad.cfg" --out "$work/bad"
printf '[lyapunov]\nperiods = 3\nperiods = 4\n' >"$work/twice.cfg"
expect_bad periods lyapunov --config "$work/twice.cfg" --out "$work/bad"

finish "consistency (omega, contacts, parameter names, stable, config sections)"
