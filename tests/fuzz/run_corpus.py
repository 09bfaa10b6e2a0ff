#!/usr/bin/env python3
"""Runs the fuzz corpus (generate.py) against a vicont binary and checks every case
(doc/testing.md, "Fuzz corpus").

For each case, run in a temporary directory of its own with a time limit:

  - the exit status is one the case allows (0 success, 1 output not written, 2 bad input,
    3 numerical failure; 1 only where the case is about an output path);
  - exit 2: exactly one stderr line "vicont: error: ..." that names the item the case
    perturbed (its option, parameter or file);
  - exit 3: stderr reports the numerical failure; with --json, "ok" is false and the last
    good state (final_state) has finite numbers;
  - exit 0: nothing on stderr; with --json, stdout is one JSON object whose numbers are
    all finite (see FINITE below for the null values that are allowed);
  - never: a sanitizer report, "unexpected failure", "terminate called", a signal, a
    timeout, or a process (gnuplot) left running in the case's process group.

Cases listed in known_failures.txt are reported as known, not as failures; a listed
case that passes is reported as "known failure now passes: remove it".

Usage:
  run_corpus.py VICONT [--sample N | --only GLOB] [--jobs 2] [--timeout S] [--report DIR]
  run_corpus.py VICONT --corpus corpus.jsonl     (a corpus written by generate.py -o)
Exit status 0 when no case failed other than the known ones, else 1.
"""

import argparse
import base64
import concurrent.futures
import fnmatch
import json
import math
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

# A progress line (drivers/progress.hpp): "continue   20%  0 s, about 0 s left", or with
# the swept parameter: "sweep omega   33%  1/3 points ...".
PROGRESS_LINE = re.compile(r"^\S+( \S+)?\s+\d+%")
ADVICE_LINE = re.compile(r"^vicont: (warning|note): ")

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

SANITIZER_MARKS = ["runtime error:", "AddressSanitizer", "LeakSanitizer",
                   "UndefinedBehaviorSanitizer", "ThreadSanitizer", "MemorySanitizer"]

# FINITE: where the JSON may hold null instead of a number. JSON has no infinity or NaN,
# so vicont writes a non-finite number as null (doc/cli.md, "JSON output"); on success a
# null is accepted only where doc/cli.md documents it as a normal value:
#   - an element of "exponents" and "exponent_sum": a Lyapunov exponent is -inf when
#     sticking collapsed the tangent space ("null for -inf"; lyapunov lists it in
#     "non_finite", sweep points do not),
#   - a key path listed in the "non_finite" map of the same or an enclosing object, which
#     says what it was ("energy.initial": "inf" at the top of a simulate summary),
#   - "z" of a motion that is not periodic, "t_out" of a contact still open at the end
#     (the second element of a "contacts" pair), "relative_balance_error" when all
#     energies are 0, "value" of a parameter in the systems listing that has none (an
#     optional one, derived unless given, or a required one such as cantilever's e),
#     "contact_damping" of a system without one, "first_time" of "fallbacks" when no step
#     was retried.
# Any other null, and NaN, Infinity or a number that overflows a double, is a failure.
NULLABLE_KEYS = {"z", "relative_balance_error", "contact_damping", "exponent_sum", "first_time"}


def json_problems(text, require_ok=None):
    """Problems with stdout that should be exactly one JSON object of finite numbers."""
    def reject_constant(name):
        raise ValueError("non-finite number " + name)

    def parse_float(s):
        x = float(s)
        if not math.isfinite(x):
            raise ValueError("number overflows a double: " + s[:40])
        return x

    try:
        doc = json.loads(text, parse_constant=reject_constant, parse_float=parse_float)
    except ValueError as e:
        return ["bad-json", "stdout is not one JSON object: %s" % str(e)[:200]], None
    if not isinstance(doc, dict):
        return ["bad-json", "stdout is JSON but not an object"], None
    return None, doc


