#!/bin/sh
# The command-line driver's config files, --json output, result files and main job, as
# doc/cli.md describes them:
#  (a) a config file gives the same numbers as the equivalent --set command line, and --set
#      and the flags win over it (format = png draws the figures, --format none on the
#      command line does not); bad config files are exit 2 with one stderr line naming
#      the file, line and key;
#  (b) --json prints exactly one JSON object on stdout, with the documented keys;
#  (c) result files are written, the figures too with --format png, no temporary file
#      (of the atomic writes or of gnuplot) is left behind, and an output directory
#      that cannot be created is exit 1 with a one-line message naming it; a numerical
#      failure is exit 3 with the results so far written;
#  (d) plain `vicont` (the main job) writes out/omega-4 and out/omega-7.1 with PNGs: unlike
#      the subcommands (--format none by default) it draws its figures unasked;
#  (e) `vicont --version` prints "vicont VERSION", and every JSON document (--json and the
#      result files) carries the same version in its top-level "version".
# Runs are kept short (--t-end, --periods, --transient); the main job takes about a second.
#
# JSON is checked with python3, which scripts/install-deps.sh installs (and which Debian 12's
# libsundials-dev pulls in anyway, through petsc-dev).
# Usage: cli_config_and_json.sh /path/to/vicont [VERSION]   (VERSION: the project's version)
set -u
vicont=${1:?usage: cli_config_and_json.sh /path/to/vicont [VERSION]}
version=${2:-}
case $vicont in
  /*) ;;
  *) vicont=$(pwd)/$vicont ;;  # the main job runs in another directory
esac
cli_name=cli-config
. "$(dirname "$0")/cli_helpers.sh"

# run ARGS... : runs vicont with stdout and stderr in $work/stdout, $work/stderr; sets
# $status.
run() {
  "$vicont" "$@" >"$work/stdout" 2>"$work/stderr"
  status=$?
}

# expect_error STATUS TEXT... -- ARGS... : the run must exit with STATUS and print exactly
# one line on stderr containing every TEXT (fixed strings).
expect_error() {
  expected=$1
  shift
  texts=
  while [ "$1" != "--" ]; do
    texts="$texts$1
"
    shift
  done
  shift
  run "$@"
  if [ "$status" -ne "$expected" ]; then
    fail "vicont $*: exit status $status, expected $expected"
  fi
  if [ "$(stderr_lines)" -ne 1 ]; then
    fail "vicont $*: $(stderr_lines) lines on stderr, expected 1:"
    sed 's/^/    /' "$work/stderr"
  fi
  printf '%s' "$texts" | while IFS= read -r text; do
    if ! grep -qF -- "$text" "$work/stderr"; then
      echo "FAIL: vicont $*: stderr does not contain '$text': $(cat "$work/stderr")"
    fi
  done >"$work/missing"
  if [ -s "$work/missing" ]; then
    cat "$work/missing"
    failures=$((failures + $(wc -l <"$work/missing")))
  fi
}

# expect_ok ARGS... : the run must exit with 0 and print nothing on stderr.
expect_ok() {
  run "$@"
  if [ "$status" -ne 0 ]; then
    fail "vicont $*: exit status $status, expected 0: $(cat "$work/stderr")"
  elif [ -s "$work/stderr" ]; then
    fail "vicont $*: unexpected stderr: $(cat "$work/stderr")"
  fi
}

# check_json FILE PYTHON [ARG] : FILE must hold exactly one JSON object (nothing before or
# after it), which is `d` in the PYTHON assertions; ARG is sys.argv[3] there.
check_json() {
  if ! python3 -c '
import json, sys
text = open(sys.argv[1]).read()
assert text.lstrip().startswith("{"), "stdout does not start with a JSON object"
d = json.loads(text)  # raises on anything after the object, such as a second object
assert isinstance(d, dict), "not a JSON object"
exec(sys.argv[2])
' "$@"; then
    fail "JSON in $1:"
    sed 's/^/    /' "$1" | head -40
  fi
}

# no_temporaries DIR: nothing left from atomic writes (.NAME.tmp-PID-N) or plotting
# (NAME.gnuplot-status).
no_temporaries() {
  left=$(find "$1" \( -name '.*' -o -name '*tmp*' -o -name '*.gnuplot-status' \) -print)
  [ -z "$left" ] || fail "temporary files left in $1: $left"
}

# (a) Config file against the command line ---------------------------------------------
# Both runs write to the same relative out directory, each in its own working directory,
# so that even the file names inside the JSON agree and the whole outputs must be equal.
mkdir "$work/by-config" "$work/by-set"
cat >"$work/run.cfg" <<'EOF'
# a comment line, then options (the long flag names), then the system's parameters
system = moving-base
t-end = 4.5          # a comment after a value
out = o
json = true
format = png         # the figures, which the subcommands draw only when asked

[parameters]
omega = 5.5
r = 0.85
model = soft
ks = 5000
relation = approximate
EOF
(cd "$work/by-config" && "$vicont" simulate --config ../run.cfg >stdout 2>stderr)
status=$?
[ "$status" -eq 0 ] || fail "simulate --config: exit status $status: $(cat "$work/by-config/stderr")"
(cd "$work/by-set" && "$vicont" simulate --system moving-base --t-end 4.5 --out o --json --format png \
   --set omega=5.5 --set r=0.85 --set model=soft --set ks=5000 --set relation=approximate \
   >stdout 2>stderr)
status=$?
[ "$status" -eq 0 ] || fail "simulate --set: exit status $status: $(cat "$work/by-set/stderr")"
for file in stdout o/simulate.json o/timeseries.csv o/events.csv; do
  cmp -s "$work/by-config/$file" "$work/by-set/$file" ||
    fail "simulate: $file differs between --config and the equivalent --set command line"
done
# format = png in the file draws the figures as --format png does.
expect_files "$work/by-config/o" timeseries.png timeseries.gp phase.png phase.gp
check_json "$work/by-config/stdout" '
p = d["parameters"]
assert (p["omega"], p["r"], p["model"], p["ks"], p["relation"]) == (5.5, 0.85, "soft", 5000, "approximate"), p
assert d["t_end"] == 4.5, d["t_end"]
assert d["contact_damping"]["energy_relation"] == "approximate", d["contact_damping"]
assert d["impacts"] > 0, "no impacts"
'

# The same for lyapunov: the config file's keys for it, the same spectrum to the last bit.
cat >"$work/lyapunov.cfg" <<'EOF'
system = moving-base
transient = 40
periods = 60
max-period = 8
[parameters]
omega = 4.2
r = 0.9
EOF
run lyapunov --config "$work/lyapunov.cfg" --out "$work/ly" --json
cp "$work/stdout" "$work/ly-config.json"
[ "$status" -eq 0 ] || fail "lyapunov --config: exit status $status: $(cat "$work/stderr")"
run lyapunov --transient 40 --periods 60 --max-period 8 --set omega=4.2 --set r=0.9 \
  --out "$work/ly" --json
[ "$status" -eq 0 ] || fail "lyapunov --set: exit status $status: $(cat "$work/stderr")"
cmp -s "$work/ly-config.json" "$work/stdout" ||
  fail "lyapunov: --json output differs between --config and the equivalent command line"

# --set and the command-line flags win over the config file; what they leave alone still
# comes from the file.
run simulate --config "$work/run.cfg" --set omega=6 --t-end 2 --format none --out "$work/override"
[ "$status" -eq 0 ] || fail "simulate --config --set: exit status $status: $(cat "$work/stderr")"
check_json "$work/stdout" '
p = d["parameters"]
assert p["omega"] == 6, "--set omega=6 lost to the config file: omega = %r" % p["omega"]
assert d["t_end"] == 2, "--t-end 2 lost to the config file: t_end = %r" % d["t_end"]
assert (p["r"], p["model"], p["ks"]) == (0.85, "soft", 5000), "config values lost: %r" % p
assert d["files"][0].startswith(sys.argv[3]), "--out lost to the config file: %r" % d["files"]
' "$work/override"
[ -s "$work/override/simulate.json" ] || fail "--out lost to the config file's out = o"
[ -e "$work/override/timeseries.png" ] && fail "--format none lost to the config file's format = png"
[ -s "$work/override/timeseries.gp" ] || fail "--format none: no timeseries.gp"

# Bad config files: exit 2, one line naming file, line and key (or the text of the line).
# bad_config COMMAND LINE TEXT CONTENT: `vicont COMMAND` with a config file holding CONTENT
# (a printf format) is exit 2 with one stderr line naming the file, LINE and TEXT.
cfg="$work/bad.cfg"
bad_config() {
  printf "$4" >"$cfg"
  expect_error 2 "$cfg:$2" "$3" -- "$1" --config "$cfg" --out "$work/bad"
}
bad_config simulate 2 "frobnicate" 'system = moving-base\nfrobnicate = 3\n'
bad_config simulate 4 "frobnicate" 't-end = 1\n[parameters]\nomega = 4\nfrobnicate = 3\n'
bad_config simulate 2 "periods" 't-end = 1\nperiods = 10\n'  # a lyapunov option is unknown to simulate
bad_config simulate 3 "omega 4" '# fine\nt-end = 1\nomega 4\n'
bad_config simulate 2 "omega" '[parameters]\nomega = \n'
bad_config simulate 2 "t-end" 't-end = 1\nt-end = 2\n'
bad_config simulate 1 "[params]" '[params]\nomega = 4\n'
bad_config lyapunov 2 "omega" '[parameters]\nomega = -4\n'
bad_config simulate 1 "nosuch" 'system = nosuch\n'
expect_error 2 "$work/no-such.cfg" -- simulate --config "$work/no-such.cfg" --out "$work/bad"
[ ! -e "$work/bad" ] || fail "a rejected run created its output directory"

# (b) --json: exactly one JSON object on stdout, with the documented keys ---------------
# (The figures drawn, --format png, for the result files of (c).)
run lyapunov --system moving-base --set omega=7.1 --periods 100 --transient 100 \
  --format png --out "$work/ly71" --json
[ "$status" -eq 0 ] || fail "lyapunov --json: exit status $status: $(cat "$work/stderr")"
check_json "$work/stdout" '
for key in ("command", "system", "parameters", "exponents", "exponent_sum", "p", "n", "z",
            "impacts_per_period", "energy_per_period", "impact_velocity", "final_state",
            "status", "ok", "files"):
    assert key in d, "missing key " + key
e = d["exponents"]
assert isinstance(e, list) and len(e) == 2 and all(isinstance(x, float) for x in e), e
for key in ("p", "n"):
    assert isinstance(d[key], int) and not isinstance(d[key], bool), (key, d[key])
for key in ("impacts_per_period", "energy_per_period"):
    assert isinstance(d[key], (int, float)) and not isinstance(d[key], bool), (key, d[key])
assert d["command"] == "lyapunov" and d["ok"] is True and d["status"] == "success"
assert d["parameters"]["omega"] == 7.1
assert abs(sum(e) + 0.23) < 1e-5, "exponent sum %r, expected -c/m" % sum(e)
assert d["averaged_periods"] == 100 and d["transient_periods"] == 100
# 20 batches of 5 periods: one standard error per exponent, that of the sum at rounding level.
assert d["batches"] == 20, d["batches"]
err = d["exponent_errors"]
assert isinstance(err, list) and len(err) == 2 and all(x > 0 for x in err), err
assert 0 <= d["exponent_sum_error"] < 1e-12, d["exponent_sum_error"]
'
# --batches: fewer than two is bad input; a single averaged period has no error (null).
expect_error 2 "batches" -- lyapunov --batches 1 --out "$work/bad"
run lyapunov --periods 1 --transient 10 --batches 4 --out "$work/ly1" --json
[ "$status" -eq 0 ] || fail "lyapunov --periods 1: exit status $status: $(cat "$work/stderr")"
check_json "$work/stdout" '
assert d["batches"] == 1 and d["exponent_errors"] == [None, None], d["exponent_errors"]
assert d["non_finite"]["exponent_errors[0]"] == "nan", d["non_finite"]
'
run simulate --t-end 3 --format png --out "$work/sim" --json
[ "$status" -eq 0 ] || fail "simulate --json: exit status $status: $(cat "$work/stderr")"
check_json "$work/stdout" '
for key in ("command", "system", "parameters", "contact_damping", "t_start", "t_end",
            "sample_step", "initial_state", "final_state", "impacts", "events", "steps",
            "status", "message", "ok", "files"):
    assert key in d, "missing key " + key
assert d["command"] == "simulate" and d["ok"] is True and d["t_end"] == 3
assert set(d["final_state"]) == {"t", "mode", "state"}, d["final_state"]
assert set(d["final_state"]["state"]) == {"x", "v"}, d["final_state"]
'
cmp -s "$work/stdout" "$work/sim/simulate.json" ||
  fail "simulate: --json output differs from simulate.json"
run systems --json
[ "$status" -eq 0 ] || fail "systems --json: exit status $status: $(cat "$work/stderr")"
check_json "$work/stdout" '
names = [s["name"] for s in d["systems"]]
assert "moving-base" in names and "drop" in names, names
for s in d["systems"]:
    for key in ("name", "description", "state", "forcing_period", "parameters", "contact_damping"):
        assert key in s, "missing key " + key
'

# (c) Result files, no temporaries, unwritable output, numerical failure ----------------
# sim and ly71 drew their figures (--format png): gnuplot's status files are gone too.
expect_files "$work/sim" timeseries.csv events.csv timeseries.png timeseries.gp \
  phase.png phase.gp simulate.json
expect_files "$work/ly71" lyapunov.json poincare.csv impacts.csv settled.csv \
  settled_phase.png settled_phase.gp
for dir in "$work/sim" "$work/ly71" "$work/ly" "$work/override" "$work/by-config/o"; do
  no_temporaries "$dir"
done
[ "$(head -n 1 "$work/sim/timeseries.csv")" = "t,x,v,mode,event" ] ||
  fail "timeseries.csv header: $(head -n 1 "$work/sim/timeseries.csv")"
[ "$(head -n 1 "$work/ly71/poincare.csv")" = "k,t,x,v" ] ||
  fail "poincare.csv header: $(head -n 1 "$work/ly71/poincare.csv")"

: >"$work/regular-file"
unwritable="$work/regular-file/out"
expect_error 1 "$unwritable" -- simulate --t-end 1 --out "$unwritable"
expect_error 1 "$unwritable" -- lyapunov --periods 5 --transient 5 --out "$unwritable"
expect_error 1 "$unwritable" -- --periods 5 --transient 5 --t-end 1 --out "$unwritable"
# A result file that cannot be replaced (here a directory in its place) is exit 1 too, and
# its temporary file is removed.
mkdir -p "$work/blocked/events.csv"
expect_error 1 "events.csv" -- simulate --t-end 1 --out "$work/blocked"
no_temporaries "$work/blocked"

# A numerical failure is exit 3 with one line saying so; the JSON object still comes, with
# ok = false, and what was computed is written. A contact too stiff for the integrator
# makes CVODE give up at t = 0 (lyapunov) or the step size collapse (simulate: the flow's
# stall check ends it after a thousand steps that do not advance time, instead of crawling
# through max_steps), and so does a base amplitude whose velocity overflows (simulate,
# hard model: a omega > 1.8e308; the exact path follows any amplitude whose velocity is
# finite).
expect_failure() {
  label=$1
  shift
  run "$@"
  [ "$status" -eq 3 ] || fail "$label: exit status $status, expected 3"
  [ "$(stderr_lines)" -eq 1 ] && grep -q 'numerical failure' "$work/stderr" ||
    fail "$label: stderr is not one 'numerical failure' line: $(cat "$work/stderr")"
  check_json "$work/stdout" 'assert d["ok"] is False and d["status"] != "success", d["status"]'
}
expect_failure "lyapunov with ks=1e300" lyapunov --set model=soft --set ks=1e300 \
  --periods 5 --transient 5 --out "$work/failed-lyapunov" --json
expect_files "$work/failed-lyapunov" lyapunov.json poincare.csv impacts.csv
no_temporaries "$work/failed-lyapunov"
expect_failure "simulate with ks=1e300" simulate --set model=soft --set ks=1e300 --t-end 1 \
  --out "$work/failed-stiff" --json
expect_files "$work/failed-stiff" timeseries.csv events.csv simulate.json
no_temporaries "$work/failed-stiff"
# An amplitude whose base acceleration a omega^2 overflows is refused before the run, naming
# it (the equations of motion of the sticking mode would not be finite).
expect_error 2 "a = 1e+308 makes the equations of motion" -- simulate --set a=1e308 --t-end 1 \
  --out "$work/refused-simulate"

# (d) The main job: plain `vicont` in an empty directory --------------------------------
mkdir "$work/main"
(cd "$work/main" && "$vicont" >stdout 2>stderr)
status=$?
[ "$status" -eq 0 ] || fail "vicont (main job): exit status $status: $(cat "$work/main/stderr")"
[ -s "$work/main/stderr" ] && fail "vicont (main job) wrote to stderr: $(cat "$work/main/stderr")"
grep -q '^omega  *lambda_1' "$work/main/stdout" || fail "vicont (main job): no result table"
for omega in 4 7.1; do
  expect_files "$work/main/out/omega-$omega" timeseries.csv events.csv timeseries.png \
    timeseries.gp phase.png phase.gp simulate.json lyapunov.json poincare.csv impacts.csv \
    settled.csv settled_phase.png settled_phase.gp
done
no_temporaries "$work/main/out"

# (e) The version ------------------------------------------------------------------------
expect_ok --version
printed=$(cat "$work/stdout")
case $printed in
  "vicont "[0-9]*.[0-9]*.[0-9]*) ;;
  *) fail "vicont --version printed '$printed', expected 'vicont MAJOR.MINOR.PATCH'" ;;
esac
[ -z "$version" ] || [ "$printed" = "vicont $version" ] ||
  fail "vicont --version printed '$printed', expected 'vicont $version'"
run simulate --t-end 1 --out "$work/versioned" --json
[ "$status" -eq 0 ] || fail "simulate --json: exit status $status: $(cat "$work/stderr")"
for file in "$work/stdout" "$work/versioned/simulate.json" "$work/ly71/lyapunov.json" \
            "$work/main/out/omega-4/lyapunov.json"; do
  check_json "$file" '
assert list(d)[0] == "version", "the first key is %r, not version" % list(d)[0]
assert d["version"] == sys.argv[3], "version %r, expected %r" % (d["version"], sys.argv[3])
' "${printed#vicont }"
done

finish "CLI config, JSON and output"
