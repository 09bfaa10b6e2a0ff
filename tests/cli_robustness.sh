#!/bin/sh
# vicont on input it cannot or should not run (doc/cli.md, "Limits", "Config files"):
# counts and derived quantities beyond the limits refused before anything runs, naming the
# option or parameter; config files that are no files; --integrator on every integrating
# command with its fallbacks reported; a thread that cannot be started; non-finite numbers
# in the JSON noted; sweeps without impacts plotted; concurrent runs into one --out.
# Usage: cli_robustness.sh PATH/TO/vicont
vicont=${1:?usage: cli_robustness.sh PATH/TO/vicont}
cli_name=robustness
. "$(dirname "$0")/cli_helpers.sh"

# --- counts and derived quantities beyond the limits: exit 2, naming the item, at once
expect_bad --steps sweep --param omega --from 3 --to 4 --steps 1e9 --out "$work/o"
expect_bad --samples impact --samples 1e9 --out "$work/o"
expect_bad --periods lyapunov --periods=1e9 --out "$work/o"
expect_bad --max-period orbit --max-period=1e9 --out "$work/o"
expect_bad --max-period basins --x x:-1:1:3 --y v:-1:1:3 --max-period=1e9 --out "$work/o"
expect_bad --threads sweep --param omega --from 3 --to 4 --threads 1e9 --out "$work/o"
expect_bad omega continue --param omega --from=1e-308 --to 2 --out "$work/o"
expect_bad omega sweep --param omega --from 1e-308 --to 2 --out "$work/o"
expect_bad omega simulate --set omega=1e-308 --t-end 3 --out "$work/o"
expect_bad omega simulate --set omega=1e-308 --out "$work/o"
expect_bad omega lyapunov --set omega=1e-308 --out "$work/o"
expect_bad omega simulate --set omega=1e9 --t-end 3 --out "$work/o"
expect_bad --sample-step simulate --sample-step 1e-12 --t-end 3 --out "$work/o"
expect_bad --x basins --x x:-1:1:2000 --y v:-1:1:2000 --out "$work/o"

# --- config files that are not files, or not text
mkfifo "$work/fifo"
expect_bad FIFO simulate --config="$work/fifo" --out "$work/o"
expect_bad device simulate --config=/dev/zero --out "$work/o"
expect_bad directory simulate --config="$work" --out "$work/o"
python3 -c "print('t-end = ' + 'a' * 100000)" >"$work/long.cfg"
expect_bad 4096 simulate --config="$work/long.cfg" --out "$work/o"
printf 't-end = 3\001\033[2J\n' >"$work/binary.cfg"
expect_bad byte simulate --config="$work/binary.cfg" --out "$work/o"
grep -q "$(printf '\033')" "$work/stderr" && fail "a config file's escape byte reached the terminal"
python3 -c "print('t-end = ' + 'a' * 3000)" >"$work/wide.cfg"
expect_bad t-end simulate --config="$work/wide.cfg" --out "$work/o"
[ "$(wc -c <"$work/stderr")" -lt 1200 ] || fail "a 3000-character value quoted whole: $(wc -c <"$work/stderr") bytes"

# --- --integrator: one option, four choices, on every integrating command
expect_bad --integrator simulate --integrator euler --out "$work/o"
expect_bad --integrator sweep --param omega --from 3 --to 4 --integrator euler --out "$work/o"
for method in auto rk adams bdf; do
  "$vicont" simulate --integrator $method --json --out "$work/int-$method" >"$work/stdout" 2>"$work/stderr" ||
    fail "simulate --integrator $method: $(cat "$work/stderr")"
  check "simulate --integrator $method reports its fallbacks" \
    "d['fallbacks']['count'] >= 0 and (d['fallbacks']['count'] > 0) == (d['fallbacks']['first_time'] is not None)"
done
"$vicont" lyapunov --integrator bdf --transient 20 --periods 20 --json --out "$work/lya" \
  >"$work/stdout" 2>"$work/stderr" || fail "lyapunov --integrator bdf: $(cat "$work/stderr")"
check "lyapunov reports fallbacks" "'fallbacks' in d and d['fallbacks']['count'] >= 0"
"$vicont" orbit --integrator adams --transient 50 --json --out "$work/orbit" >"$work/stdout" 2>"$work/stderr" ||
  fail "orbit --integrator adams: $(cat "$work/stderr")"
