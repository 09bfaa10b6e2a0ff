#!/bin/sh
# vicont diagram end to end: over omega 2 to 2.8 the period-1 branch found at 2 loses its
# stability at a period doubling (near 2.65), and the files (the figure's script, its PNG
# only with --format: tests/cli_figures.sh) and JSON say so; bad input exits with 2 and
# one line naming the item.
# Usage: cli_diagram.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_diagram.sh /path/to/vicont}
cli_name=cli-diagram
. "$(dirname "$0")/cli_helpers.sh"

"$vicont" diagram --param omega --from 2 --to 2.8 --steps 5 --transient 150 --periods 150 \
  --out "$work/out" --json >"$work/diagram.json" 2>"$work/err" ||
  fail "diagram: exit status $? ($(cat "$work/err"))"
expect_files "$work/out" diagram_branches.csv diagram_special_points.csv diagram_integration.csv \
  diagram_samples.csv diagram_impacts.csv diagram.gp diagram.json
[ ! -e "$work/out/diagram.png" ] || fail "diagram drew diagram.png without --format png"
grep -q '"lost_by": "period-doubling"' "$work/diagram.json" ||
  fail "the period-1 branch does not lose its stability at a period doubling"
grep -q '"stable_until": 2.65' "$work/diagram.json" ||
  fail "the period doubling is not near omega = 2.65: $(grep stable_until "$work/diagram.json")"

# The exponents' panel: its y range holds the integration's lambda_1, the stable orbits'
# exponents and zero; the unstable orbits' exponents, which grow without bound towards a
# grazing, are cut at its top (over 2 to 3.4 they reach 1.35 at the z = 2/2 orbits'
# grazing, the others at most 0.55).
"$vicont" diagram --param omega --from 2 --to 3.4 --steps 8 --transient 150 --periods 150 \
  --out "$work/cut" >"$work/cut.log" 2>&1 || fail "diagram 2 to 3.4: exit status $? ($(cat "$work/cut.log"))"
range=$(grep 'set yrange' "$work/cut/diagram.gp" | tail -n 1 | tr -d '[]' | tr ':' ' ' | awk '{print $3, $4}')
# column NAME FILE [stable]: the values of a column (of the stable rows, or the unstable).
column() {
  awk -F, -v name="$1" -v want="${3:-}" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i
      for (i = 1; i <= NF; i++) if ($i == "stable") s = i; next }
    want == "" || (want == "stable" && $s != 0) || (want == "unstable" && $s == 0) { print $c }' "$2"
}
inside=$( { column lambda_1 "$work/cut/diagram_integration.csv"
            column largest_exponent "$work/cut/diagram_branches.csv" stable; echo 0; } |
  awk -v lo="${range% *}" -v hi="${range#* }" '$1 < lo || $1 > hi { bad++ } END { print bad + 0 }')
[ "$inside" -eq 0 ] || fail "exponents' range [$range]: $inside integration or stable values outside it"
cut=$(column largest_exponent "$work/cut/diagram_branches.csv" unstable |
  awk -v hi="${range#* }" '$1 > hi { n++ } END { print n + 0 }')
[ "$cut" -gt 0 ] || fail "exponents' range [$range]: no unstable exponent above it (nothing to cut here?)"

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
