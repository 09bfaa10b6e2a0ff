#!/bin/sh
# vicont map end to end on the moving-base oscillator in the box omega in [1.5, 3],
# d in [-0.004, 0]: the summary and files; a row of a z = 1/1 period-doubling curve checked
# by a second method through the command line (vicont continue in omega at the row's d must
# locate a period doubling within 1e-6 of the row's omega); the brute-force grid under the
# curves (a cell in the region of the stable z = 1/1 orbit says 1/1); bad input (exit 2,
# one line naming the item).
# Usage: cli_map.sh /path/to/vicont
set -u
vicont=${1:?usage: cli_map.sh /path/to/vicont}
cli_name=cli-map
. "$(dirname "$0")/cli_helpers.sh"

box="--param omega --from 1.5 --to 3 --param2 d --from2 -0.004 --to2 0"
# shellcheck disable=SC2086
if "$vicont" map $box --max-period 2 --grid 12 --grid2 8 --grid-transient 100 \
    --grid-periods 100 --threads 2 --format png,pdf --out "$work/map" --json >"$work/stdout" 2>"$work/map.err"; then
  check "the map's summary" \
    'd["command"] == "map" and d["p1"] == "omega" and d["p2"] == "d" and d["ok"] and d["orbits_found"] > 0 and len(d["branches"]) > 0'
  check "no z = 1/1 period-doubling curve or grazing curve" \
    'any(c["kind"] == "period-doubling" and c["n"] == 1 and c["rows"] >= 5 for c in d["curves"]) and any(c["kind"] == "grazing" and c["rows"] >= 5 for c in d["curves"])'
  check "the grid's shape" \
    'd["grid"]["p1_values"] == 12 and d["grid"]["p2_values"] == 8 and d["grid"]["status"] == "complete"'
  expect_files "$work/map" map.json map_curves.csv map_points.csv map_stable.csv map.png map.gp \
    map_grid.csv map_grid.png map_grid.gp map.pdf map_grid.pdf
  for pdf in map.pdf map_grid.pdf; do
    [ "$(head -c 5 "$work/map/$pdf")" = "%PDF-" ] || fail "$pdf is no PDF"
  done
  check "the PDFs are listed among the files" \
    'sum(f.endswith(("map.pdf", "map_grid.pdf")) for f in d["files"]) == 2'
  python3 - "$work/stdout" "$work/map/map.json" <<'PYTHON' || fail "map.json is not the --json object"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(0 if a == b else 1)
PYTHON
  [ "$(($(wc -l <"$work/map/map_grid.csv") - 1))" -eq 96 ] || fail "map_grid.csv does not have 12 x 8 cells"
  # Each stable stretch of a seed line ends on the box or on a special point of a branch of
  # its line (the bifurcation that ends it; a stretch joins the pieces of a branch traced
  # both ways from its seed), not on a row short of it.
  python3 - "$work/map/map_stable.csv" "$work/map/map.json" <<'PYTHON' || fail "a stable stretch ends short of its branch's special point"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
summary = json.load(open(sys.argv[2]))
ends = 0
for r in rows:
    line = float(r["d"])
    points = [p["p1"] for b in summary["branches"] if b["p2"] == line
              for p in b["special_points"]] + [1.5, 3.0]
    for end in (float(r["omega_from"]), float(r["omega_to"])):
        if min(abs(end - p) for p in points) > 1e-12:
            print("  stretch", r, "end", end, "is no special point or bound")
            sys.exit(1)
        ends += 1
sys.exit(0 if ends >= 2 else 1)
PYTHON
  # The grid cell nearest (omega, d) = (1.6, -0.001), in the stable z = 1/1 region.
  python3 - "$work/map/map_grid.csv" <<'PYTHON' || fail "the grid cell at (1.6, -0.001) is not z = 1/1"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
