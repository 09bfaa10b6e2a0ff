#!/bin/sh
# vicont sweep over a grid of two parameters (--param2, doc/sweeps.md "Grids"): its files
# (a row per cell in sweep.csv and sweep_grid.csv, the map as PNG with --format png and
# its script, the grid's shape in sweep.json); the same grid with 1 and with 2 threads
# writes identical files; a grid killed (SIGKILL) after about half of its cells and resumed with --resume
# computes only the missing cells and ends with files identical to an uninterrupted run;
# bad input of the grid's options exits with 2 and one line naming the option.
# Usage: cli_sweep_grid.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_sweep_grid.sh /path/to/vicont}
cli_name=cli-sweep-grid
. "$(dirname "$0")/cli_helpers.sh"

. "$(dirname "$0")/sweep_files.sh"

# Every cell from rest: 6 x 4 cells of the hard moving-base oscillator in (omega, r). The
# 1-thread run draws its figures (--format png): the map is checked as a PNG, and that no
# one-parameter panels are drawn.
grid="--param omega --from 2 --to 3.5 --steps 6 --param2 r --from2 0.7 --to2 1 --steps2 4
      --set model=hard --transient 200 --periods 200 --samples 5"
"$vicont" sweep $grid --threads 1 --format png --out "$work/one" --json >"$work/stdout" 2>"$work/one.err" ||
  fail "1-thread grid: exit status $? ($(cat "$work/one.err"))"
check "the JSON summary has the grid's shape" \
  "(d['parameter'] == 'omega' and d['parameter2'] == 'r' and d['steps2'] == 4 and
    d['grid'] == {'columns': 6, 'rows': 4, 'cells': 24, 'layers': 1} and
    len(d['points']) == 24 and all('r' in p for p in d['points']) and
    sum(c['cells'] for c in d['regions']) == 24)"
check "cells from rest at omega = 2 are z = 1/1 (the period-1 window)" \
  "all(p['p'] == 1 and p['n'] == 1 and p['exponents'][0] < 0 for p in d['points'] if p['omega'] == 2)"
expect_files "$work/one" sweep.csv sweep_grid.csv sweep_samples.csv sweep_impacts.csv \
  sweep_map.png sweep_map.gp sweep.json
[ -e "$work/one/sweep.png" ] && fail "a grid drew the one-parameter panels (sweep.png)"
rows=$(($(wc -l <"$work/one/sweep_grid.csv") - 1))
[ "$rows" -eq 24 ] || fail "sweep_grid.csv has $rows rows, expected 6 x 4 = 24"
rows=$(($(wc -l <"$work/one/sweep.csv") - 1))
[ "$rows" -eq 24 ] || fail "sweep.csv has $rows rows, expected 6 x 4 = 24"
head -1 "$work/one/sweep_grid.csv" | grep -q '^direction,initial_condition,index,index2,omega,r,status,regime,p,n,z,lambda_1,a_i,a_e,class,label$' ||
  fail "sweep_grid.csv header: $(head -1 "$work/one/sweep_grid.csv")"
head -1 "$work/one/sweep.csv" | grep -q '^direction,initial_condition,index,index2,omega,r,status,' ||
  fail "sweep.csv header: $(head -1 "$work/one/sweep.csv")"
# The map redraws from its own script and CSV.
(cd "$work/one" && gnuplot sweep_map.gp) >"$work/gnuplot.txt" 2>&1 || fail "sweep_map.gp does not redraw"
# The exponent panel's scale: the largest of the largest lambda_1 and 90 % of the cells'
# |lambda_1| (on the scale of one strongly damped cell the chaotic cells were pale), the
# cells beyond it, if any, in the end colours, said in the title (whether a cell lies
# beyond depends on the chaotic cells' exponents, which move with rounding).
python3 - "$work/one" <<'PYTHON' || fail "the exponent map's colour scale"
import csv, math, re, sys
d = sys.argv[1]
values = [float(r['lambda_1']) for r in csv.DictReader(open(d + '/sweep_grid.csv'))]
finite = sorted(abs(v) for v in values if math.isfinite(v))
script = open(d + '/sweep_map.gp').read()
bound = float(re.findall(r'cbrange \[-([0-9.e+-]+):', script)[-1])
largest = max(v for v in values if math.isfinite(v))
ok = (bound >= largest and bound >= finite[int(0.9 * (len(finite) - 1))] and
      any(math.isclose(bound, b, rel_tol=1e-12) for b in (largest, finite[int(0.9 * (len(finite) - 1))])) and
      ('beyond the scale: its end colours' in script) == (finite[-1] > bound))