check "orbit reports fallbacks" "'fallbacks' in d"
# Runs of many integrations add their fallbacks up, also on a point that fails in the end:
# Adams fails on a Hertz contact of stiffness 1e20 (two-body) from t = 2.99 on, BDF takes
# three such steps over, and the integration stalls at t = 6.14 (exit 3).
"$vicont" sweep --system two-body --set K=1e20 --integrator adams --param lambda --from 1 --to 1 \
  --steps 1 --transient 5 --periods 5 --json --out "$work/sweep-fallbacks" >"$work/stdout" \
  2>"$work/stderr"
status=$?
[ $status -eq 3 ] || fail "sweep with fallbacks and a stalled point: status $status, expected 3: $(cat "$work/stderr")"
check "sweep adds up its points' fallbacks" \
  "d['fallbacks']['count'] >= 1 and d['fallbacks']['points'] == 1 and d['fallbacks']['first_at'] == 'lambda = 1' and 0 < d['fallbacks']['first_time'] < 6.2 and d['points'][0]['fallbacks'] == d['fallbacks']['count']"
# (basins integrates without the tangent, whose Hertz onset is what the pair fails on:
# its cells have none to add up here)
"$vicont" basins --system two-body --transient 100 --max-period 2 --x x1:0:0.01:2 --y v1:0:0:1 \
  --json --out "$work/basins-fallbacks" >"$work/stdout" 2>"$work/stderr" ||
  fail "basins of two cells: $(cat "$work/stderr")"
check "basins reports its cells' fallbacks" \
  "d['fallbacks'] == {'count': 0, 'cells': 0}"
# A branch whose step falls below min_step ends with exit 3, its points kept, and says
# which min_step it used: the two-body loading in omega at lambda = 0.6 has a fold 2.8e-7
# past a grazing, closer than steps of 1e-6 resolve (doc/library.md, section 7; the
# default 4e-8 passes it); with the smaller --min-step the hint names, the branch passes
# it to omega = 8.
"$vicont" continue --system two-body --set lambda=0.6 --param omega --from 4 --to 8 --json \
  --min-step 1e-6 --out "$work/min-step" >"$work/stdout" 2>"$work/stderr"
status=$?
[ $status -eq 3 ] || fail "continue below min_step: status $status, expected 3: $(cat "$work/stderr")"
grep -q -- "step size below min_step (1e-06): .*; a smaller min_step may resolve what lies there" "$work/stderr" ||
  fail "continue below min_step: no hint in: $(cat "$work/stderr")"
check "the branch below min_step keeps its points" "d['points'] > 10 and d['status'] == 'failure'"
"$vicont" continue --system two-body --set lambda=0.6 --param omega --from 4 --to 8 --min-step 1e-10 \
  --json --out "$work/min-step" >"$work/stdout" 2>"$work/stderr" ||
  fail "continue with --min-step 1e-10: $(cat "$work/stderr")"
check "with --min-step 1e-10 the branch reaches omega = 8 past the fold" \
  "d['last_point']['parameter'] == 8 and sum(p['type'] == 'fold' for p in d['special_points']) == 4"
# The platform's damped Hertz contact: with the field's jump c delta' at the contact's
# entry and exit in the saltation (tests/test_platform.cpp), its correctors converge fast
# and the branch reaches omega = 250 (before, with a period map 190 % off, it crept 2 of the
# 150 in 2000 points).
"$vicont" continue --system platform --set contact=hertz --param omega --from 100 --to 250 \
  --format none --json --out "$work/platform-hertz" >"$work/stdout" 2>"$work/stderr" ||
  fail "platform hertz: $(cat "$work/stderr")"
check "the platform's Hertz branch reaches omega = 250 in fewer than 200 points" \
  "d['last_point']['parameter'] == 250 and d['points'] < 200"
# A fold that turns within the corrector's tolerance: the soft moving base at k_s = 2000
# folds 2.7e-9 in amplitude past its grazing at omega = 1.385257317 (doc/library.md,
# section 7). The default stops there and names the tolerance it used; with a smaller
# --corrector-tolerance and --min-step the branch passes the fold, stable before and
# unstable after it, 1e-7 beyond the grazing, and goes on to omega = 1.3.
soft="--system moving-base --set model=soft --set ks=2000 --set d=-0.005 --param omega --from 2 --to 1.3"
"$vicont" continue $soft --json --out "$work/soft-fold" >"$work/stdout" 2>"$work/stderr"
status=$?
[ $status -eq 3 ] || fail "soft fold, default tolerance: status $status, expected 3: $(cat "$work/stderr")"
grep -q -- "with a smaller corrector tolerance (now 1e-09)" "$work/stderr" ||
  fail "soft fold: the stop reason does not name the corrector tolerance: $(cat "$work/stderr")"
