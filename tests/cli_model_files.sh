#!/bin/sh
# vicont --model FILE: the shipped model files of the moving-base oscillator and the
# cantilever run simulate, orbit and continue with the very same files and numbers as the
# built-in systems; a model run restarts from its saved points (continue and curve); the
# new three-mass chain runs; sweep, basins, diagram and map give the built-in's files; bad
# files and --model with --system are exit 2 naming the item. About 15 s of computing.
# Usage: cli_model_files.sh /path/to/vicont /path/to/examples/models
set -u
vicont=${1:?usage: cli_model_files.sh /path/to/vicont /path/to/examples/models}
models=${2:?usage: cli_model_files.sh /path/to/vicont /path/to/examples/models}
cli_name=cli-model-files
. "$(dirname "$0")/cli_helpers.sh"

# run NAME ARGS...: vicont ARGS with --json into $work/stdout; a failure is reported.
run() {
  name=$1
  shift
  "$vicont" "$@" --json >"$work/stdout" 2>"$work/stderr" || fail "$name failed: $(cat "$work/stderr")"
}

# same_files DIR_A DIR_B NAME...: each file the same, byte for byte.
same_files() {
  a=$1 b=$2
  shift 2
  for name in "$@"; do
    cmp -s "$a/$name" "$b/$name" || fail "$a/$name and $b/$name differ"
  done
}

# same_key KEY: the JSON key of the two summaries $work/$1.json and $work/$2.json equal.
same_json() {
  python3 - "$work/$1.json" "$work/$2.json" "$3" <<'PYTHON' || fail "$1 and $2 differ in $3"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
sys.exit(0 if all(a[k] == b[k] for k in sys.argv[3].split()) else 1)
PYTHON
}

mb="$models/moving_base.json"
beam="$models/cantilever.json"

# --- systems --model lists the file's parameters as the built-in's ----------------------
run "systems --model" systems --model "$mb"
cp "$work/stdout" "$work/systems-file.json"
run "systems --system" systems --system moving-base
cp "$work/stdout" "$work/systems-builtin.json"
python3 - "$work/systems-file.json" "$work/systems-builtin.json" <<'PYTHON' || fail "systems --model: parameters differ from moving-base's"
import json, sys
a, b = (json.load(open(f))["systems"][0] for f in sys.argv[1:3])
strip = lambda s: [(p["name"], p["value"], p["rule"]) for p in s["parameters"]]
sys.exit(0 if strip(a) == strip(b) and a["state"] == b["state"] and a["contact_damping"] == b["contact_damping"] else 1)
PYTHON

run "systems --model cantilever" systems --model "$beam" --set set=2
cp "$work/stdout" "$work/systems-file.json"
run "systems --system cantilever" systems --system cantilever-2dof --set set=2
cp "$work/stdout" "$work/systems-builtin.json"
python3 - "$work/systems-file.json" "$work/systems-builtin.json" <<'PYTHON' || fail "systems --model: the cantilever's parameters differ from cantilever-2dof's"
import json, sys
a, b = (json.load(open(f))["systems"][0] for f in sys.argv[1:3])
sys.exit(0 if a["parameters"] == b["parameters"] and a["state"] == b["state"] else 1)
PYTHON

# --- simulate: the same time series and events, hard and soft ---------------------------
for setting in "omega=2.6 r=0.8" "model=soft r=0.7 omega=3.1"; do
  run "simulate --model ($setting)" simulate --model "$mb" --set $setting --out "$work/sim-file"
  cp "$work/stdout" "$work/sim-file.json"
  run "simulate --system ($setting)" simulate --system moving-base --set $setting --out "$work/sim-builtin"
  cp "$work/stdout" "$work/sim-builtin.json"
  same_files "$work/sim-file" "$work/sim-builtin" timeseries.csv events.csv
  same_json sim-file sim-builtin "final_state system parameters"
done
run "simulate --model cantilever" simulate --model "$beam" --set set=2 e=0.05 omega=1.2 r=0.8 --out "$work/beam-file"
run "simulate --system cantilever" simulate --system cantilever-2dof --set set=2 e=0.05 omega=1.2 r=0.8 --out "$work/beam-builtin"
same_files "$work/beam-file" "$work/beam-builtin" timeseries.csv events.csv

# --- orbit: the same orbit and multipliers ------------------------------------------------
run "orbit --model" orbit --model "$beam" --set e=0.05 omega=1.2 r=0.8 --out "$work/orbit-file"
cp "$work/stdout" "$work/orbit-file.json"
run "orbit --system" orbit --system cantilever-2dof --set e=0.05 omega=1.2 r=0.8 --out "$work/orbit-builtin"
cp "$work/stdout" "$work/orbit-builtin.json"
check "orbit --model converged" 'd["converged"] and d["p"] == 1'
same_json orbit-file orbit-builtin "state multipliers p n"

# --- continue: the same branch and special points; the saved run names the file -----------
run "continue --model" continue --model "$mb" --param omega --from 4 --to 4.7 --out "$work/a"
check "continue --model finds the period doubling" 'any(p["type"] == "period-doubling" for p in d["special_points"])'
"$vicont" continue --param omega --from 4 --to 4.7 --out "$work/b" >/dev/null 2>&1 || fail "continue --system failed"
same_files "$work/a" "$work/b" branch.csv special_points.csv
python3 -c "import json,sys; sys.exit(0 if json.load(open('$work/a/continue.json')).get('model','').endswith('moving_base.json') else 1)" \
  || fail "continue.json does not record the model file"