def nulls(doc, path="", explained=(), documented=frozenset()):
    """Paths of the nulls that no rule of FINITE allows. DOCUMENTED holds the full paths
    that an enclosing object's "non_finite" map lists: vicont records a key path relative
    to the object that holds the map ("energy.initial", "exponents[1]", doc/cli.md)."""
    found = []
    if isinstance(doc, dict):
        listed = set(doc.get("non_finite", {}) or {}) if isinstance(doc.get("non_finite"),
                                                                    dict) else set()
        prefix = path + "." if path else ""
        documented = documented | {prefix + key for key in listed}
        for key, value in doc.items():
            sub = path + "." + key if path else key
            if value is None:
                if key in NULLABLE_KEYS or key in listed or sub in documented:
                    continue
                if key == "value" and "rule" in doc:  # optional or required: no value yet
                    continue
                found.append(sub)
            else:
                found += nulls(value, sub, "any" if key == "exponents" else listed, documented)
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            sub = "%s[%d]" % (path, i)
            if value is None:
                leaf = sub.rsplit(".", 1)[-1]
                if explained == "any" or leaf in explained or sub in documented:
                    continue
                if re.search(r"contacts\[\d+\]\[1\]$", sub):
                    continue
                found.append(sub)
            else:
                found += nulls(value, sub, explained, documented)
    return found


def finite_state(doc):
    """Problems with final_state of a failed run: it must be the last good state."""
    state = doc.get("final_state")
    if state is None:
        return []
    bad = []
    for name, value in (state.get("state") or {}).items():
        if not isinstance(value, (int, float)):
            bad.append("final_state.state.%s = %r" % (name, value))
    if not isinstance(state.get("t"), (int, float)):
        bad.append("final_state.t = %r" % (state.get("t"),))
    return bad


def names_item(stderr, names):
    """Whether stderr names one of NAMES (as a word of its own for short names)."""
    if not names:
        return True
    for name in names:
        if not name:
            continue
        # vicont prints bytes outside printable ASCII as \xNN
        escaped = "".join(c if " " <= c < "\x7f" else "".join("\\x%02x" % b for b in
                          c.encode("utf-8", "surrogateescape")) for c in name)
        if escaped != name and escaped in stderr:
            return True
        if re.fullmatch(r"[\w]{1,3}", name):
            if re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", stderr):
                return True
        elif name in stderr:
            return True
    return False


def check(case, result, is_root):
    """The failures of one finished case: a list of (kind, detail)."""
    failures = []
    code, out, err = result["exit"], result["stdout"], result["stderr"]
    if result.get("setup_error"):
        return [("harness", result["setup_error"])]
    if result["timed_out"]:
        failures.append(("timeout", "no exit within %g s" % result["timeout"]))
    for mark in SANITIZER_MARKS:
        if mark in err:
            line = next((l for l in err.splitlines() if mark in l), mark)
            failures.append(("sanitizer", line.strip()[:300]))
            break
    if "unexpected failure" in err:
        failures.append(("unexpected-failure", first_line(err, "unexpected failure")))
    if "terminate called" in err or "what():" in err:
        failures.append(("terminate", first_line(err, "terminate")))
    if result["leftover"]:
        failures.append(("leftover-process", result["leftover"]))
    if result["timed_out"]:
        return failures
    if code is None or code < 0 or code > 3:
        failures.append(("crash", "exit status %s%s" % (code, signal_name(code))))
        return failures
    expect = case["expect"]
    if is_root and "root_expect" in case:
        expect = case["root_expect"]
    if code not in expect:
        failures.append(("exit-status", "exit %d, expected %s: %s" % (
            code, "/".join(map(str, expect)), err.strip().splitlines()[0][:300] if err.strip()
            else "(stderr empty)")))
    wants_json = "--json" in case["argv"] and not any(a.startswith("--json=") for a in
                                                        case["argv"])
    if code in (1, 2) and code in expect:
        if not names_item(err, case["names"]):
            failures.append(("unnamed-item", "stderr names none of %s: %s" % (
                case["names"][:3], err.strip()[:300])))
    # Warnings and notes (a start state inside a contact, an old parameter name) are
    # meant for the user; with --progress so are the progress lines. Anything else on
    # stderr of a success is noise, and a refusal is one error line after them.
    said = [line for line in err.strip().splitlines()
            if not (ADVICE_LINE.match(line) or
                    (any(a.startswith("--progress") for a in case["argv"]) and
                     PROGRESS_LINE.match(line)))]
    if code == 2:
        if len(said) != 1 or not said[0].startswith("vicont: error: "):
            failures.append(("error-format", "exit 2 wants one line 'vicont: error: ...' "
                             "(after warnings or notes), got %d lines: %s" % (len(said), err[:200])))
    if code == 0 and said:
        failures.append(("stderr-on-success", said[0][:300]))
    if code == 3:
        if "numerical failure" not in err:
            failures.append(("numerical-report", "exit 3 without 'numerical failure' on "
                             "stderr: %s" % err.strip()[:200]))
    if wants_json and code in (0, 3) and not {"--help", "--version"} & set(case["argv"]):
        problem, doc = json_problems(out)
        if problem:
            failures.append(tuple(problem))
        elif code == 0:
            bad = nulls(doc)
            if bad:
                failures.append(("non-finite-json", "null at " + ", ".join(bad[:5])))
            if doc.get("ok") is False:
                failures.append(("exit-status", "exit 0 but \"ok\": false"))
        else:
            if doc.get("ok") is not False and "ok" in doc:
                failures.append(("numerical-report", "exit 3 but \"ok\" is not false"))
            bad = finite_state(doc)
            if bad:
                failures.append(("non-finite-json", "last good state: " + ", ".join(bad[:4])))
    if "pair" in case and result.get("pair_exit") is not None and not result["timed_out"]:
        if result["pair_exit"] != code:
            failures.append(("order-dependent", "exit %s in this order, %s in the other: %s" % (
                code, result["pair_exit"], (err or result["pair_stderr"]).strip()[:200])))
    return failures