"$vicont" continue $soft --min-step 1e-13 --corrector-tolerance 1e-12 --json \
  --out "$work/soft-fold" >"$work/stdout" 2>"$work/stderr" ||
  fail "soft fold with --corrector-tolerance 1e-12: $(cat "$work/stderr")"
cp "$work/stdout" "$work/soft-fold.json"
check "with --corrector-tolerance 1e-12 the branch passes the fold beside the grazing" \
  "d['last_point']['parameter'] == 1.3 and [p['label'] for p in d['special_points']] == ['GR1', 'LP1', 'LP2'] and 0 < d['special_points'][0]['parameter'] - d['special_points'][1]['parameter'] < 1e-6 and d['special_points'][1]['stable'] and not d['special_points'][1]['stable_after']"
# The same branch traced the other way, from the impacting orbits at omega = 1.3: the same
# grazing and folds, in the opposite order. (From this side the fold needs 1e-13: at 1e-12
# the corrector's points at min_step lie farther than two steps and are refused.)
"$vicont" continue ${soft% --from*} --from 1.3 --to 2 --min-step 1e-13 --corrector-tolerance 1e-13 \
  --json --out "$work/soft-fold-back" >"$work/stdout" 2>"$work/stderr" ||
  fail "soft fold traced back: $(cat "$work/stderr")"
check "the branch traced back finds the same grazing and folds to 1e-8" \
  "d['last_point']['parameter'] == 2 and [p['type'] for p in d['special_points']][::-1] == [p['type'] for p in json.load(open('$work/soft-fold.json'))['special_points']] and all(abs(a['parameter'] - b['parameter']) < 1e-8 for a, b in zip(d['special_points'][::-1], json.load(open('$work/soft-fold.json'))['special_points']))"
# Next to the stiff contact's grazing (k_s = 2e5) a step at min_step may land on another
# part of the branch; such points are refused (they labelled one period doubling 13 times).
"$vicont" continue --system moving-base --set model=soft --set d=-0.005 --param omega \
  --from 0.5 --to 2.5 --min-step 1e-13 --json --out "$work/stiff-grazing" >"$work/stdout" 2>"$work/stderr"
check "at min_step no point farther than the step allows" \
  "d['status'] == 'failure' and not any(p['type'] == 'period-doubling' for p in d['special_points']) and d['special_points'][0]['type'] == 'grazing' and abs(d['last_point']['parameter'] - d['special_points'][0]['parameter']) < 1e-8"
# A branch of chattering orbits that stick (the platform's mould on its rigid block, one
# release and one chattering sequence per period, z = 13/1 to 15/1 by where the sticking
# criterion cuts the sequence): no contact appears or vanishes from omega = 100 to 250, as
# a brute-force sweep of the range confirms. Counted as they fell, the sequence's impacts
# changed with the section's place and the rounding of the start, and labelled 17
# impact-signature points and 10 grazings; corrections inside such a bracket that went
# astray were taken as its ends (two "grazings" at omega = 750 and 12347).
"$vicont" continue --system platform --set contact=newton --param omega --from 100 --to 250 \
  --json --out "$work/platform-sticking" >"$work/stdout" 2>"$work/stderr" ||
  fail "platform, sticking mould: $(cat "$work/stderr")"
check "a sticking orbit's chattering makes no special point" \
  "d['last_point']['parameter'] == 250 and d['special_points'] == []"
"$vicont" continue $soft --corrector-tolerance 0 >"$work/stdout" 2>"$work/stderr"
status=$?
[ $status -eq 2 ] && grep -q -- "corrector-tolerance" "$work/stderr" ||
  fail "--corrector-tolerance 0: status $status, expected 2 naming the option: $(cat "$work/stderr")"
for command in basins diagram continue impact; do
  "$vicont" $command --help | grep -q -- "--integrator" || fail "$command has no --integrator"
done

# --- a thread that cannot be started: a clean error naming --threads, no terminate()
# (not with AddressSanitizer, whose shadow memory cannot be mapped under ulimit -v)
if ldd "$vicont" 2>/dev/null | grep -q libasan; then
  echo "skipped: the thread-start check under ulimit -v (AddressSanitizer build)"
else
  (ulimit -v 1500000 && exec "$vicont" sweep --param omega --from 3 --to 4 --steps 40 --threads 1000 \
    --transient 5 --periods 5 --out "$work/threads") >"$work/stdout" 2>"$work/stderr"
  status=$?
  if [ $status -ne 0 ]; then
    [ $status -eq 2 ] || fail "sweep --threads 1000 under ulimit -v: status $status: $(cat "$work/stderr")"
    grep -q -- "--threads" "$work/stderr" || fail "the thread error does not name --threads: $(cat "$work/stderr")"
  fi
  grep -q terminate "$work/stderr" && fail "sweep --threads 1000: terminate: $(cat "$work/stderr")"
