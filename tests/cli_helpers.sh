# Shared by the CLI test scripts (sourced): a scratch directory $work removed at exit, a
# failure count, and checks of the JSON summary a run leaves in $work/stdout.
# Usage: cli_name=NAME; . cli_helpers.sh   (NAME names the scratch directory)
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

# finish NAME: the script's exit status from the failure count.
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "all $1 checks passed"
}
