#!/bin/sh
# vicont basins end to end: a small grid writes its files with a key of the attractors
# found; bad axes exit with 2 and one line naming the item.
# Usage: cli_basins.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_basins.sh /path/to/vicont}
work=$(mktemp -d "${TMPDIR:-/tmp}/vicont-basins-test.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# eta = 2.6: the period-1 orbit and a 3/3 orbit coexist (tests/test_basins.cpp).
"$vicont" basins --set eta=2.6 --x x:-0.01:0.01:3 --y v:-0.03:0.03:3 --transient 200 \
  --max-period 8 --threads 2 --out "$work/out" --json >"$work/basins.json" 2>"$work/err" ||
  fail "basins: exit status $? ($(cat "$work/err"))"
for f in basins.csv attractors.csv basins.png basins.gp basins.json; do
  [ -s "$work/out/$f" ] || fail "basins did not write $f"
done
[ "$(wc -l <"$work/out/basins.csv")" -eq 10 ] || fail "basins.csv: expected a header and 9 cells"
grep -q '"cells": 9' "$work/basins.json" || fail "the JSON summary does not count 9 cells"
grep -q '"label": "A1: z = ' "$work/basins.json" || fail "the JSON summary names no attractor"

expect_bad() {
  item=$1
  shift
  "$vicont" basins "$@" --out "$work/bad" >"$work/stdout" 2>"$work/stderr"
  status=$?
  [ "$status" -eq 2 ] || fail "vicont basins $*: exit status $status, expected 2"
  [ "$(wc -l <"$work/stderr")" -eq 1 ] || fail "vicont basins $*: not one line on stderr: $(cat "$work/stderr")"
  grep -q -- "$item" "$work/stderr" || fail "vicont basins $*: stderr does not name '$item': $(cat "$work/stderr")"
}
expect_bad foo       --x foo:0:1:3 --y v:0:1:3
expect_bad --x       --x x:0:1 --y v:0:1:3
expect_bad --y       --x x:0:1:3
expect_bad STEPS     --x x:0:1:0 --y v:0:1:3
expect_bad "--y TO"  --x x:0:1:3 --y v:0:abc:3
expect_bad "both axes" --x x:0:1:3 --y x:0:1:3
expect_bad eta       --set eta=-2 --x x:0:1:3 --y v:0:1:3

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "vicont basins: files, key of attractors, bad input: all good"
