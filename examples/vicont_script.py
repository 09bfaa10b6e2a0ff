"""What the example scripts share: their command line (--vicont, --out) and running one
vicont command with --json. Standard library only; the scripts import it from their
parent folder (examples/)."""
import argparse
import csv
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]


def arguments(description, default_out):
    """--vicont PATH (default build/vicont) and --out DIR (created)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--vicont", default=str(REPOSITORY / "build" / "vicont"))
    parser.add_argument("--out", default=default_out)
    args = parser.parse_args()
    args.out = Path(args.out)
    args.out.mkdir(parents=True, exist_ok=True)
    return args


def run_vicont(vicont, command, system, settings, out_dir, options=(), check=True):
    """vicont COMMAND --system SYSTEM --set S... OPTIONS [--out OUT_DIR] --json: its JSON
    summary (no --out when out_dir is None: `vicont systems` writes no files). A failure
    ends the script with vicont's message, or returns None when check is False."""
    args = [str(vicont), command, "--system", system]
    for setting in settings:
        args += ["--set", setting]
    args += list(options) + (["--out", str(out_dir)] if out_dir is not None else []) + ["--json"]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        if not check:
            return None
        sys.exit("vicont failed (%d): %s\n%s" % (done.returncode, " ".join(args), done.stderr))
    return json.loads(done.stdout)


def run_in_parallel(function, jobs, threads=2):
    """[function(*job) for job in jobs], `threads` vicont runs at a time, in order."""
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(lambda job: function(*job), jobs))


def write_rows(path, rows):
    """A CSV file with the keys of the first row (dicts) as header."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
