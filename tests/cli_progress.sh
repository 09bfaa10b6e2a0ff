#!/bin/sh
# What a run says on stderr besides errors (doc/cli.md, "Progress and notes") and which
# series it writes (doc/cli.md, "Output size"): with --progress into a file every long
# command writes progress lines whose percentages increase and end at 100 %; --quiet keeps
# stderr empty for a good run (no progress, no notes); lyapunov writes its series as
# --save says, always its summary.
# Usage: cli_progress.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_progress.sh /path/to/vicont}
cli_name=cli-progress
. "$(dirname "$0")/cli_helpers.sh"

# progress NAME ARGS...: `vicont ARGS --progress` succeeds, and its stderr has progress lines
# whose percentages rise strictly and end at 100.
progress() {
  name=$1
  shift
  "$vicont" "$@" --progress --out "$work/$name" >"$work/stdout" 2>"$work/$name.err" ||
    fail "$name: exit status $? ($(cat "$work/$name.err"))"
  python3 - "$work/$name.err" <<'PYTHON' || fail "$name: progress lines"
import re, sys
text = open(sys.argv[1]).read()
percents = [int(p) for p in re.findall(r"\s(\d+)%", text)]
ok = len(percents) >= 2 and percents[-1] == 100 and all(
    a < b for a, b in zip(percents, percents[1:]))
if not ok:
    print("  stderr:", text)
sys.exit(0 if ok else 1)
PYTHON
}

progress simulate simulate --t-end 300
progress lyapunov lyapunov --transient 100 --periods 300
progress continue continue --param omega --from 4 --to 4.7
progress sweep sweep --param omega --from 3 --to 4 --steps 6 --transient 30 --periods 30
progress basins basins --set omega=2.6 --x x:0:0.02:3 --y v:-0.03:0.03:3 --transient 50 \
  --max-period 4
progress diagram diagram --param omega --from 2 --to 2.8 --steps 5 --transient 50 --periods 50
progress map map --param omega --from 1.5 --to 3 --param2 d --from2 -0.004 --to2 0 --max-period 1 \
  --lines 4 --seeds 4
# Counted pieces are shown with their unit; lyapunov counts transient and averaged periods.
grep -q " 400/400 periods" "$work/lyapunov.err" ||
  fail "lyapunov: no '400/400 periods' on its progress line"

# --quiet: nothing on stderr for a good run, not even the note on an old parameter name;
# without it, that note is the one line.
"$vicont" simulate --t-end 20 --set eta=4 --quiet --out "$work/quiet" >/dev/null 2>"$work/stderr" ||
  fail "simulate --quiet: exit status $?"
[ ! -s "$work/stderr" ] || fail "simulate --quiet wrote on stderr: $(cat "$work/stderr")"
"$vicont" lyapunov --transient 10 --periods 10 --quiet --progress --out "$work/quiet" \
  >/dev/null 2>"$work/stderr" || fail "lyapunov --quiet --progress: exit status $?"
[ ! -s "$work/stderr" ] || fail "--quiet --progress wrote on stderr: $(cat "$work/stderr")"
# Without --progress stderr is a file here, no terminal: no progress line.
"$vicont" lyapunov --transient 10 --periods 10 --out "$work/plain" >/dev/null 2>"$work/stderr" ||
  fail "lyapunov: exit status $?"
[ ! -s "$work/stderr" ] || fail "progress on a file without --progress: $(cat "$work/stderr")"
# A config file can ask for it too.
printf 'quiet = true\n[parameters]\neta = 4\n' >"$work/quiet.cfg"
"$vicont" simulate --t-end 20 --config "$work/quiet.cfg" --out "$work/quiet" >/dev/null \
  2>"$work/stderr" || fail "simulate with quiet = true: exit status $?"
[ ! -s "$work/stderr" ] || fail "quiet = true in a config file: $(cat "$work/stderr")"

# --save: the series written, the summary always.
lyapunov_saving() {
  "$vicont" lyapunov --transient 10 --periods 50 --save "$1" --out "$work/save-$1" --json \
    >"$work/stdout" 2>"$work/stderr" || fail "lyapunov --save $1: exit status $? ($(cat "$work/stderr"))"
}
lyapunov_saving none
expect_files "$work/save-none" lyapunov.json settled.csv
[ ! -e "$work/save-none/poincare.csv" ] && [ ! -e "$work/save-none/impacts.csv" ] ||
  fail "--save none wrote a series"
check "--save none: the series' rows in not_saved" \
  'd["not_saved"] == {"poincare": 50, "impacts": d["not_saved"]["impacts"]} and d["not_saved"]["impacts"] > 0 and not any("poincare" in f or "impacts" in f for f in d["files"])'
lyapunov_saving impacts
expect_files "$work/save-impacts" lyapunov.json impacts.csv
[ ! -e "$work/save-impacts/poincare.csv" ] || fail "--save impacts wrote poincare.csv"
lyapunov_saving poincare,impacts
# The figure of the saved samples: its script (no PNG: figures are drawn only with --format).
expect_files "$work/save-poincare,impacts" poincare.csv impacts.csv settled_phase.gp
[ ! -e "$work/save-poincare,impacts/settled_phase.png" ] || fail "lyapunov drew a PNG unasked"
[ "$(wc -l <"$work/save-poincare,impacts/poincare.csv")" -eq 51 ] ||
  fail "poincare.csv: expected a header and 50 rows"
lyapunov_saving all
check "--save all: nothing left out" 'd["not_saved"] == {}'
# simulate: its time series and events; without the time series no plot (they draw it),
# even with the figures asked for (--format png: otherwise no PNG proves nothing).
"$vicont" simulate --save events --format png --out "$work/sim-events" --json >"$work/stdout" 2>"$work/stderr" ||
  fail "simulate --save events: exit status $?"
expect_files "$work/sim-events" simulate.json events.csv
[ ! -e "$work/sim-events/timeseries.csv" ] && [ ! -e "$work/sim-events/timeseries.png" ] ||
  fail "simulate --save events wrote the time series or its plot"
check "simulate --save events: the time series' rows in not_saved" \
  'list(d["not_saved"]) == ["timeseries"] and d["not_saved"]["timeseries"] > 4000'
# auto: a time series over 100000 rows is left out with a note naming --save.
"$vicont" simulate --t-end 1000 --out "$work/sim-long" --json >"$work/stdout" 2>"$work/stderr" ||
  fail "simulate --t-end 1000: exit status $?"
check "a long time series left out by auto" 'd["not_saved"]["timeseries"] > 100000'
grep -q "note: timeseries.csv not written ([0-9]* rows); --save timeseries or --save all writes it" \
  "$work/stderr" || fail "no note on the time series left out: $(cat "$work/stderr")"
expect_files "$work/sim-long" simulate.json events.csv
# The main job takes one --save for both its runs.
"$vicont" --save none --transient 10 --periods 10 --t-end 5 --out "$work/main" --json \
  >"$work/stdout" 2>"$work/stderr" || fail "vicont --save none: exit status $?"
check "main job --save none" \
  'all(set(r["simulate"]["not_saved"]) == {"timeseries", "events"} and set(r["lyapunov"]["not_saved"]) == {"poincare", "impacts"} for r in d["runs"])'

bad="$work/bad"
expect_bad --save simulate --save poincare --out "$bad"
expect_bad --save lyapunov --save poincare,frobnicate --out "$bad"
expect_bad --save lyapunov --save poincare, --out "$bad"

finish "progress, --quiet and --save"
