#!/usr/bin/env python3
"""Two-body vibro-impact system under random loading (doc/reproduction.md).

The load F(t) = lambda sum_l sqrt(2 S(w_l) dw) cos(w_l t + delta_l), l = 1..n, w_l = l dw,
with S(w) = (2 sigma^2/pi) alpha theta^2 / ((w^2 - theta^2)^2 + alpha^2 w^2), n = 100,
theta = 6, alpha = 5, sigma = 4242.642, dw = 0.2 and seeded random phases, drives the
main body of the two-body system with the Hertz contact (m1 = 1000, m2 = 100, D = 0.05).
The load repeats after P = 2 pi / dw = 31.4 s. For seeds 1..4 it runs `vicont simulate
--system two-body --set loading=random` over one load period (lambda = 1) and reports:
the variance of the sampled load, exactly sum S(w_l) dw over a full period (the samples
are a uniform grid of 4096 points on it: the mean of F^2 is exact for a trigonometric
polynomial of degree 200); that sum against sigma^2 = integral_0^inf S dw; the
responses' standard deviations and the impacts. Seed 1 is run twice: same seed, same
run. Writes, into OUT (default out/two_body_random):

  spectrum.csv     w_l, S(w_l), the amplitude sqrt(2 S dw)
  statistics.csv   per seed: variance of F, sum S dw, sigma^2, std x1, std x2, impacts
  seed_<k>/        vicont's own files (timeseries.csv has the column F)
  loading.png      F(t), x1(t), x2(t) for seed 1, and S(w)
  figures.gp       the gnuplot script (rerun: cd OUT && gnuplot figures.gp)

Needs python3 (standard library only), gnuplot, and vicont:

  cmake --build build -j2 --target vicont
  python3 examples/two_body_random/reproduce.py [--vicont build/vicont] [--out DIR]

Exit status 0 when every identity holds, 1 otherwise. A few seconds of computing.
"""
import csv
import math
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from vicont_script import arguments, run_in_parallel, run_vicont, write_rows  # noqa: E402
SIGMA, THETA, ALPHA, N, DW = 4242.642, 6.0, 5.0, 100, 0.2
PERIOD = 2 * math.pi / DW
POINTS = 4096


def density(w):
    return (2 * SIGMA ** 2 / math.pi) * ALPHA * THETA ** 2 / ((w * w - THETA ** 2) ** 2 + ALPHA ** 2 * w * w)


def simulate(vicont, seed, out_dir):
    summary = run_vicont(vicont, "simulate", "two-body", ["loading=random", "seed=%d" % seed],
                         out_dir, ["--t-end", repr(PERIOD), "--sample-step", repr(PERIOD / POINTS)])
    with open(out_dir / "timeseries.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return summary, rows


FIGURES = """set terminal pngcairo size 1100,1000
set output 'loading.png'
set datafile separator ','
set multiplot layout 4,1 title 'two-body, Hertz contact, random load (seed 1), one load period'
set xlabel 't (s)'
set ylabel 'F (N)'
plot 'seed_1/timeseries.csv' using 1:(column('F')) every ::1 with lines notitle
set ylabel 'x1 (m)'
plot 'seed_1/timeseries.csv' using 1:2 every ::1 with lines notitle
set ylabel 'x2 (m)'
plot 'seed_1/timeseries.csv' using 1:3 every ::1 with lines notitle
set xlabel 'w (rad/s)'
set ylabel 'S(w)'
plot 'spectrum.csv' using 1:2 every ::1 with impulses title 'S(w_l), w_l = l dw'
unset multiplot
"""


def main():
    args = arguments(__doc__.splitlines()[0], "out/two_body_random")
    out = args.out

    frequencies = [l * DW for l in range(1, N + 1)]
    sum_s = sum(density(w) * DW for w in frequencies)
    with open(out / "spectrum.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["w", "S", "amplitude"])
        for w in frequencies:
            writer.writerow([w, density(w), math.sqrt(2 * density(w) * DW)])

    seeds = [1, 2, 3, 4]
    jobs = [(args.vicont, s, out / ("seed_%d" % s)) for s in seeds]
    runs = run_in_parallel(simulate, jobs + [(args.vicont, 1, out / "seed_1_again")])

    ok = True
    table = []
    for seed, (summary, rows) in zip(seeds, runs):
        # Grid samples only (event rows carry the event's name), the end point excluded.
        period_rows = [r for r in rows
                       if r["event"] == "-" and float(r["t"]) < PERIOD - 0.5 * PERIOD / POINTS]
        loads = [float(r["F"]) for r in period_rows]
        variance = sum(f * f for f in loads) / len(loads)
        exact = abs(variance / sum_s - 1) <= 1e-9 and len(loads) == POINTS
        ok &= exact and summary["ok"]
        table.append({
            "seed": seed, "variance_F": "%.8g" % variance, "sum_S_dw": "%.8g" % sum_s,
            "sigma2": "%.8g" % SIGMA ** 2, "variance_over_sum_minus_1": "%.2e" % (variance / sum_s - 1),
            "std_x1": "%.5g" % statistics.pstdev(float(r["x1"]) for r in period_rows),
            "std_x2": "%.5g" % statistics.pstdev(float(r["x2"]) for r in period_rows),
            "impacts": summary["impacts"], "status": summary["status"],
        })
    same = runs[0][1] == runs[-1][1]
    ok &= same
    write_rows(out / "statistics.csv", table)
    (out / "figures.gp").write_text(FIGURES)
    subprocess.run(["gnuplot", "figures.gp"], cwd=out, check=True)

    print("sum S(w_l) dw = %.6g = %.5f sigma^2 (sigma^2 = %.6g)" % (sum_s, sum_s / SIGMA ** 2, SIGMA ** 2))
    for r in table:
        print("seed %d: var F %s (rel. to sum S dw %s), std x1 %s, std x2 %s, impacts %d" % (
            r["seed"], r["variance_F"], r["variance_over_sum_minus_1"], r["std_x1"], r["std_x2"],
            r["impacts"]))
    print("same seed twice gives the same run:", same)
    print("files in", out)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