print('bound', bound, 'cells', finite)
sys.exit(0 if ok else 1)
PYTHON

"$vicont" sweep $grid --threads 2 --out "$work/two" >"$work/two.txt" 2>&1 ||
  fail "2-thread grid: exit status $? ($(cat "$work/two.txt"))"
same_sweep_files "$work/one" "$work/two" "grid, 1 vs 2 threads"

# Following the attractor along omega: each of the 8 rows a chain; 8 x 8 cells of 3000 + 3000
# periods each, long enough to be killed halfway.
follow="--param omega --from 2.4 --to 3.4 --steps 8 --param2 r --from2 0.8 --to2 1 --steps2 8
        --follow --set model=hard --transient 3000 --periods 3000 --samples 5"
"$vicont" sweep $follow --threads 2 --out "$work/whole" >"$work/whole.txt" 2>&1 ||
  fail "following grid: exit status $? ($(cat "$work/whole.txt"))"
total=$(checkpointed_points "$work/whole")
[ "$total" -eq 64 ] || fail "expected 64 cell records, found $total"
"$vicont" sweep $follow --threads 2 --out "$work/killed" >/dev/null 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  written=$(checkpointed_points "$work/killed")
  [ "$written" -ge $((total / 2)) ] && break
  sleep 0.05
done
if kill -9 "$pid" 2>/dev/null; then
  wait "$pid" 2>/dev/null
  left=$(checkpointed_points "$work/killed")
  echo "killed after $left of $total cells"
  [ "$left" -lt "$total" ] || fail "the killed grid had finished all its cells"
  [ -e "$work/killed/sweep_grid.csv" ] && fail "the killed grid wrote sweep_grid.csv"
  "$vicont" sweep $follow --threads 2 --resume --out "$work/killed" --json >"$work/resumed.json" 2>"$work/resumed.err" ||
    fail "resumed grid: exit status $? ($(cat "$work/resumed.err"))"
  grep -q "\"from_checkpoint\": $left," "$work/resumed.json" ||
    fail "the resumed grid did not take the $left finished cells from the checkpoint"
  grep -q "\"computed\": $((total - left))," "$work/resumed.json" ||
    fail "the resumed grid did not compute exactly the $((total - left)) missing cells"
  same_sweep_files "$work/whole" "$work/killed" "grid killed and resumed vs uninterrupted"
else
  fail "the grid ended before it could be killed (make it longer)"
fi
# A grid's checkpoint is not a one-parameter sweep's, nor one of another grid.
expect_bad "other settings" sweep $(echo "$follow" | sed 's/--steps2 8/--steps2 9/') --resume --out "$work/whole"

bad="$work/bad"
line="--param omega --from 2 --to 3 --steps 3"
expect_bad --param2 sweep $line --param2 omega --from2 2 --to2 3 --out "$bad"
expect_bad lambda   sweep $line --param2 lambda --from2 2 --to2 3 --out "$bad"
expect_bad --steps2 sweep $line --param2 r --from2 0.6 --to2 1 --steps2 0 --out "$bad"
expect_bad --from2  sweep $line --from2 0.6 --out "$bad"
expect_bad --to2    sweep $line --to2 1 --out "$bad"
expect_bad --steps2 sweep $line --steps2 4 --out "$bad"
expect_bad --from2  sweep $line --param2 r --to2 1 --out "$bad"
expect_bad --to2    sweep $line --param2 r --from2 0.6 --out "$bad"
expect_bad r        sweep $line --param2 r --from2 0.6 --to2 1.5 --out "$bad"
expect_bad --steps2 sweep --param omega --from 2 --to 3 --steps 2000 --param2 r --from2 0.6 --to2 1 --steps2 1000 --out "$bad"

finish "sweep over a grid (files, threads, kill and resume, bad input)"