near = min(rows, key=lambda r: abs(float(r["omega"]) - 1.6) / 1.5 + abs(float(r["d"]) + 0.001) / 0.004)
print("  grid cell at omega =", near["omega"], "d =", near["d"], "z =", near["z"])
sys.exit(0 if near["z"] == "1/1" else 1)
PYTHON
  # A middle row of the first z = 1/1 period-doubling curve, and a one-parameter branch in omega
  # at its d: the branch's period doubling lies at the row's omega.
  row=$(python3 - "$work/map/map_curves.csv" <<'PYTHON'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["kind"] == "period-doubling" and r["n"] == "1" and r["row"] != ""]
first = [r for r in rows if r["curve"] == rows[0]["curve"]]
r = first[len(first) // 2]
print(r["omega"], r["d"])
PYTHON
)
  omega=${row% *}
  d=${row#* }
  expect_flip_near "$omega" "$d" 1.5 3 "$work/line"
  # The z = 1/2 orbits' fold and impact-velocity grazing near omega 2.06 at d = -0.0038
  # (curves started beside each other at omega 1.9989 and 1.9990 on the seed line d = -1/300,
  # reached there only past a sharp fold): the branch of the seed line's z = 1/2 orbit, on
  # in d to -0.0038 from a row at omega 2.2, then in omega, locates them where the curves
  # cross d = -0.0038.
  "$vicont" continue --set d=-0.0033333333333333335 --period 2 --param omega --from 2.9375 --to 1.5 \
    --format none --out "$work/half" >/dev/null 2>"$work/stderr" || fail "z = 1/2 branch: $(cat "$work/stderr")"
  row=$(python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(next(r['index'] for r in rows if 2.15 < float(r['omega']) < 2.25 and r['impacts'] == '2'))" "$work/half/branch.csv")
  "$vicont" continue --restart "$work/half:$row" --param d --to -0.0038 --format none --out "$work/half-d" \
    >/dev/null 2>"$work/stderr" || fail "z = 1/2 branch in d: $(cat "$work/stderr")"
  last=$(($(wc -l <"$work/half-d/branch.csv") - 2))
  "$vicont" continue --restart "$work/half-d:$last" --param omega --to 1.9 --format none --json \
    --out "$work/half-omega" >"$work/stdout" 2>"$work/stderr" || fail "z = 1/2 branch at d = -0.0038: $(cat "$work/stderr")"
  python3 - "$work/stdout" "$work/map/map_curves.csv" <<'PYTHON' || fail "the z = 1/2 fold and grazing curves miss the branch's points at d = -0.0038"
import csv, json, sys
branch = json.load(open(sys.argv[1]))
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["n"] == "2" and r["d"] != "nan"]
for kind in ("fold", "grazing"):
    located = [p["parameter"] for p in branch["special_points"] if p["type"] == kind]
    crossings = []
    for a, b in zip(rows, rows[1:]):
        if a["curve"] == b["curve"] == a["curve"] and a["kind"] == kind:
            da, db = float(a["d"]) + 0.0038, float(b["d"]) + 0.0038
            if da * db <= 0 and da != db:
                oa, ob = float(a["omega"]), float(b["omega"])
                crossings.append(oa + (ob - oa) * da / (da - db))
    near = [c for c in crossings if 2.0 < c < 2.1]
    print(" ", kind, "branch", located, "curves", near)
    if len(located) != 1 or not near or min(abs(c - located[0]) for c in near) > 1e-6:
        sys.exit(1)
PYTHON
else
  fail "vicont map: $(cat "$work/map.err")"
fi

# shellcheck disable=SC2086
expect_bad "--param2" map --param omega --from 1.5 --to 3 --from2 0 --to2 1 --out "$work/bad"
expect_bad "--param2" map --param omega --from 1.5 --to 3 --param2 omega --from2 1 --to2 2 --out "$work/bad"
expect_bad "--from2" map --param omega --from 1.5 --to 3 --param2 d --from2 0 --to2 0 --out "$work/bad"
expect_bad "nosuch" map --param omega --from 1.5 --to 3 --param2 nosuch --from2 0 --to2 1 --out "$work/bad"
expect_bad "--from2" map --param omega --from 1.5 --to 3 --param2 d --to2 0 --out "$work/bad"
expect_bad "--format" map --param omega --from 1.5 --to 3 --param2 d --from2 -0.004 --to2 0 --format png,eps --out "$work/bad"
finish cli_map