run "continue --restart of a model run" continue --restart "$work/a:PD1" --switch --to 4.7 --out "$work/switch"
check "the restart is the model file's system" 'd["system"] == "moving-base" and d["model"].endswith("moving_base.json")'
"$vicont" continue --restart "$work/b:PD1" --switch --to 4.7 --out "$work/switch-builtin" >/dev/null 2>&1 || fail "built-in restart failed"
same_files "$work/switch" "$work/switch-builtin" branch.csv special_points.csv
run "curve --restart of a model run" curve --restart "$work/a:PD1" --param2 d --from -0.0005 --to 0 --out "$work/curve"
check "the curve of a model run records the file" 'd["model"].endswith("moving_base.json") and d["kind"] == "period-doubling"'
expect_bad "--model" continue --restart "$work/a:PD1" --model "$beam" --to 4.7 --out "$work/none"

# --- a structure the catalogue does not have ---------------------------------------------
run "three-mass chain orbit" orbit --model "$models/three_mass_chain.json" --out "$work/chain"
check "the chain's orbit converged" 'd["converged"]'
run "three-mass chain continue in F0" continue --model "$models/three_mass_chain.json" --param F0 --from 0.5 --to 0.6 --out "$work/chain-branch"

# --- sweep: the same numbers with threads; a checkpoint resumes only with the same text ---
cp "$mb" "$work/sweep_model.json"
run "sweep --model" sweep --model "$work/sweep_model.json" --param omega --from 3 --to 4 --steps 5 --threads 2 --out "$work/sweep"
"$vicont" sweep --param omega --from 3 --to 4 --steps 5 --out "$work/sweep-builtin" >/dev/null 2>&1 || fail "sweep --system failed"
same_files "$work/sweep" "$work/sweep-builtin" sweep.csv
run "sweep --model --resume" sweep --model "$work/sweep_model.json" --param omega --from 3 --to 4 --steps 5 --out "$work/sweep" --resume
sed 's/"comment": "m x/"comment": "edited: m x/' "$mb" >"$work/sweep_model.json"
expect_bad "model-text" sweep --model "$work/sweep_model.json" --param omega --from 3 --to 4 --steps 5 --out "$work/sweep" --resume

# --- basins, diagram and map: the built-in's files ------------------------------------------
# (a short diagram and a map with few seeds: the sanitizer build runs this script too, where
# a map with the default seeds takes a minute)
run "basins --model" basins --model "$mb" --x x:0:0.02:5 --y v:-0.05:0.05:5 --transient 50 --out "$work/basins"
"$vicont" basins --x x:0:0.02:5 --y v:-0.05:0.05:5 --transient 50 --out "$work/basins-builtin" >/dev/null 2>&1 ||
  fail "basins --system failed"
same_files "$work/basins" "$work/basins-builtin" basins.csv attractors.csv
run "diagram --model" diagram --model "$mb" --param omega --from 3 --to 3.5 --out "$work/diagram"
"$vicont" diagram --param omega --from 3 --to 3.5 --out "$work/diagram-builtin" >/dev/null 2>&1 || fail "diagram --system failed"
same_files "$work/diagram" "$work/diagram-builtin" diagram_branches.csv diagram_special_points.csv diagram_samples.csv
run "map --model" map --model "$mb" --param omega --from 2.5 --to 3 --param2 d --from2 -0.002 --to2 0 --lines 1 --seeds 4 --out "$work/map"
"$vicont" map --param omega --from 2.5 --to 3 --param2 d --from2 -0.002 --to2 0 --lines 1 --seeds 4 --out "$work/map-builtin" >/dev/null 2>&1 ||
  fail "map --system failed"
same_files "$work/map" "$work/map-builtin" map_curves.csv map_points.csv

# --- a config file's model = FILE: the same run as --model ---------------------------------
printf 'model = %s\n[parameters]\nomega = 2.6\nr = 0.8\n' "$mb" >"$work/run.cfg"
run "simulate --config with model" simulate --config "$work/run.cfg" --out "$work/sim-config"
"$vicont" simulate --system moving-base --set omega=2.6 r=0.8 --out "$work/sim-config-builtin" >/dev/null 2>&1 ||
  fail "simulate --system for the config comparison failed"
same_files "$work/sim-config" "$work/sim-config-builtin" timeseries.csv events.csv
printf 'model = %s\nsystem = drop\n' "$mb" >"$work/both.cfg"
expect_bad "both.cfg:1:" simulate --config "$work/both.cfg" --out "$work/none"

# --- bad input: exit 2, one line naming the item -----------------------------------------
expect_bad "--system" simulate --model "$mb" --system moving-base --out "$work/none"
expect_bad "--model" simulate --model "" --out "$work/none"
expect_bad "no/such.json" simulate --model no/such.json --out "$work/none"
sed 's/"impact-model"/"sof"/' "$mb" >"$work/bad_law.json"
expect_bad "contacts\[0\].law" simulate --model "$work/bad_law.json" --out "$work/none"
grep -q "unknown law 'sof'" "$work/stderr" || fail "bad law: $(cat "$work/stderr")"
sed 's/"k\*a"/"k*"/' "$mb" >"$work/bad_expression.json"
expect_bad "forcing.sin\[0\]" orbit --model "$work/bad_expression.json" --out "$work/none"
expect_bad "e" orbit --model "$beam" --out "$work/none"
expect_bad "m" simulate --model "$mb" --set m=-1 --out "$work/none"

finish cli_model_files
