# Shared by the CLI test scripts (sourced): a scratch directory $work removed at exit, a
# failure count, checks of the JSON summary a run leaves in $work/stdout, of result files,
# and of a run refused as bad input.
# Usage: vicont=PATH; cli_name=NAME; . cli_helpers.sh   (NAME names the scratch directory)
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed to check JSON"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/vicont-${cli_name:?set cli_name before sourcing}.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# check NAME PYTHON-EXPRESSION: the expression, over the JSON object `d` of the last
# run's stdout (modules json, math and sys at hand), must be true.
check() {
  python3 - "$work/stdout" "$2" <<'PYTHON' || fail "$1"
import json, math, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
if not ok:
    print("  not true:", sys.argv[2])
sys.exit(0 if ok else 1)
PYTHON
}

# expect_files DIR NAME... : each file exists and is not empty; a .png is a PNG.
expect_files() {
  dir=$1
  shift
  for name in "$@"; do
    if [ ! -s "$dir/$name" ]; then
      fail "$dir/$name missing or empty"
    elif [ "${name%.png}" != "$name" ] &&
         [ "$(od -An -tx1 -N4 "$dir/$name" | tr -d ' ')" != "89504e47" ]; then
      fail "$dir/$name is not a PNG"
    fi
  done
}

# draws_branch GP CSV: the branch figure's script GP plots lines of the branch in CSV (a
# file name as written beside GP): a data block named after CSV, with rows, in a plot.
draws_branch() {
  python3 - "$1" "$2" <<'PYTHON'
import re, sys
script, csv = open(sys.argv[1]).read(), sys.argv[2]
blocks = re.findall(r"^# \w+ lines of " + re.escape(csv) + r" .*\n(\$\w+) << EOD\n[^\n]*\n[-0-9.e]+,", script, re.M)
sys.exit(0 if any(re.search(r"^(plot |     )" + re.escape(b) + " using", script, re.M) for b in blocks) else 1)
PYTHON
}

# stderr_lines: the number of lines on stderr of the last run, $work/stderr (a last line
# without a newline counts too).
stderr_lines() {
  lines=$(wc -l <"$work/stderr")
  if [ -s "$work/stderr" ] && [ "$(tail -c 1 "$work/stderr" | od -An -c | tr -d ' ')" != '\n' ]; then
    lines=$((lines + 1))
  fi
  echo "$lines"
}

# expect_bad ITEM ARGS...: `$vicont ARGS` must exit with 2 (bad input) and print exactly
# one line on stderr that names ITEM as a whole word (so that e.g. 'r' is not found inside
# another word).
expect_bad() {
  item=$1
  shift
  "$vicont" "$@" >"$work/stdout" 2>"$work/stderr"
  status=$?
  [ "$status" -eq 2 ] || fail "vicont $*: exit status $status, expected 2"
  if [ "$(stderr_lines)" -ne 1 ]; then
    fail "vicont $*: $(stderr_lines) lines on stderr, expected 1:"
    sed 's/^/    /' "$work/stderr"
  fi
  grep -qw -- "$item" "$work/stderr" || fail "vicont $*: stderr does not name '$item': $(cat "$work/stderr")"
}

# expect_flip_near ETA D FROM TO DIR [ARGS...]: `vicont continue` of the moving-base
# oscillator in omega from FROM to TO at d = D (ARGS added, files in DIR) must locate a period
# doubling within 1e-6 of ETA: a row of a period-doubling curve checked by a second method.
expect_flip_near() {
  flip_eta=$1 flip_d=$2 flip_from=$3 flip_to=$4 flip_dir=$5
  shift 5
  if "$vicont" continue --set "d=$flip_d" --param omega --from "$flip_from" --to "$flip_to" "$@" \
      --out "$flip_dir" --json >"$work/stdout" 2>"$flip_dir.err"; then
    check "vicont continue at d = $flip_d finds no period doubling at omega = $flip_eta" \
      "any(p['type'] == 'period-doubling' and abs(p['parameter'] - $flip_eta) < 1e-6 for p in d['special_points'])"
  else
    fail "vicont continue at d = $flip_d: $(cat "$flip_dir.err")"
  fi
}

# finish NAME: the script's exit status from the failure count.
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "all $1 checks passed"
}