fi

# --- non-finite numbers: every null energy noted in non_finite
"$vicont" simulate --system rheological --set m=1e308 --json --out "$work/huge" >"$work/stdout" 2>"$work/stderr"
check "null energies are noted in non_finite" \
  "all(('energy.' + k) in d.get('non_finite', {}) for k, v in d.get('energy', {}).items() if v is None)"
check "the fields noted are null" "all(v in ('inf', '-inf', 'nan') for v in d.get('non_finite', {}).values())"

# --- a sweep without impacts is a result: its plot has an empty v_r panel, exit 0 (drawn:
# --format png, figures are drawn only when asked)
if command -v gnuplot >/dev/null 2>&1; then
  "$vicont" sweep --system rheological --param m --from 50 --to 150 --steps 4 --transient 5 \
    --periods 5 --format png --out "$work/rheo" >"$work/stdout" 2>"$work/stderr" ||
    fail "sweep without impacts: status $?: $(cat "$work/stderr")"
  expect_files "$work/rheo" sweep.png
fi

# --- runs with different parameters into one --out at once: each finishes, none leaves
# private files behind, and the PNG's script names the files it drew from (--format png:
# gnuplot reads each run's own data while the others replace it)
for omega in 3 3.5 4 4.5 5 5.5; do
  "$vicont" simulate --set omega=$omega --t-end 20 --format png --out "$work/shared" >/dev/null 2>"$work/err-$omega" &
done
wait
for omega in 3 3.5 4 4.5 5 5.5; do
  [ -s "$work/err-$omega" ] && fail "simulate --set omega=$omega into a shared --out: $(cat "$work/err-$omega")"
done
left=$(find "$work/shared" -name '.*' -print)
[ -z "$left" ] || fail "private files left in a shared --out: $left"
expect_files "$work/shared" timeseries.png phase.png timeseries.csv simulate.json

# --- found by the fuzz corpus (issue 14, tests/fuzz)
# A contact under way at t = 0 (the Hertz impact starts at the touch, at zero depth and
# force) opens at t = 0, also when the run ends before it does.
"$vicont" simulate --system hertz-friction --json --out "$work/hf" >"$work/stdout" 2>"$work/stderr" ||
  fail "simulate hertz-friction: status $?: $(cat "$work/stderr")"
check "a contact under way at t = 0 starts at 0" \
  "len(d['contacts']) == 1 and d['contacts'][0][0] == 0 and d['contacts'][0][1] is not None"
"$vicont" simulate --system hertz-friction --t-end 1e-5 --sample-step 1e-6 --json --out "$work/hf-short" \
  >"$work/stdout" 2>"$work/stderr" || fail "simulate hertz-friction --t-end 1e-5: status $?: $(cat "$work/stderr")"
check "a contact under way from start to end is [0, null]" "d['contacts'] == [[0, None]]"
# An empty name is no name: refused, naming the option.
expect_bad --system simulate --system "" --out "$work/o"
expect_bad --system systems --system ""
expect_bad --config lyapunov --config "" --out "$work/o"
expect_bad --out simulate --out ""
# A --out of bytes that are not UTF-8: the run succeeds, its JSON says U+FFFD for them.
bytes_out="$work/$(printf '\377\376')"
"$vicont" simulate --t-end 1 --json --out "$bytes_out" >"$work/stdout" 2>"$work/stderr" ||
  fail "simulate --out with invalid UTF-8: status $?: $(cat "$work/stderr")"
check "a path of invalid UTF-8 is written with U+FFFD" "'\ufffd\ufffd/simulate.json' in ' '.join(d['files'])"
[ -s "$bytes_out/simulate.json" ] || fail "simulate --out with invalid UTF-8 wrote no simulate.json"
# Data that gnuplot cannot autoscale (a constant 5e-324, values beyond 9e307) are drawn on
# fixed ranges: the figure is no failure of the run (--format png: drawn, or there would
# be no figure to fail).
if command -v gnuplot >/dev/null 2>&1; then
  for run in "simulate --system hertz-friction --set v0=4.9e-324" \
             "lyapunov --system hertz-friction --set v0=4.9e-324 --transient 5 --periods 5" \
             "simulate --system drop --set H0=1e308" \
             "simulate --system rheological --set x0=-1e308 --t-end 0.1" \
             "sweep --system drop --param H0 --from 1 --to 1e308 --steps 3 --transient 5 --periods 5"; do
    $vicont $run --format png --out "$work/extreme" >/dev/null 2>"$work/stderr"
    status=$?
    { [ $status -eq 0 ] || [ $status -eq 3 ]; } || fail "$run: status $status: $(cat "$work/stderr")"
    grep -q "plot failed" "$work/stderr" && fail "$run: $(cat "$work/stderr")"
  done
  expect_files "$work/extreme" sweep.png