def first_line(text, mark):
    return next((l for l in text.splitlines() if mark in l), mark).strip()[:300]


def signal_name(code):
    if code is not None and code < 0:
        try:
            return " (" + signal.Signals(-code).name + ")"
        except ValueError:
            return ""
    return " (abort)" if code == 134 else ""


# --- running ------------------------------------------------------------------------------


def setup_case(case, work):
    for step in case["setup"]:
        path = os.path.join(work, step["path"])
        op = step["op"]
        if op in ("write", "mkdir", "fifo", "symlink"):
            parent = os.path.dirname(path) if op != "mkdir" else path
            os.makedirs(parent, exist_ok=True)
        if op == "write":
            with open(path, "wb") as f:
                f.write(base64.b64decode(step["data"]))
        elif op == "fifo":
            os.mkfifo(path)
        elif op == "chmod":
            os.chmod(path, step["mode"])
        elif op == "symlink":
            os.symlink(step["target"], path)


def unlock(work):
    """Make everything under WORK removable again (cases chmod things)."""
    for root, dirs, files in os.walk(work):
        for name in dirs:
            try:
                os.chmod(os.path.join(root, name), 0o700)
            except OSError:
                pass
    shutil.rmtree(work, ignore_errors=True)


def run_argv(vicont, argv, work, timeout, env, memory_limit):
    def limits():
        if memory_limit:
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    start = time.monotonic()
    proc = subprocess.Popen([vicont] + argv, cwd=work, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            start_new_session=True, preexec_fn=limits)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_group(proc.pid)
        out, err = proc.communicate()
    elapsed = time.monotonic() - start
    # Whatever is still in the process group (a gnuplot vicont did not wait for) is a
    # failure of its own; it is killed so that nothing outlives the case.
    leftover = ""
    if not timed_out:
        for _ in range(10):
            if not group_alive(proc.pid):
                break
            time.sleep(0.05)
        else:
            leftover = "processes left running after exit: " + group_members(proc.pid)
            kill_group(proc.pid)
    return {"exit": None if timed_out else proc.returncode, "timed_out": timed_out,
            "stdout": out.decode("utf-8", "replace"), "stderr": err.decode("utf-8", "replace"),
            "seconds": round(elapsed, 3), "leftover": leftover, "timeout": timeout}


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def group_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def group_members(pgid):
    names = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:
                with open("/proc/%s/comm" % pid) as f:
                    names.append(f.read().strip())
        except (OSError, IndexError, ValueError):
            pass
    return ", ".join(names) or "(gone)"


