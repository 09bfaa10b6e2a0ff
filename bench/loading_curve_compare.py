"""Reads the logs of bench/loading_curve_vs_auto.sh (AUTO-07p's auto.log, libcont's
libcont_<i>.log) from the directory given and prints times, ratio, the accuracy check
and the special points side by side. Exit status 1 when an accuracy check fails."""
import glob
import re
import sys

TOLERANCE = 1e-4  # relative agreement of A_max(x1) at lambda = 1, 2, 3
SAME_POINT = 1e-5  # a special point of a further libcont run matches the first run's
work = sys.argv[1]

auto = {"special": [], "amax": {}}
for line in open(f"{work}/auto.log"):
    if line.startswith("AUTO_TIME"):
        _, _, wall, _, cpu = line.split()
        auto["wall"], auto["cpu"] = float(wall), float(cpu)
    elif line.startswith("AUTO_MESH"):
        auto["mesh"] = line.split(None, 1)[1].strip()
    elif line.startswith("AUTO_SPECIAL"):
        f = line.split()
        kind, lam, amax, overlap = f[1], float(f[3]), float(f[5]), float(f[7])
        if kind == "UZ" and abs(lam - round(lam)) <= 1e-3:  # UZR at lambda = 1, 2, 3
            auto["amax"][round(lam)] = amax
        elif kind == "UZ":  # UZR at PAR(22) = 0: the largest overlap vanishes
            auto["special"].append(("grazing", lam, amax))
        elif kind != "EP":
            auto["special"].append((kind, lam, amax))

runs = []
for log in sorted(glob.glob(f"{work}/libcont_*.log")):
    run = {"special": [], "amax": {}, "args": open(log[:-4] + ".args").read().strip()}
    for line in open(log):
        m = re.match(r"libcont: ([\d.]+) s wall, ([\d.]+) s CPU.*?(\d+) branch points", line)
        if m:
            run["wall"], run["cpu"], run["points"] = float(m[1]), float(m[2]), int(m[3])
        m = re.match(r"\s+(\S+)\s+lambda = ([\d.]+)\s+A_max\(x1\) = ([\d.]+)", line)
        if m:
            run["special"].append((m[1], float(m[2]), float(m[3])))
        m = re.match(r"\s+A_max\(x1\) at lambda = (\d+): ([\d.naN]+)", line)
        if m:
            run["amax"][int(m[1])] = float(m[2])
        if line.startswith("work:"):
            run["work"] = line.strip()
    runs.append(run)

failed = False
print(f"\nAUTO-07p: {auto['mesh']}: {auto['cpu']:.2f} s CPU, {auto['wall']:.2f} s wall")
for run in runs:
    name = run["args"] or "defaults"
    print(f"libcont ({name}): {run['cpu']:.2f} s CPU, {run['wall']:.2f} s wall, "
          f"{run['points']} branch points; CPU ratio AUTO/libcont = {auto['cpu'] / run['cpu']:.2f}, "
          f"wall ratio {auto['wall'] / run['wall']:.2f}")
    print(f"  {run.get('work', '')}")
print("\nA_max(x1)       AUTO-07p     " + "  ".join(f"libcont {r['args'] or 'defaults':<14}" for r in runs))
for lam in (1, 2, 3):
    a = auto["amax"].get(lam, float("nan"))
    cells = []
    for run in runs:
        v = run["amax"].get(lam, float("nan"))
        rel = abs(v - a) / abs(a) if a == a and v == v else float("nan")
        ok = rel <= TOLERANCE
        failed |= not ok
        cells.append(f"{v:.8f} {rel:.1e} {'ok' if ok else 'FAIL'}")
    print(f"  lambda = {lam}:   {a:.8f}   " + "  ".join(cells))
print(f"  (relative differences to AUTO; the check is {TOLERANCE:g})")

# Special points: libcont's (first run), each with AUTO's nearest of the same kind.
same = {"fold": "LP", "neimark-sacker": "TR", "period-doubling": "PD", "grazing": "grazing"}
print("\nspecial points   libcont (defaults)             AUTO-07p nearest of the same kind")
matched = set()
for kind, lam, amax in runs[0]["special"]:
    peers = [i for i, s in enumerate(auto["special"]) if s[0] == same.get(kind)]
    if peers:
        i = min(peers, key=lambda i: abs(auto["special"][i][1] - lam))
        matched.add(i)
        k2, l2, a2 = auto["special"][i]
        peer = f"{k2:<8} {l2:.10f} ({l2 - lam:+.1e})  A_max {a2:.8f}"
    else:
        peer = "none"
    print(f"  {kind:<15} {lam:.10f} A_max {amax:.8f}   {peer}")
rest = [s for i, s in enumerate(auto["special"]) if i not in matched]
if rest:
    print(f"AUTO-07p's other special points ({len(rest)}):")
    for kind, lam, amax in rest:
        print(f"  {kind:<8} {lam:.10f}  A_max {amax:.8f}")
# Every further libcont run must locate the first run's special points (same kind, lambda
# within SAME_POINT) and no others: a faster setting that steps over one is not matched.
for run in runs[1:]:
    name = run["args"] or "defaults"
    missing = [p for p in runs[0]["special"]
               if not any(q[0] == p[0] and abs(q[1] - p[1]) <= SAME_POINT for q in run["special"])]
    extra = len(run["special"]) - (len(runs[0]["special"]) - len(missing))
    ok = not missing and extra == 0
    failed |= not ok
    worst = max((min(abs(q[1] - p[1]) for q in run["special"] if q[0] == p[0])
                 for p in runs[0]["special"] if p not in missing), default=0.0)
    print(f"\nspecial points of libcont ({name}): {len(run['special'])}, "
          f"{'the same' if ok else 'NOT the same'} as the first run's (largest shift "
          f"{worst:.1e} in lambda; missing {len(missing)}, extra {max(extra, 0)})")
print("\naccuracy check:", "FAILED" if failed else "passed")
sys.exit(1 if failed else 0)
