#!/bin/sh
# vicont diagram end to end: over omega 2 to 2.8 the period-1 branch found at 2 loses its
# stability at a period doubling (near 2.65), and the files and JSON say so; bad input
# exits with 2 and one line naming the item.
# Usage: cli_diagram.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_diagram.sh /path/to/vicont}
cli_name=cli-diagram
. "$(dirname "$0")/cli_helpers.sh"

"$vicont" diagram --param omega --from 2 --to 2.8 --steps 5 --transient 150 --periods 150 \
  --out "$work/out" --json >"$work/diagram.json" 2>"$work/err" ||
  fail "diagram: exit status $? ($(cat "$work/err"))"
expect_files "$work/out" diagram_branches.csv diagram_special_points.csv diagram_integration.csv \
  diagram_samples.csv diagram_impacts.csv diagram.png diagram.gp diagram.json
grep -q '"lost_by": "period-doubling"' "$work/diagram.json" ||
  fail "the period-1 branch does not lose its stability at a period doubling"
grep -q '"stable_until": 2.65' "$work/diagram.json" ||
  fail "the period doubling is not near omega = 2.65: $(grep stable_until "$work/diagram.json")"

bad="$work/bad"
expect_bad lambda  diagram --param lambda --from 2 --to 3 --out "$bad"
expect_bad --to    diagram --param omega --from 2 --out "$bad"
expect_bad "from and to" diagram --param omega --from 2 --to 2 --out "$bad"
# The branches' steps are checked before anything runs, not at the first branch.
expect_bad min_step diagram --param omega --from 2 --to 3 --initial-step 1e-12 --out "$work/step"
[ ! -e "$work/step" ] || fail "--initial-step below the smallest step: the output directory was made"
expect_bad omega     diagram --param omega --from 0 --to 3 --out "$bad"
expect_bad --steps diagram --param omega --from 2 --to 3 --steps 1 --out "$bad"
expect_bad autonomous diagram --system drop --param g --from 9 --to 10 --out "$bad"

finish "diagram (branch, loss of stability, files, bad input)"