def run_case(case, options):
    work = tempfile.mkdtemp(prefix="vicont-fuzz-", dir=options.work_dir)
    try:
        try:
            setup_case(case, work)
        except OSError as e:
            return {"setup_error": "setup failed: %s" % e, "exit": None, "timed_out": False,
                    "stdout": "", "stderr": "", "seconds": 0, "leftover": ""}
        result = run_argv(options.vicont, case["argv"], work, options.timeout, options.env,
                          options.memory_limit)
        if "pair" in case:
            other = tempfile.mkdtemp(prefix="vicont-fuzz-", dir=options.work_dir)
            try:
                setup_case(case, other)
                second = run_argv(options.vicont, case["pair"], other, options.timeout,
                                  options.env, options.memory_limit)
            finally:
                unlock(other)
            result["pair_exit"] = second["exit"]
            result["pair_stderr"] = second["stderr"]
            result["timed_out"] = result["timed_out"] or second["timed_out"]
        return result
    finally:
        unlock(work)


# --- known failures -----------------------------------------------------------------------


def read_known(path):
    """Entries of known_failures.txt: (pattern, kinds or None for any, note, line)."""
    entries = []
    if not path or not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text, _, note = line.partition("#")
            fields = text.split()
            if not fields:
                continue
            kinds = None if len(fields) < 2 or fields[1] == "*" else set(fields[1].split(","))
            entries.append((fields[0], kinds, note.strip(), number))
    return entries


def known_entry(case_id, kinds, entries):
    for entry in entries:
        pattern, entry_kinds = entry[0], entry[1]
        if fnmatch.fnmatchcase(case_id, pattern) and (entry_kinds is None or
                                                      set(kinds) <= entry_kinds):
            return entry
    return None


