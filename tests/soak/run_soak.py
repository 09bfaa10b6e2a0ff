#!/usr/bin/env python3
"""Soak runs (doc/testing.md, "Soak runs"): every catalogue system at its defaults, the long
runs and the parameter ranges the docs use, each of which must succeed.

Each run is checked as a fuzz case that must exit 0 (tests/fuzz/run_corpus.py: nothing on
stderr, one JSON object of finite numbers, "ok" not false, no process left behind), with
a time limit per run. The table printed at the end gives every run's time and how many
integrator steps fell back on BDF (a fallback is no failure, doc/cli.md).

The systems and which of them are forced come from `vicont systems --json`, so that a new
catalogue model is soaked without an edit here.

Usage: run_soak.py VICONT [--jobs 2] [--only GLOB] [--report DIR]
Exit status 0 when every run passed, else 1.
"""

import argparse
import concurrent.futures
import fnmatch
import json
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fuzz"))
import run_corpus  # noqa: E402

# A value for each required parameter (no default): the one the docs' examples use.
REQUIRED_VALUES = {"e": "0.1"}


def catalogue(vicont):
    listing = json.loads(subprocess.run([vicont, "systems", "--json"], check=True,
                                        capture_output=True, text=True).stdout)
    return listing["systems"] if isinstance(listing, dict) else listing


def required_settings(system):
    settings = []
    for p in system["parameters"]:
        if p.get("value") is None and not p.get("optional"):  # required, no default
            settings += ["--set", "%s=%s" % (p["name"], REQUIRED_VALUES[p["name"]])]
    return settings


def soak_cases(vicont):
    cases = []

    # Every run draws its figures (--format png), as the docs' runs do: gnuplot on long
    # runs' data is part of what must succeed.
    def add(case_id, argv, timeout):
        cases.append({"id": case_id, "argv": argv + ["--format", "png", "--out", "out", "--json"],
                      "expect": [0],
                      "setup": [], "names": [], "timeout": timeout})

    # Every system at its defaults: a trajectory, a Lyapunov spectrum, a periodic orbit of
    # a forced system. The chain (N = 100 on CVODE) takes minutes: its own limits.
    for system in catalogue(vicont):
        name = system["name"]
        base = ["--system", name] + required_settings(system)
        slow = name == "chain"
        add("defaults/simulate/" + name, ["simulate"] + base, 300 if slow else 60)
        add("defaults/lyapunov/" + name, ["lyapunov"] + base, 600 if slow else 60)
        if system.get("forcing_period", 0) > 0:
            add("defaults/orbit/" + name, ["orbit"] + base, 120 if slow else 60)

    # Long runs: the two-body Hertz spectrum over 10^5 periods (its explicit pair failed
    # from 1,810 periods on before steps were retried on BDF) and the loading sweep over
    # lambda 0.1 .. 3 at 300 points (which failed at lambda = 0.5635 and 0.5610).
    add("long/lyapunov/two-body-hertz-1e5",
        ["lyapunov", "--system", "two-body", "--set", "contact=hertz", "--periods", "100000"],
        1200)
    add("long/sweep/two-body-lambda-300",
        ["sweep", "--system", "two-body", "--param", "lambda", "--from", "0.1", "--to", "3",
         "--steps", "300"], 600)

    # The ranges the docs run (README, doc/cli.md, doc/sweeps.md, doc/library.md).
    add("docs/sweep/moving-base-omega-2-10",
        ["sweep", "--param", "omega", "--from", "2", "--to", "10", "--steps", "161"], 300)
    add("docs/sweep/moving-base-follow-both",
        ["sweep", "--param", "omega", "--from", "2", "--to", "5", "--steps", "61", "--follow",
         "--direction", "both"], 300)
    add("docs/sweep/moving-base-initial-states",
        ["sweep", "--param", "omega", "--from", "3", "--to", "5", "--steps", "41",
         "--initial-states", "0,0;0.01,0;0,-0.02"], 300)
    add("docs/diagram/moving-base-omega-2-5",
        ["diagram", "--param", "omega", "--from", "2", "--to", "5", "--steps", "31",
         "--transient", "300", "--periods", "300"], 300)
    add("docs/basins/moving-base-omega-2.6",
        ["basins", "--set", "omega=2.6", "--x", "x:0.0005:0.0205:41", "--y", "v:-0.03:0.03:41"],
        300)
    add("docs/continue/moving-base-omega-follow-doubling",
        ["continue", "--set", "omega=4", "--param", "omega", "--from", "4", "--to", "4.7",
         "--follow-doubling"], 300)
    add("docs/continue/moving-base-grazing",
        ["continue", "--set", "d=-0.005", "--param", "omega", "--from", "0.5", "--to", "2.5"],
        300)
    add("docs/continue/two-body-hertz-lambda",
        ["continue", "--system", "two-body", "--set", "contact=hertz", "--param", "lambda",
         "--from", "1", "--to", "0.1"], 300)
    return cases


def fallbacks_of(stdout):
    try:
        doc = json.loads(stdout)
    except ValueError:
        return "-"
    fallbacks = doc.get("fallbacks") if isinstance(doc, dict) else None
    return str(fallbacks.get("count", "-")) if isinstance(fallbacks, dict) else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("vicont")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", action="append", default=[],
                        help="run the runs whose id matches this glob (repeatable)")
    parser.add_argument("--report", help="directory for report.json")
    options = parser.parse_args()
    options.vicont = os.path.abspath(options.vicont)
    options.work_dir = None
    env = dict(os.environ)
    env["LC_ALL"] = "C"
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")

    cases = soak_cases(options.vicont)
    if options.only:
        cases = [c for c in cases if any(fnmatch.fnmatchcase(c["id"], g) for g in options.only)]
    print("soak: %d runs, %d at a time, %s" % (len(cases), options.jobs, options.vicont),
          flush=True)
    is_root = os.geteuid() == 0

    def run(case):
        case_options = argparse.Namespace(vicont=options.vicont, work_dir=None,
                                          timeout=case["timeout"], env=env, memory_limit=0)
        result = run_corpus.run_case(case, case_options)
        result["failures"] = run_corpus.check(case, result, is_root)
        return result

    results = {}
    started = time.monotonic()
    # The longest first, so that the others fill the second job meanwhile.
    ordered = sorted(cases, key=lambda c: -c["timeout"])
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        futures = {pool.submit(run, case): case for case in ordered}
        for future in concurrent.futures.as_completed(futures):
            case = futures[future]
            result = future.result()
            results[case["id"]] = result
            status = "ok" if not result["failures"] else "FAILED"
            print("%-48s %-6s %7.1f s  fallbacks %s" % (
                case["id"], status, result["seconds"], fallbacks_of(result["stdout"])), flush=True)
            for kind, detail in result["failures"]:
                print("    %s: %s" % (kind, detail), flush=True)
                print("    vicont %s" % run_corpus.shell_line(case["argv"]), flush=True)

    failed = [i for i, r in results.items() if r["failures"]]
    print("soak: %d runs in %.0f s: %d passed, %d failed" % (
        len(results), time.monotonic() - started, len(results) - len(failed), len(failed)))
    if options.report:
        os.makedirs(options.report, exist_ok=True)
        with open(os.path.join(options.report, "report.json"), "w") as f:
            json.dump([{"id": i, "argv": next(c["argv"] for c in cases if c["id"] == i),
                        "exit": r["exit"], "seconds": r["seconds"],
                        "fallbacks": fallbacks_of(r["stdout"]), "failures": r["failures"]}
                       for i, r in results.items()], f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
