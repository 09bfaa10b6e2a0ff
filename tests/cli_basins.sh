#!/bin/sh
# vicont basins end to end: a small grid writes its files with a key of the attractors
# found (the figure's script; no PNG unasked); a single row is drawn (--format png) as a
# box per cell; bad axes exit with 2 and one line naming the item.
# Usage: cli_basins.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_basins.sh /path/to/vicont}
cli_name=cli-basins
. "$(dirname "$0")/cli_helpers.sh"

# omega = 2.6: the period-1 orbit and a 3/3 orbit coexist (tests/test_basins.cpp).
"$vicont" basins --set omega=2.6 --x x:0:0.02:3 --y v:-0.03:0.03:3 --transient 200 \
  --max-period 8 --threads 2 --out "$work/out" --json >"$work/basins.json" 2>"$work/err" ||
  fail "basins: exit status $? ($(cat "$work/err"))"
expect_files "$work/out" basins.csv attractors.csv basins.gp basins.json
[ ! -e "$work/out/basins.png" ] || fail "basins drew basins.png without --format png"
[ "$(wc -l <"$work/out/basins.csv")" -eq 10 ] || fail "basins.csv: expected a header and 9 cells"
grep -q '"cells": 9' "$work/basins.json" || fail "the JSON summary does not count 9 cells"
grep -q '"label": "A1: z = ' "$work/basins.json" || fail "the JSON summary names no attractor"
# The cells are one image with a key entry per label; a single row, which no image can be,
# a box per cell: drawn (--format png), so that gnuplot shows it can draw it.
grep -q "with image notitle" "$work/out/basins.gp" || fail "basins.gp: the cells are no image"
grep -q "keyentry with boxes fs solid 1.0 fc rgb '#1f4e9a' title 'A1: z = " "$work/out/basins.gp" ||
  fail "basins.gp: the key does not name A1 in its colour"
"$vicont" basins --set omega=2.6 --x x:0:0.02:3 --y v:0:0:1 --transient 200 --max-period 8 \
  --format png --out "$work/row" >/dev/null 2>"$work/err" ||
  fail "basins, one row: exit status $? ($(cat "$work/err"))"
expect_files "$work/row" basins.png
grep -q "with boxxyerror" "$work/row/basins.gp" || fail "basins.gp of one row: not a box per cell"

bad="$work/bad"
expect_bad foo       basins --x foo:0:1:3 --y v:0:1:3 --out "$bad"
expect_bad --x       basins --x x:0:1 --y v:0:1:3 --out "$bad"
expect_bad --y       basins --x x:0:1:3 --out "$bad"
expect_bad STEPS     basins --x x:0:1:0 --y v:0:1:3 --out "$bad"
expect_bad "--y TO"  basins --x x:0:1:3 --y v:0:abc:3 --out "$bad"
expect_bad "both axes" basins --x x:0:1:3 --y x:0:1:3 --out "$bad"
expect_bad omega       basins --set omega=-2 --x x:0:1:3 --y v:0:1:3 --out "$bad"

finish "basins (files, key of attractors, the cells as an image, bad input)"