# --- main ---------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("vicont")
    parser.add_argument("--corpus", help="JSON-lines corpus (default: generate it now)")
    parser.add_argument("--sample", type=int, default=0,
                        help="run about N cases: those whose id hashes into 1 in len/N")
    parser.add_argument("--only", action="append", default=[],
                        help="run the cases whose id matches this glob (repeatable)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per case")
    parser.add_argument("--memory-limit", type=int, default=4096,
                        help="address-space limit per case in MB, 0 for none (a sanitizer "
                             "build needs none: ASan reserves terabytes)")
    parser.add_argument("--known", default=os.path.join(HERE, "known_failures.txt"))
    parser.add_argument("--report", help="directory for report.json and report.txt")
    parser.add_argument("--work-dir", help="where the cases' temporary directories go")
    parser.add_argument("--strict", action="store_true",
                        help="also fail when a known failure now passes")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every case")
    options = parser.parse_args()
    options.vicont = os.path.abspath(options.vicont)

    if options.corpus:
        with open(options.corpus) as f:
            cases = [json.loads(line) for line in f if line.strip()]
    else:
        cases = generate.generate(options.vicont)
    total = len(cases)
    if options.only:
        cases = [c for c in cases if any(fnmatch.fnmatchcase(c["id"], g) for g in options.only)]
    if options.sample:
        every = max(1, round(total / options.sample))
        cases = [c for c in cases if generate.in_sample(c["id"], every)]

    env = dict(os.environ)
    # Sanitizer runtimes: report and stop at the first error; a leak is an error; an
    # allocation above 4 GB is reported rather than tried (1e9 doubles would take the
    # machine).
    asan = env.get("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
    if "max_allocation_size_mb" not in asan:
        asan += ":max_allocation_size_mb=4096"
    env["ASAN_OPTIONS"] = asan
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    env["LC_ALL"] = "C"
    options.env = env
    options.memory_limit = options.memory_limit * 1024 * 1024
    is_root = os.geteuid() == 0
    entries = read_known(options.known)

    print("fuzz: %d of %d cases, %d at a time, %g s each at most, %s" % (
        len(cases), total, options.jobs, options.timeout, options.vicont), flush=True)
    started = time.monotonic()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        futures = {pool.submit(run_case, case, options): case for case in cases}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            case = futures[future]
            result = future.result()
            result["failures"] = check(case, result, is_root)
            results[case["id"]] = result
            if options.verbose or result["failures"]:
                status = "ok" if not result["failures"] else ",".join(
                    sorted({k for k, _ in result["failures"]}))
                if options.verbose or not known_entry(case["id"], [k for k, _ in
                                                                  result["failures"]], entries):
                    print("[%d/%d] %s %s (exit %s, %.1f s)" % (
                        done, len(cases), status, case["id"], result["exit"], result["seconds"]),
                        flush=True)
            elif done % 500 == 0:
                print("[%d/%d] ..." % (done, len(cases)), flush=True)

    # Sort the outcomes: failures, known failures, known failures that now pass.
    failed, known, by_kind = [], [], defaultdict(list)
    matched = defaultdict(list)  # entry line -> [(id, failed?)]
    for case in cases:
        result = results[case["id"]]
        kinds = [k for k, _ in result["failures"]]
        entry = None
        for e in entries:
            if fnmatch.fnmatchcase(case["id"], e[0]):
                entry = e
                break
        if entry:
            matched[entry[3]].append((case["id"], bool(kinds)))
        if not kinds:
            continue
        if entry and (entry[1] is None or set(kinds) <= entry[1]):
            known.append((case, result, entry))
        else:
            failed.append((case, result))
            for kind in sorted(set(kinds)):
                by_kind[kind].append((case, result))
    now_passing = [(e, [i for i, f in matched[e[3]] if not f]) for e in entries
                   if matched[e[3]] and not any(f for _, f in matched[e[3]])]

    lines = ["fuzz: %d cases in %.0f s: %d passed, %d failed, %d known failures" % (
        len(cases), time.monotonic() - started, len(cases) - len(failed) - len(known),
        len(failed), len(known))]
    for kind in sorted(by_kind):
        lines.append("")
        lines.append("%s: %d cases" % (kind, len(by_kind[kind])))
        for case, result in sorted(by_kind[kind], key=lambda cr: cr[0]["id"])[:40]:
            detail = next(d for k, d in result["failures"] if k == kind)
            lines.append("  %s\n      %s\n      vicont %s" % (case["id"], detail,
                                                             shell_line(case["argv"])))
        if len(by_kind[kind]) > 40:
            lines.append("  ... and %d more (report.json)" % (len(by_kind[kind]) - 40))
    if known:
        lines.append("")
        lines.append("known failures (known_failures.txt), %d cases:" % len(known))
        for case, result, entry in known:
            lines.append("  known: %s [%s] (%s)" % (
                case["id"], ",".join(sorted({k for k, _ in result["failures"]})), entry[2]))
    for entry, ids in now_passing:
        lines.append("known failure now passes: remove it: line %d '%s' (%s)" % (
            entry[3], entry[0], entry[2]))
    text = "\n".join(lines)
    print(text)

    if options.report:
        os.makedirs(options.report, exist_ok=True)
        with open(os.path.join(options.report, "report.txt"), "w") as f:
            f.write(text + "\n")
        with open(os.path.join(options.report, "report.json"), "w") as f:
            json.dump({"vicont": options.vicont, "cases": len(cases), "corpus": total,
                       "failed": len(failed), "known": len(known),
                       "results": [dict(id=c["id"], argv=c["argv"], expect=c["expect"],
                                        exit=results[c["id"]]["exit"],
                                        seconds=results[c["id"]]["seconds"],
                                        failures=results[c["id"]]["failures"],
                                        stderr=results[c["id"]]["stderr"][:2000])
                                   for c in cases]}, f, indent=1)
    if failed or (options.strict and now_passing):
        return 1
    return 0


def shell_line(argv):
    """ARGV as a shell command line (for reproducing a case by hand)."""
    import shlex
    shown = []
    for a in argv:
        if len(a) > 80:
            shown.append("\"$(printf '%s%%.0s' $(seq %d))\"" % (a[0], len(a))
                         if len(set(a)) == 1 else shlex.quote(a[:60]) + "...")
        else:
            shown.append(shlex.quote(a.encode("utf-8", "surrogateescape").decode("utf-8",
                                                                                 "replace")))
    if len(shown) > 60:
        shown = shown[:60] + ["... (%d arguments)" % len(argv)]
    return " ".join(shown)


if __name__ == "__main__":
    sys.exit(main())
