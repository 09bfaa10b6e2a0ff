#!/usr/bin/python3
"""Bench 1 of doc/performance.md: the Lyapunov diagram of the hard moving-base oscillator
(r = 1) by libcont (`vicont sweep`, one thread) and by the scipy peer
(peer_scipy.py, one process) in the same run, with the same omega grid, the same start
(x = x' = 0 at t = 0 for every point) and the same transient and averaging lengths.
5000 averaged periods by default: the tolerance 1e-3 on -0.115 (doc/reproduction.md) holds from
Benettin averages over >= 5000 periods (with 1000 both codes give -0.1128 at omega = 8).

Prints both times (wall and CPU), their ratio, and the accuracy check: at every point
where libcont finds a periodic orbit (z = p/n) the largest exponent of both is within
1e-3 of -0.115 (doc/reproduction.md: both exponents are -c/2m there), and both
exponent sums are -c/m = -0.23. Exit status 1 when a check fails, 2 on a setup error.
libcont's time is the whole process: its start, the points, and its CSV and JSON files and
the figure's gnuplot script; the figure itself is drawn only with --format png (as vicont
draws figures only when asked), which adds gnuplot's time to libcont's.

    bench/lyapunov_vs_scipy/compare.py [--build build] [--from 2 --to 10 --steps 9]
        [--transient 1000] [--periods 5000] [--rtol 1e-9] [--atol 1e-12] [--format none]

Runs with /usr/bin/python3 (Debian's python3-scipy); the peer's tolerances default to the
loosest that pass the accuracy check (doc/performance.md).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCE = 1e-3
EXPONENT = -0.115
SUM = -0.23


def timed(command):
    """Runs command; returns its stdout, wall seconds and CPU seconds of the child."""
    before = os.times()
    wall = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - wall
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return out, wall, cpu


def main():
    p = argparse.ArgumentParser(description="Lyapunov diagram: libcont against scipy")
    p.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"))
    p.add_argument("--from", dest="start", type=float, default=2.0)
    p.add_argument("--to", dest="end", type=float, default=10.0)
    p.add_argument("--steps", type=int, default=9)
    p.add_argument("--transient", type=int, default=1000)
    p.add_argument("--periods", type=int, default=5000)
    p.add_argument("--rtol", type=float, default=1e-9)
    p.add_argument("--format", default="none",
                   help="vicont's --format: none (default, as vicont's own) "
                        "or png to time the figure too")
    p.add_argument("--atol", type=float, default=1e-12)
    a = p.parse_args()
    vicont = os.path.join(a.build, "vicont")
    if not os.access(vicont, os.X_OK):
        sys.exit("no %s: build it first (scripts/setup.sh)" % vicont)
    etas = [a.start + (a.end - a.start) * k / (a.steps - 1) for k in range(a.steps)]

    print("machine: %d CPUs, load %s" % (os.cpu_count(), open("/proc/loadavg").read().split()[:3]))
    print("problem: hard moving-base, r = 1, omega %g..%g, %d points, %d transient + %d averaged "
          "periods per point, exponents on, one thread each" %
          (a.start, a.end, a.steps, a.transient, a.periods))
    with tempfile.TemporaryDirectory() as work:
        out, lib_wall, lib_cpu = timed([
            vicont, "sweep", "--param", "omega", "--from", repr(a.start), "--to", repr(a.end),
            "--steps", str(a.steps), "--transient", str(a.transient), "--periods", str(a.periods),
            "--threads", "1", "--format", a.format, "--out", work, "--json"])
    lib = {round(pt["omega"], 9): pt for pt in json.loads(out)["points"]}
    out, peer_wall, peer_cpu = timed([
        "/usr/bin/python3", os.path.join(HERE, "peer_scipy.py"),
        "--omega", ",".join(repr(e) for e in etas), "--transient", str(a.transient),
        "--periods", str(a.periods), "--rtol", repr(a.rtol), "--atol", repr(a.atol)])
    peer = {round(pt["omega"], 9): pt for pt in json.loads(out)["points"]}

    failures = 0
    print("\n%8s %6s %14s %14s %12s %12s  %s" %
          ("omega", "z", "lambda_1 lib", "lambda_1 scipy", "sum lib", "sum scipy", "check"))
    for omega in etas:
        key = round(omega, 9)
        lp, pp = lib[key], peer[key]
        le, pe = lp["exponents"], pp["exponents"]
        periodic = lp["n"] > 0
        ok = abs(sum(le) - SUM) <= 1e-6 and abs(sum(pe) - SUM) <= 1e-6
        if periodic:
            ok = ok and abs(le[0] - EXPONENT) <= TOLERANCE and abs(pe[0] - EXPONENT) <= TOLERANCE
        failures += 0 if ok else 1
        z = "%d/%d" % (lp["p"], lp["n"]) if periodic else "-"
        print("%8.4f %6s %14.6f %14.6f %12.8f %12.8f  %s" %
              (omega, z, le[0], pe[0], sum(le), sum(pe), ("ok" if ok else "FAIL") if periodic or not ok else "sum ok"))
    print("\n%-28s %10s %10s" % ("", "wall s", "CPU s"))
    label = "libcont (vicont sweep%s)" % ("" if a.format == "none" else ", " + a.format)
    print("%-28s %10.2f %10.2f" % (label, lib_wall, lib_cpu))
    print("%-28s %10.2f %10.2f" % ("scipy solve_ivp (DOP853)", peer_wall, peer_cpu))
    print("%-28s %10.1f %10.1f" % ("ratio scipy / libcont", peer_wall / lib_wall, peer_cpu / lib_cpu))
    print("\naccuracy check (periodic points: lambda_1 within %g of %g; every point: sums = %g): %s" %
          (TOLERANCE, EXPONENT, SUM, "passed" if failures == 0 else "%d FAILED" % failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
