#!/usr/bin/env python3
"""Mass falling onto rheological dampers: the source's figures and numbers.

For the three damper laws (viscoelastic, elastic-viscoplastic, elastoplastic) with
g = 9.81, m = 100, k1 = 3924, k2 = 1962, c = 251, T0 = 2000 and x(0) = -3 (x downward),
x'(0) = 5, z(0) = 0, it runs `vicont simulate --system rheological` over 40 s and writes,
into OUT (default out/rheological):

  <law>/                    vicont's own files: timeseries.csv (t, x, v, z, accounts, y, R),
                            events.csv, simulate.json and its figures' gnuplot scripts
                            (cd OUT/<law> && gnuplot timeseries.gp draws timeseries.png)
  histories.png             time histories x, y, z, R of the three laws (first 12 s)
  hysteresis.png            hysteresis loops R(y) and R(z) of the three laws
  figures.gp                the gnuplot script of both PNGs (rerun: cd OUT && gnuplot figures.gp)
  reference_comparison.csv  every published number of doc/reproduction.md: published, ours,
                            difference, tolerance, verdict

and prints the comparison. Needs python3 (standard library only), gnuplot, and vicont:

  cmake --build build -j2 --target vicont
  python3 examples/rheological/reproduce.py [--vicont build/vicont] [--out DIR]

Exit status 0 when every published value is reproduced within its tolerance, 1 otherwise.
About 2 s of computing.
"""
import argparse
import csv
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
LAWS = ["viscoelastic", "viscoplastic", "elastoplastic"]
T_END = 40.0          # the viscoelastic limits are published for t >= 40 s
SAMPLE_STEP = 0.002
K2, T0 = 1962.0, 2000.0


def simulate(vicont, law, out_dir):
    command = [str(vicont), "simulate", "--system", "rheological", "--set", "model=" + law,
               "--t-end", str(T_END), "--sample-step", str(SAMPLE_STEP), "--out", str(out_dir),
               "--json"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("vicont failed (%d): %s\n%s" % (done.returncode, " ".join(command), done.stderr))
    return json.loads(done.stdout)


def read_events(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def row(law, quantity, published, ours, tolerance, absolute):
    difference = abs(ours - published) if absolute else abs(ours - published) / abs(published)
    return {
        "model": law,
        "quantity": quantity,
        "published": published,
        "ours": ours,
        "difference": difference,
        "difference_kind": "absolute" if absolute else "relative",
        "tolerance": tolerance,
        "verdict": "reproduced" if difference <= tolerance else "NOT reproduced",
    }


def comparison(law, summary, events):
    """The published values (doc/reproduction.md) that concern this law."""
    rows = []
    first = next(e for e in events if e["kind"] == "contact_start")
    rows.append(row(law, "first contact time (s)", 0.423803, float(first["t"]), 1e-5, True))
    rows.append(row(law, "impact speed at first contact (m/s)", 9.157511,
                    float(first["relative_velocity"]), 1e-6, False))
    if law == "viscoelastic":
        final = summary["final_state"]
        rows.append(row(law, "x_inf (m, t = 40 s)", 0.75, final["state"]["x"], 1e-6, True))
        rows.append(row(law, "y_inf (m, t = 40 s)", 0.75, final["outputs"]["y"], 1e-6, True))
        rows.append(row(law, "z_inf (m, t = 40 s)", 0.5, final["state"]["z"], 1e-6, True))
        rows.append(row(law, "R_inf (N, t = 40 s)", 981.0, final["outputs"]["R"], 1e-3, True))
    if law == "elastoplastic":
        # Every separation after the first slip (the first loading); ours is the one
        # farthest from T0/k2.
        first_slip = next(i for i, e in enumerate(events) if e["event"] == "slip")
        separations = [float(e["z_after"]) for e in events[first_slip:] if e["kind"] == "contact_end"]
        worst = max(separations, key=lambda z: abs(z - 1.019368))
        r = row(law, "z at every separation after the first loading (m, %d separations)"
                % len(separations), 1.019368, worst, 1e-5, True)
        rows.append(r)
    energy = summary["energy"]
    rows.append(row(law, "energy balance error / initial energy (40 s)", 0.0,
                    abs(energy["balance_error"]) / energy["initial"], 1e-6, True))
    return rows


FIGURES = r"""# Made by examples/rheological/reproduce.py; run 'gnuplot figures.gp' in this directory.
set datafile separator ','
set datafile columnheaders
set grid
set key outside right top vertical
laws = 'viscoelastic viscoplastic elastoplastic'
colour(i) = word('#1f4e9a #c0392b #27ae60', i)
file(i) = word(laws, i).'/timeseries.csv'
# Time histories: one panel per quantity, the three laws in each.
set terminal pngcairo size 1000,1200 noenhanced font 'sans,10'
set output 'histories.png'
set multiplot layout 4,1 title 'mass falling onto rheological dampers: time histories (x downward)' font 'sans,12'
set xrange [0:12]
unset xlabel
do for [q in 'x y z R'] {
  if (q eq 'R') { set xlabel 't (s)' }
  set ylabel q
  plot for [i=1:3] file(i) using 't':q with lines lw 1.4 lc rgb colour(i) title word(laws, i)
}
unset multiplot
# Hysteresis loops: R against the bumper position y and the internal coordinate z.
set terminal pngcairo size 1200,560 noenhanced font 'sans,10'
set output 'hysteresis.png'
set multiplot layout 1,2 title 'hysteresis loops, 40 s' font 'sans,12'
set autoscale x
set key inside left top
do for [h in 'y z'] {
  set xlabel h.' (m)'
  set ylabel 'R (N)'
  plot for [i=1:3] file(i) using h:'R' with lines lw 1.2 lc rgb colour(i) title word(laws, i)
}
unset multiplot
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vicont", default=str(REPOSITORY / "build" / "vicont"))
    parser.add_argument("--out", default="out/rheological")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    with ThreadPoolExecutor(max_workers=2) as pool:  # two cores, shared
        summaries = dict(zip(LAWS, pool.map(lambda law: simulate(args.vicont, law, out / law), LAWS)))

    rows = []
    for law in LAWS:
        rows += comparison(law, summaries[law], read_events(out / law / "events.csv"))
    with open(out / "reference_comparison.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)

    (out / "figures.gp").write_text(FIGURES)
    done = subprocess.run(["gnuplot", "figures.gp"], cwd=out, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("gnuplot failed on %s: %s" % (out / "figures.gp", done.stderr))

    print("%-13s %-62s %12s %16s %9s %7s  %s" % ("model", "quantity", "published", "ours",
                                                 "diff", "tol", "verdict"))
    for r in rows:
        print("%-13s %-62s %12.7g %16.10g %9.2e %7.0e  %s" % (
            r["model"], r["quantity"], r["published"], r["ours"], r["difference"], r["tolerance"],
            r["verdict"]))
    for law in LAWS:
        s = summaries[law]
        print("%-13s contacts %d, max R %.2f N, max penetration %.5f m, energy: initial %.1f, "
              "dissipated %.3f, balance error %.2e J" % (
                  law, len(s["contacts"]), s["max_contact_force"], s["max_penetration"],
                  s["energy"]["initial"], s["energy"]["dissipated"], s["energy_balance_error"]))
    print("written:", ", ".join(str(out / name) for name in
                                ["histories.png", "hysteresis.png", "figures.gp",
                                 "reference_comparison.csv"]))
    return 0 if all(r["verdict"] == "reproduced" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
