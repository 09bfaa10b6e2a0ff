# Sourced by the vicont sweep tests. same_sweep_files DIR1 DIR2 LABEL: the files that the
# points determine must be identical; sweep.json lists the paths of the files, which name
# the output directory, so lines naming $work are left out of its comparison.
# Needs $work (the test's scratch directory) and a fail() function.
same_sweep_files() {
  for f in sweep.csv sweep_samples.csv sweep_impacts.csv; do
    cmp -s "$1/$f" "$2/$f" || fail "$3: $f differs between $1 and $2"
  done
  grep -v "$work/" "$1/sweep.json" >"$work/json1"
  grep -v "$work/" "$2/sweep.json" >"$work/json2"
  cmp -s "$work/json1" "$work/json2" || fail "$3: sweep.json differs between $1 and $2"
}
