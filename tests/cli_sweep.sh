#!/bin/sh
# vicont sweep end to end (doc/sweeps.md): the same sweep with 1 and with 2 threads
# writes identical files; a sweep killed (SIGKILL) after about half of its points and
# resumed with --resume computes only the missing points and ends with files identical to
# an uninterrupted run; bad input exits with 2 and one line naming the item.
# Usage: cli_sweep.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_sweep.sh /path/to/vicont}
cli_name=cli-sweep
. "$(dirname "$0")/cli_helpers.sh"

. "$(dirname "$0")/sweep_files.sh"

# Following the attractor both ways (two sequential chains) from two initial states:
# 4 chains of 16 points. 3000 + 3000 periods per point keep the sweep running for about a
# second (the moving base follows its exact flow, ~2 us per period), long enough to be
# killed halfway.
sweep_args() {
  echo "--param omega --from 2.4 --to 3.4 --steps $1 --follow --direction both
        --initial-states 0,0;0.004,0 --transient 3000 --periods 3000 --samples 20"
}
args=$(sweep_args 16)

"$vicont" sweep $args --threads 1 --out "$work/one" >"$work/one.txt" 2>&1 ||
  fail "1-thread sweep: exit status $? ($(cat "$work/one.txt"))"
"$vicont" sweep $args --threads 2 --out "$work/two" >"$work/two.txt" 2>&1 ||
  fail "2-thread sweep: exit status $? ($(cat "$work/two.txt"))"
same_sweep_files "$work/one" "$work/two" "1 vs 2 threads"
total=$(checkpointed_points "$work/one")
[ "$total" -eq 64 ] || fail "expected 64 point records, found $total"

# Killed once about half of the points are written, then resumed.
"$vicont" sweep $args --threads 2 --out "$work/killed" >/dev/null 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  written=$(checkpointed_points "$work/killed")
  [ "$written" -ge $((total / 2)) ] && break
  sleep 0.05
done
if kill -9 "$pid" 2>/dev/null; then
  wait "$pid" 2>/dev/null
  left=$(checkpointed_points "$work/killed")
  echo "killed after $left of $total points"
  [ "$left" -lt "$total" ] || fail "the killed sweep had finished all its points"
  [ -e "$work/killed/sweep.csv" ] && fail "the killed sweep wrote sweep.csv"
  "$vicont" sweep $args --threads 2 --resume --out "$work/killed" --json >"$work/resumed.json" 2>"$work/resumed.err" ||
    fail "resumed sweep: exit status $? ($(cat "$work/resumed.err"))"
  grep -q "\"from_checkpoint\": $left," "$work/resumed.json" ||
    fail "the resumed sweep did not take the $left finished points from the checkpoint"
  grep -q "\"computed\": $((total - left))," "$work/resumed.json" ||
    fail "the resumed sweep did not compute exactly the $((total - left)) missing points"
  same_sweep_files "$work/one" "$work/killed" "killed and resumed vs uninterrupted"
else
  fail "the sweep ended before it could be killed (make it longer)"
fi

# A record torn in the middle (the process killed while writing it) is ignored: --resume
# computes exactly that point again, cuts the torn bytes off and appends the point's
# record, so the checkpoint file and the output come out the same as the uninterrupted
# run's. The 1-thread run wrote all its records into one file.
cp -r "$work/one" "$work/torn"
records="$work/torn/points/rank-0000.points"
[ -f "$records" ] || fail "the 1-thread sweep wrote no $records"
size=$(wc -c <"$records")
last=$(grep -b '^vicont-sweep-point 1$' "$records" | tail -n 1 | cut -d: -f1)
truncate -s $((last + (size - last) / 2)) "$records"
rm "$work/torn/sweep.csv" "$work/torn/sweep_samples.csv" "$work/torn/sweep_impacts.csv"
"$vicont" sweep $args --resume --out "$work/torn" --json >"$work/torn.json" 2>"$work/torn.err" ||
  fail "resume after a torn record: exit status $? ($(cat "$work/torn.err"))"
grep -q '"computed": 1,' "$work/torn.json" ||
  fail "the resume after a torn record did not compute exactly one point"
grep -q "\"from_checkpoint\": $((total - 1))," "$work/torn.json" ||
  fail "the resume after a torn record did not keep the $((total - 1)) complete records"
grep -q 'ignored the torn last record' "$work/torn.json" || fail "no note on the torn record"
cmp -s "$work/one/points/rank-0000.points" "$records" ||
  fail "the checkpoint after the torn record's point was computed again differs"
same_sweep_files "$work/one" "$work/torn" "torn last record resumed vs uninterrupted"

# --resume over a complete checkpoint computes nothing and writes the same files again.
"$vicont" sweep $args --resume --out "$work/one" --json >"$work/again.json" 2>&1 ||
  fail "resume of a finished sweep: exit status $?"
grep -q '"computed": 0,' "$work/again.json" || fail "resume of a finished sweep computed points"
same_sweep_files "$work/two" "$work/one" "resumed finished sweep"

# Chaotic points whose lambda_1 lies within three standard errors of 0 are named: at omega
# = 5.3 the average gives 1e-4 +- 1.2e-3 (no period up to 16 and not told from a
# quasi-periodic motion), at 7.1 0.248 +- 0.016 (chaotic beyond doubt).
"$vicont" sweep --param omega --from 5.3 --to 7.1 --steps 2 --out "$work/weak" --format none \
  >"$work/weak.txt" 2>&1 || fail "sweep at 5.3 and 7.1: exit status $? ($(cat "$work/weak.txt"))"
grep -q '^chaotic     2 points' "$work/weak.txt" || fail "expected 2 chaotic points: $(cat "$work/weak.txt")"
grep -q '1 of them with lambda_1 within 3 standard errors of 0 .*: omega = 5.3$' "$work/weak.txt" ||
  fail "the point at 5.3 is not named: $(cat "$work/weak.txt")"
python3 - "$work/weak/sweep.json" <<'PY' || fail "sweep.json's chaotic_within_error"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["chaotic"] == 2 and d["chaotic_within_error"] == [{"omega": 5.3}], d["chaotic_within_error"]
errors = [p["exponent_errors"][0] for p in d["points"]]
assert 0 < errors[0] < 0.01 < errors[1] < 0.05, errors
PY

bad="$work/bad"
expect_bad lambda     sweep --param lambda --from 2 --to 3 --out "$bad"
expect_bad omega        sweep --param omega --from -1 --to 3 --out "$bad"
expect_bad --param    sweep --from 2 --to 3 --out "$bad"
expect_bad --to       sweep --param omega --from 2 --out "$bad"
expect_bad --direction sweep --param omega --from 2 --to 3 --direction sideways --out "$bad"
expect_bad --steps    sweep --param omega --from 2 --to 3 --steps 0 --out "$bad"
expect_bad --initial-states sweep --param omega --from 2 --to 3 --initial-states '0,x' --out "$bad"
expect_bad "initial state 1" sweep --param omega --from 2 --to 3 --initial-states '0,0,0' --out "$bad"
# A checkpoint made with other settings is not resumed.
expect_bad "other settings" sweep $(sweep_args 17) --resume --out "$work/one"

finish "sweep (threads, kill and resume, bad input)"
