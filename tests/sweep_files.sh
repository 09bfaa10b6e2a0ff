# Sourced by the vicont sweep tests. same_sweep_files DIR1 DIR2 LABEL: the files that the
# points determine must be identical (a grid's sweep_grid.csv too); sweep.json lists the
# paths of the files, which name the output directory, so lines naming $work are left out
# of its comparison.
# checkpointed_points DIR: the complete point records in the checkpoint DIR/points (each
# ends with its "end" line; a torn last record is not counted).
# Needs $work (the test's scratch directory) and a fail() function.
same_sweep_files() {
  for f in sweep.csv sweep_samples.csv sweep_impacts.csv; do
    cmp -s "$1/$f" "$2/$f" || fail "$3: $f differs between $1 and $2"
  done
  if [ -e "$1/sweep_grid.csv" ] || [ -e "$2/sweep_grid.csv" ]; then
    cmp -s "$1/sweep_grid.csv" "$2/sweep_grid.csv" ||
      fail "$3: sweep_grid.csv differs between $1 and $2"
  fi
  grep -v "$work/" "$1/sweep.json" >"$work/json1"
  grep -v "$work/" "$2/sweep.json" >"$work/json2"
  cmp -s "$work/json1" "$work/json2" || fail "$3: sweep.json differs between $1 and $2"
}

checkpointed_points() {
  cat "$1"/points/*.points 2>/dev/null | grep -c '^end$'
}
