#!/bin/sh
# vicont diagram end to end: over eta 2 to 2.8 the period-1 branch found at 2 loses its
# stability at a period doubling (near 2.65), and the files and JSON say so; bad input
# exits with 2 and one line naming the item.
# Usage: cli_diagram.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_diagram.sh /path/to/vicont}
work=$(mktemp -d "${TMPDIR:-/tmp}/vicont-diagram-test.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

"$vicont" diagram --param eta --from 2 --to 2.8 --steps 5 --transient 150 --periods 150 \
  --out "$work/out" --json >"$work/diagram.json" 2>"$work/err" ||
  fail "diagram: exit status $? ($(cat "$work/err"))"
for f in diagram_branches.csv diagram_special_points.csv diagram_integration.csv \
  diagram_samples.csv diagram_impacts.csv diagram.png diagram.gp diagram.json; do
  [ -s "$work/out/$f" ] || fail "diagram did not write $f"
done
grep -q '"lost_by": "period-doubling"' "$work/diagram.json" ||
  fail "the period-1 branch does not lose its stability at a period doubling"
grep -q '"stable_until": 2.65' "$work/diagram.json" ||
  fail "the period doubling is not near eta = 2.65: $(grep stable_until "$work/diagram.json")"

expect_bad() {
  item=$1
  shift
  "$vicont" diagram "$@" --out "$work/bad" >"$work/stdout" 2>"$work/stderr"
  status=$?
  [ "$status" -eq 2 ] || fail "vicont diagram $*: exit status $status, expected 2"
  [ "$(wc -l <"$work/stderr")" -eq 1 ] || fail "vicont diagram $*: not one line on stderr: $(cat "$work/stderr")"
  grep -q -- "$item" "$work/stderr" || fail "vicont diagram $*: stderr does not name '$item': $(cat "$work/stderr")"
}
expect_bad omega   --param omega --from 2 --to 3
expect_bad --to    --param eta --from 2
expect_bad --from  --param eta --from 2 --to 2
expect_bad eta     --param eta --from 0 --to 3
expect_bad --steps --param eta --from 2 --to 3 --steps 1
expect_bad autonomous --system drop --param g --from 9 --to 10

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "vicont diagram: branch, loss of stability, files, bad input: all good"