fi
# A starting state that overflows (platform's static deflection with k0 = 5e-324) is bad
# input naming the parameter; an energy that overflows with a finite state is noted.
expect_bad k0 simulate --system platform --set k0=4.9e-324 --out "$work/o"
expect_bad g simulate --system platform --set g=1e308 --out "$work/o"
"$vicont" simulate --system platform --set m2=1e300 --json --out "$work/platform" >"$work/stdout" 2>"$work/stderr"
check "overflowing energies of a finite state are noted in non_finite" \
  "all(('energy.' + k) in d.get('non_finite', {}) for k, v in d['energy'].items() if v is None) and all(isinstance(v, float) for v in d['final_state']['state'].values())"
# --resume without a checkpoint is a note of the summary, not a message on stderr.
"$vicont" sweep --param omega --from 3 --to 4 --steps 2 --transient 5 --periods 5 --resume --json \
  --out "$work/fresh" >"$work/stdout" 2>"$work/stderr" || fail "sweep --resume afresh: status $?: $(cat "$work/stderr")"
[ -s "$work/stderr" ] && fail "sweep --resume afresh wrote on stderr: $(cat "$work/stderr")"
check "sweep --resume afresh notes it in run.notes" "any('no checkpoint' in n for n in d['run']['notes'])"
# A FIFO (or a directory) in place of a saved run's continue.json is refused, not read.
mkdir -p "$work/saved"
mkfifo "$work/saved/continue.json"
expect_bad FIFO continue --restart "$work/saved:PD1" --to 4.1 --out "$work/o"
# Where the orbits' stability changes between two rows with no special point between them,
# vicont warns in the summary and in stability_warnings, at exactly the rows that the
# files' own stability and special points give. The soft moving base (ks = 2000) stalls at
# its soft grazing near omega 1.38526 with steps of up to 0.05: its last rows change
# stability there with no point located. The cantilever's z = 8/2 orbits pass their eight
# folds in order with steps of 0.003 (once a step landed beyond the sharp fold at 0.5245):
# no warning.
stability_case() {
  local name=$1
  shift
  "$vicont" continue "$@" --format none --out "$work/$name" >"$work/$name.txt" 2>"$work/stderr"
  local status=$?
  [ $status -eq 0 ] || [ $status -eq 3 ] || fail "$name: exit $status: $(cat "$work/stderr")"
  cp "$work/$name/continue.json" "$work/stdout"
  python3 - "$work/$name" <<'PYTHON' >"$work/$name.expected" || fail "$name: its files cannot be read"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/branch.csv")))
after = {int(p["after_point"]) for p in csv.DictReader(open(sys.argv[1] + "/special_points.csv"))}
print([i for i in range(len(rows) - 1) if rows[i]["stable"] != rows[i + 1]["stable"] and i not in after])
PYTHON
  check "$name: stability_warnings at the unexplained changes of its files" \
    "[w['after_point'] for w in d['stability_warnings']] == $(cat "$work/$name.expected")"
  [ "$(grep -c "^warning     the orbits' stability changes between" "$work/$name.txt")" = \
    "$(python3 -c "print(len($(cat "$work/$name.expected")))")" ] ||
    fail "$name: not one warning line per change: $(cat "$work/$name.txt")"
}
stability_case soft-grazing --system moving-base --set model=soft --set ks=2000 --set d=-0.005 \
  --param omega --from 0.5 --to 2.5 --max-step 0.08
check "the soft grazing's changes are warned, between its last rows" \
  "len(d['stability_warnings']) >= 1 and all(1.3852571 < w['to'] < w['from'] < 1.3852573 for w in d['stability_warnings'])"
stability_case sharp-fold --system cantilever-2dof --set e=0.05 --set omega=0.52 --period 2 \
  --param omega --from 0.52 --to 0.56 --max-step 0.003
check "the cantilever's branch passes its folds without a warning" \
  "d['stability_warnings'] == [] and sum(p['type'] == 'fold' for p in d['special_points']) == 8"

rm -f "$work/saved/continue.json"
mkdir -p "$work/saved/continue.json"
expect_bad directory continue --restart "$work/saved:PD1" --to 4.1 --out "$work/o"

finish robustness
