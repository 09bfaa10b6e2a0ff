#!/usr/bin/env python3
"""Fuzz corpus of vicont invocations (doc/testing.md, "Fuzz corpus").

The corpus is derived from the program itself, so that it follows the command line as
it changes: the subcommands and their options come from `vicont --help` and
`vicont SUBCOMMAND --help`, the systems and their parameters (values, rules, choices) from
`vicont systems --json`. Hand-written families then perturb every option and every
catalogue parameter (boundary values, NaN/inf, subnormals, hex floats, huge and tiny
numbers, garbage text and bytes), feed config files that are garbage, binary, huge,
special files (/dev/null, /dev/zero, a directory, a FIFO) or missing, and point --out at
paths that cannot be created.

Each case is one JSON object:

  id       stable name, family/command/system/item=value (known_failures.txt uses it)
  family   which family made it
  argv     the arguments after the program name; relative paths are inside the case's
           own temporary directory, where the case runs
  expect   the exit statuses that are acceptable (a subset of 0, 1, 2, 3)
  names    words of which at least one must appear in stderr on exit 1 or 2: the item
           the case perturbed (option, parameter, file)
  setup    files to make in the temporary directory first: {"op": "write"|"fifo"|
           "mkdir"|"chmod"|"symlink", "path": ..., ...}
  pair     (family "order" only) a second argv that must end with the same exit status
  root_expect  replaces expect when the runner is root (who reads and writes anything)

Everything is deterministic: the same program gives the same corpus (random choices
come from random.Random seeded with the case's own name).

Usage: generate.py VICONT [-o corpus.jsonl]   (prints the corpus size by family)
"""

import argparse
import base64
import hashlib
import json
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter

SEED = "libcont-fuzz-1"
# One case in FIGURES_EVERY (chosen by its id) draws its figures through gnuplot (--format
# png, which the commands other than the main job need since their default is none); the
# others run with --format none, which writes the figures' scripts alone (said for the
# main job, whose default is png, and for the others too, so that no case depends on a
# command's default).
FIGURES_EVERY = 3

# --- discovery --------------------------------------------------------------------------


def run_help(vicont, args):
    out = subprocess.run([vicont] + args, capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise RuntimeError("%s %s failed: %s" % (vicont, " ".join(args), out.stderr))
    return out.stdout


def parse_help(text):
    """Options and subcommands of a CLI11 help text.

    Returns ({option: metavar or "" for a flag}, [subcommand names])."""
    options, subcommands, section = {}, [], None
    for line in text.splitlines():
        if line.startswith("Options:"):
            section = "options"
        elif line.startswith("Subcommands:"):
            section = "subcommands"
        elif section == "options":
            m = re.match(r"\s+(?:-\w,)?(--[\w-]+)(?:\s([A-Z_:]+(?:=\S*)?(?: \.\.\.)?))?(?:\s|$)",
                         line)
            if m and m.group(1) not in ("--help", "--version"):
                options[m.group(1)] = (m.group(2) or "").split("=")[0].strip()
        elif section == "subcommands":
            m = re.match(r"\s+([a-z][\w-]*)\s", line)
            if m:
                subcommands.append(m.group(1))
    return options, subcommands


def discover(vicont):
    """The program's commands ("" is the main job), their options and the catalogue."""
    main_options, subcommands = parse_help(run_help(vicont, ["--help"]))
    commands = {"": main_options}
    for sub in subcommands:
        commands[sub] = parse_help(run_help(vicont, [sub, "--help"]))[0]
    catalogue = json.loads(run_help(vicont, ["systems", "--json"]))["systems"]
    return commands, catalogue


# The saved run that commands starting from one (curve: --restart RUN_DIR:LABEL, and no
# --param of their own) find as RUN_DIR "run" in their cases: made by the program itself
# (about a second), with GR1 (a grazing of the orbit without impacts), PD1, LP1 and GR2 (an
# impact's grazing) on the branch of doc/cli.md.
SAVED_RUN = ["continue", "--set", "d=-0.005", "--param", "omega", "--from", "0.5", "--to", "2.5"]
RESTART_COMMANDS = {"curve"}


def saved_run(vicont):
    """{file name: bytes} of the saved run: continue.json reduced to what a restart reads
    (so that the corpus does not depend on where it was made), special_points.csv and
    branch.csv."""
    with tempfile.TemporaryDirectory() as directory:
        out = subprocess.run([vicont] + SAVED_RUN + ["--out", directory, "--json"],
                             capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise RuntimeError("%s %s failed: %s" % (vicont, " ".join(SAVED_RUN), out.stderr))
        with open(directory + "/continue.json") as f:
            saved = json.load(f)
        files = {"continue.json": json.dumps({k: saved[k] for k in
                                              ("system", "parameters", "parameter", "from",
                                               "to")}).encode()}
        for name in ("special_points.csv", "branch.csv"):
            with open(directory + "/" + name, "rb") as f:
                files[name] = f.read()
        return files


# --- values -------------------------------------------------------------------------------

LONG_NUMBER = "1" * 5000
LONG_TEXT = "x" * 5000

# (label, text) pairs. Labels make the case ids; they are short and path-safe.
NOT_A_NUMBER = [
    ("nan", "nan"), ("-nan", "-nan"), ("NaN", "NaN"), ("inf", "inf"), ("-inf", "-inf"),
    ("infinity", "infinity"), ("1e400", "1e400"), ("-1e400", "-1e400"),
    ("empty", ""), ("space", " "), ("abc", "abc"), ("5x", "5x"), ("1,5", "1,5"),
    ("1e", "1e"), ("0x", "0x"), ("dash", "-"), ("dashdash", "--"), ("long-digits", LONG_NUMBER),
    ("unicode-digit", "\u0663"), ("fullwidth-1", "\uff11"), ("nbsp-1", "\u00a01"),
    ("ctrl", "\x01\x02"), ("bytes-ff", "\udcff\udcfe"), ("newline", "1\n2"),
]
# Numbers that parse; whether they are valid depends on the item's rule.
NUMBERS = [
    ("0", "0"), ("-0", "-0"), ("-1", "-1"), ("1", "1"), ("0x1p-3", "0x1p-3"),
    ("0x1.8p1", "0x1.8p1"), ("-0x1p-3", "-0x1p-3"), ("4.9e-324", "4.9e-324"),
    ("-4.9e-324", "-4.9e-324"), ("2.2e-308", "2.2250738585072014e-308"), ("1e-308", "1e-308"),
    ("1e-300", "1e-300"), ("1e-9", "1e-9"), ("1e9", "1e9"), ("1e300", "1e300"),
    ("1e308", "1e308"), ("dblmax", "1.7976931348623157e308"), ("-1e308", "-1e308"),
    ("space-padded", " 2 "), ("plus", "+2"),
]
COUNTS = [
    ("0", "0"), ("1", "1"), ("2", "2"), ("-1", "-1"), ("-0", "-0"), ("2.5", "2.5"), ("1e3", "1e3"),
    ("1e9", "1e9"), ("1e9+1", "1000000001"), ("2^31", "2147483648"), ("2^32+1", "4294967297"),
    ("2^63", "9223372036854775808"), ("1e19", "1e19"), ("1e300", "1e300"),
    ("0x10", "0x10"), ("1e-300", "1e-300"), ("4.9e-324", "4.9e-324"),
]
WORDS = [
    ("empty", ""), ("nosuch", "nosuch"), ("long", LONG_TEXT), ("unicode", "\u00e9ta\u2603"),
    ("bytes-ff", "\udcff\udcfe"), ("space", " "), ("dash", "-"), ("ctrl", "\x01"),
    ("number", "1"), ("quote", "'\""),
]


def rule_values(rule, default):
    """(label, text, valid) for a numeric parameter with the catalogue's rule."""
    values = []
    for label, text in NUMBERS:
        x = float.fromhex(text.strip()) if "0x" in text else float(text)
        if rule == "> 0":
            valid = x > 0
        elif rule == ">= 0":
            valid = x >= 0
        elif rule.startswith("in ["):
            low, high = (float(v) for v in rule[4:-1].split(","))
            valid = low <= x <= high
        else:
            valid = True  # "any number" and rules this generator does not know
        values.append((label, text, valid))
    if rule.startswith("in ["):
        low, high = (float(v) for v in rule[4:-1].split(","))
        below = "-1e-17" if low == 0 else repr(low - abs(low) * 1e-15)
        above = "1.0000000000000002" if high == 1 else repr(high + abs(high) * 1e-15)
        values += [("below-low", below, False), ("above-high", above, False),
                   ("mid", repr((low + high) / 2), True), ("high", repr(high), True)]
    elif isinstance(default, (int, float)) and default != 0:
        values += [("half", repr(default / 2), True), ("twice", repr(default * 2), True)]
    return values


# --- cheap runs ---------------------------------------------------------------------------

# Options that keep a run of each command short; an option the command does not have (the
# CLI changed) is left out. A case that perturbs one of them replaces it.
CHEAP = {
    "": [("--t-end", "1"), ("--transient", "5"), ("--periods", "5"), ("--max-period", "4")],
    "simulate": [("--t-end", None)],  # per system, below
    "lyapunov": [("--transient", "5"), ("--periods", "5"), ("--max-period", "4")],
    "orbit": [("--transient", "10"), ("--max-period", "4")],
    "continue": [("--transient", "10"), ("--max-points", "5"), ("--max-period", "4")],
    "sweep": [("--steps", "3"), ("--transient", "5"), ("--periods", "5"), ("--samples", "5"),
              ("--max-period", "4")],
    "diagram": [("--steps", "3"), ("--transient", "5"), ("--periods", "5"), ("--samples", "5"),
                ("--max-period", "4")],
    "basins": [("--transient", "5"), ("--max-period", "4")],
    "impact": [("--samples", "20")],
    # PD1 of the saved run (SAVED_RUN): its period-doubling curve a little way in d.
    "curve": [("--restart", "run:PD1"), ("--param2", "d"), ("--from", "-0.005"),
              ("--to", "-0.0049"), ("--max-points", "5")],
    # One seed line with one search; the second parameter per system, below.
    "map": [("--lines", "1"), ("--seeds", "1"), ("--transient", "5"), ("--max-period", "2"),
            ("--max-points", "5")],
}
# Commands whose runs need a second parameter of their own (--param2, --from2, --to2).
NEEDS_SECOND = {"map"}
# Parameters set first for a cheap or valid run (a later --set of the same name wins).
SYSTEM_BASE = {"chain": ["N=3"], "cantilever-2dof": ["e=0.1"]}
# Preferred continued / swept parameters.
PREFERRED_PARAMS = ["omega", "lambda", "F0", "v0", "H0"]
# Commands whose runs need a forcing period (autonomous systems are bad input there).
NEEDS_PERIOD = {"orbit", "continue", "basins", "diagram", "map"}


class Corpus:
    def __init__(self, commands, catalogue, saved=None):
        self.commands = commands
        self.systems = {s["name"]: s for s in catalogue}
        self.cases = []
        self.ids = set()
        # The saved run "run" of the RESTART_COMMANDS' cases (saved_run), written first
        # into each unless the case makes its own "run".
        self.saved = saved or {}
        self.saved_setup = [write("run/" + name, data) for name, data in self.saved.items()
                            if name != "branch.csv"]

    # -- helpers --

    def rng(self, *key):
        return random.Random(SEED + "/" + "/".join(key))

    def has(self, command, option):
        return option in self.commands.get(command, {})

    def numeric_params(self, system):
        return [p for p in self.systems[system]["parameters"] if "choices" not in p]

    def sweep_param(self, system, other_than=None):
        numeric = {p["name"]: p for p in self.numeric_params(system)}
        for name in PREFERRED_PARAMS + list(numeric):
            p = numeric.get(name)
            if name != other_than and p and isinstance(p["value"], (int, float)) and p["value"] > 0:
                return name, p["value"]
        return None, None

    def systems_for(self, command):
        if command == "impact":
            return [s for s in self.systems if s == "hertz-friction"] or list(self.systems)[:1]
        if command == "" or command in RESTART_COMMANDS:
            return ["moving-base"]  # the main job's; the saved run's
        if command in NEEDS_PERIOD:
            return [s for s, d in self.systems.items() if d["forcing_period"] > 0]
        return list(self.systems)

    def base(self, command, system, drop=()):
        """A cheap, valid invocation of COMMAND on SYSTEM, without the options in DROP."""
        argv = [command] if command else []
        opts = self.commands[command]
        if "--system" in opts and command != "" and "--system" not in drop:
            argv += ["--system", system]
        if "--set" in opts and SYSTEM_BASE.get(system) and "--set" not in drop:
            argv += ["--set"] + SYSTEM_BASE[system]
        for option, value in CHEAP.get(command, []):
            if option in drop or option not in opts:
                continue
            if value is None:  # simulate --t-end: two forcing periods, or 0.5
                period = self.systems[system]["forcing_period"]
                value = repr(round(2 * period, 6)) if period > 0 else "0.5"
            argv += [option, value]
        if "--param" in opts:
            name, value = self.sweep_param(system)
            if name:
                for option, v in (("--param", name), ("--from", repr(value)),
                                  ("--to", repr(value * 1.02))):
                    if option not in drop:
                        argv += [option, v]
            if command in NEEDS_SECOND and name:
                second, value2 = self.sweep_param(system, other_than=name)
                if second:
                    for option, v in (("--param2", second), ("--from2", repr(value2)),
                                      ("--to2", repr(value2 * 1.02))):
                        if option not in drop:
                            argv += [option, v]
        if "--x" in opts and "--x" not in drop:
            state = self.systems[system]["state"]
            # Above the moving base (at x = d = 0 at t = 0): a grid reaching into an
            # obstacle is refused, whatever else the case tries.
            argv += ["--x", state[0] + ":0.0005:0.0205:3"]
            if "--y" not in drop:
                argv += ["--y", state[len(state) // 2] + ":-0.03:0.03:3"]
        if "--out" in opts and "--out" not in drop:
            argv += ["--out", "out"]
        if "--json" in opts and "--json" not in drop:
            argv += ["--json"]
        return argv

    def add(self, family, parts, argv, expect, names=(), setup=(), pair=None, root_expect=None):
        case_id = "/".join([family] + [p if p else "main" for p in parts])
        n = 2
        while case_id in self.ids:  # never expected, but ids must be unique
            case_id = "%s#%d" % (case_id.split("#")[0], n)
            n += 1
        self.ids.add(case_id)
        if argv[:1] and argv[0] in RESTART_COMMANDS and not any(
                op["path"] == "run" or op["path"].startswith("run/") for op in setup):
            setup = self.saved_setup + list(setup)
        argv = self.with_figure_format(case_id, argv)
        if pair is not None:
            pair = self.with_figure_format(case_id, pair)
        case = {"id": case_id, "family": family, "argv": argv, "expect": sorted(expect),
                "names": list(names), "setup": list(setup)}
        if pair is not None:
            case["pair"] = pair
        if root_expect is not None:
            case["root_expect"] = sorted(root_expect)
        self.cases.append(case)

    def with_figure_format(self, case_id, argv):
        """ARGV with --format right after its command: png for the 1-in-FIGURES_EVERY share
        of the cases that draw their figures, none for the others (gnuplot is most of a
        short run's CPU time, and the figures' scripts are still written). Cases that set
        --format or read a config file are left as they are."""
        command = argv[0] if argv and not argv[0].startswith("-") else ""
        if command not in self.commands or "--format" not in self.commands[command]:
            return argv
        if any(a == "--config" or "format" in a for a in argv):
            return argv
        at = 1 if command else 0
        formats = "png" if in_sample("figures:" + case_id, FIGURES_EVERY) else "none"
        return argv[:at] + ["--format", formats] + argv[at:]

    # -- families --

    def parameters(self):
        """Every catalogue parameter of every system: the values its rule admits on
        simulate (which runs them), the values it rejects and text that is no number on
        systems (which only checks them), one admitted value on each other command."""
        for system, desc in self.systems.items():
            for p in desc["parameters"]:
                name = p["name"]
                rng = self.rng("param", system, name)
                if "choices" in p:
                    valid = [(c, c) for c in p["choices"]]
                    invalid = [("upper", c.upper()) for c in p["choices"][:1] if c.upper() != c]
                    invalid += rng.sample(WORDS, 4)
                else:
                    values = rule_values(p["rule"], p["value"])
                    if p["rule"] in ("> 0", ">= 0") and isinstance(p["value"], (int, float)) \
                            and float(p["value"]).is_integer():
                        values += [("2.5", "2.5", True), ("3", "3", True)]  # counts, seeds
                    valid = [(label, text) for label, text, ok in values if ok]
                    invalid = [(label, text) for label, text, ok in values if not ok]
                    invalid += rng.sample(NOT_A_NUMBER, 5)
                    # Two of the rejected values on simulate too: the same check on its path.
                    valid_run = valid + rng.sample(invalid, 2)
                for command, values in (("simulate", valid if "choices" in p else valid_run),
                                        ("systems", invalid)):
                    if "--set" not in self.commands.get(command, {}):
                        continue
                    for label, text in values:
                        expect = {0, 2, 3} if (label, text) in valid else {2}
                        argv = self.base(command, system) + ["--set", name + "=" + text]
                        self.add("param", [command, system, name + "=" + label], argv, expect,
                                 names=[name])
                for command in self.commands:
                    if command in ("simulate", "systems") or "--set" not in self.commands[command]:
                        continue
                    if system not in self.systems_for(command):
                        continue
                    label, text = self.rng("param", command, system, name).choice(valid)
                    argv = self.base(command, system) + ["--set", name + "=" + text]
                    self.add("param", [command, system, name + "=" + label], argv, {0, 2, 3},
                             names=[name])

    def options(self):
        """Every option of every command with values of its kind, a missing value, a
        repetition and the --opt=value form."""
        for command, opts in self.commands.items():
            system = self.systems_for(command)[0]
            for option, metavar in opts.items():
                bare = option.lstrip("-")
                names = [option, bare, bare.replace("-", "_"), bare.replace("-", " ").rstrip("s")]
                if "--param" in opts and option != "--param":
                    names.append(self.sweep_param(system)[0])  # "parameter 'omega' must ..."
                base = self.base(command, system, drop=(option,))
                if metavar == "":  # a flag
                    for label, text, expect in (("true", "true", {0, 2, 3}),
                                                ("false", "false", {0, 2, 3}),
                                                ("1", "1", {0, 2, 3}), ("maybe", "maybe", {2}),
                                                ("empty", "", {0, 2, 3})):
                        self.add("option", [command, bare + "=" + label],
                                 base + [option + "=" + text], expect, names)
                    self.add("option", [command, bare + "-twice"], base + [option, option],
                             {0, 2, 3}, names)
                    continue
                # Text that is no number: five of its kinds per option, by seed.
                garbage = [(l, t, {2}) for l, t in
                           self.rng("option", command, option).sample(NOT_A_NUMBER, 5)]
                if metavar == "N":
                    values = [(l, t, {0, 2, 3}) for l, t in COUNTS] + garbage
                elif metavar == "NUMBER":
                    values = [(l, t, {0, 2, 3}) for l, t in NUMBERS] + garbage
                elif metavar in ("FILE", "DIR", "RUN_DIR:LABEL", "NAME=VALUE"):
                    values = []  # families of their own below
                else:  # a name: system, parameter, direction, axis ...
                    values = [(l, t, {2}) for l, t in WORDS]
                    values += [(l, t, {2}) for l, t in NOT_A_NUMBER[:3]]
                for label, text, expect in values:
                    self.add("option", [command, bare + "=" + label], base + [option, text],
                             expect, names)
                # Missing value (last on the line), the = form, twice.
                if metavar:
                    self.add("option", [command, bare + "-missing-value"], base + [option], {2},
                             names)
                    self.add("option", [command, bare + "-equals-empty"], base + [option + "="],
                             {2}, names)
                    if metavar != "NAME=VALUE":
                        self.add("option", [command, bare + "-twice"],
                                 base + [option, "1", option, "1"], {2}, names)

    def parameter_ranges(self):
        """--param, --from, --to of continue, sweep, diagram over every numeric parameter."""
        for command, opts in self.commands.items():
            if "--param" not in opts:
                continue
            for system in self.systems_for(command):
                for p in self.numeric_params(system):
                    name, value = p["name"], p["value"]
                    value = value if isinstance(value, (int, float)) else 1.0
                    ranges = [("default", repr(value), repr(value * 1.02 + 0.01))]
                    rng = self.rng("range", command, system, name)
                    ranges += rng.sample(
                        [("from-1e-308", "1e-308", repr(value * 1.02 + 0.01)),
                         ("from-4.9e-324", "4.9e-324", "0.01"),
                         ("from-0", "0", "0.01"), ("to-1e308", repr(value), "1e308"),
                         ("from-eq-to", repr(value), repr(value)),
                         ("from-neg", "-1", repr(value)), ("hex", "0x1p-3", "0x1p-2")], 1)
                    for label, a, b in ranges:
                        argv = self.base(command, system, drop=("--param", "--from", "--to"))
                        argv += ["--param", name, "--from", a, "--to", b]
                        self.add("range", [command, system, name, label], argv, {0, 2, 3},
                                 names=[name, "--param", "--from", "--to", "param", "from", "to"])
                for choice in [p["name"] for p in self.systems[system]["parameters"]
                               if "choices" in p][:1] + ["nosuch"]:
                    argv = self.base(command, system, drop=("--param",)) + ["--param", choice]
                    self.add("range", [command, system, "param=" + choice], argv, {2},
                             names=[choice, "--param"])
            # from/to values of every kind on the first system.
            system = self.systems_for(command)[0]
            for option in ("--from", "--to"):
                for label, text in NOT_A_NUMBER[:8]:
                    argv = self.base(command, system, drop=(option,)) + [option, text]
                    self.add("range", [command, system, option.lstrip("-") + "=" + label], argv,
                             {2}, names=[option, option.lstrip("-"), self.sweep_param(system)[0]])

    def config_files(self):
        """--config with garbage, binary, huge, special and missing files, and good files
        with one bad line."""
        binary = bytes(random.Random(SEED + "binary").getrandbits(8) for _ in range(4096))
        files = [
            # (label, setup, path, expect)
            ("garbage", [write("cfg", b"this is not a config file\n%%%\n")], "cfg", {2}),
            ("binary", [write("cfg", binary)], "cfg", {2}),
            ("nul-bytes", [write("cfg", b"system = moving-base\x00\n[parameters]\n")], "cfg",
             {0, 2}),
            ("huge-line", [write("cfg", b"# " + b"x" * 2_000_000 + b"\n")], "cfg", {0, 2}),
            ("huge-value", [write("cfg", b"[parameters]\nm = " + b"1" * 100_000 + b"\n")], "cfg",
             {2}),
            ("many-lines", [write("cfg", b"# comment\n" * 200_000)], "cfg", {0, 2}),
            ("empty", [write("cfg", b"")], "cfg", {0, 2, 3}),
            ("bom", [write("cfg", b"\xef\xbb\xbfsystem = moving-base\n")], "cfg", {0, 2, 3}),
            ("crlf", [write("cfg", b"[parameters]\r\nm = 1\r\n")], "cfg", {0, 2, 3}),
            ("no-equals", [write("cfg", b"[parameters]\nm 1\n")], "cfg", {2}),
            ("no-key", [write("cfg", b"= 4\n")], "cfg", {2}),
            ("no-value", [write("cfg", b"[parameters]\nm =\n")], "cfg", {2}),
            ("twice", [write("cfg", b"[parameters]\nm = 1\nm = 2\n")], "cfg", {2}),
            ("bad-section", [write("cfg", b"[params]\n")], "cfg", {2}),
            ("unclosed-section", [write("cfg", b"[parameters\n")], "cfg", {2}),
            ("unknown-key", [write("cfg", b"nosuch = 1\n")], "cfg", {2}),
            ("unknown-param", [write("cfg", b"[parameters]\nnosuch = 1\n")], "cfg", {2}),
            ("param-nan", [write("cfg", b"[parameters]\nm = nan\n")], "cfg", {2}),
            ("param-subnormal", [write("cfg", b"[parameters]\nm = 4.9e-324\n")], "cfg",
             {0, 2, 3}),
            ("unknown-system", [write("cfg", b"system = nosuch\n")], "cfg", {2}),
            ("unicode-key", [write("cfg", "\u00e9ta = 4\n".encode())], "cfg", {2}),
            ("dev-null", [], "/dev/null", {0, 2, 3}),
            ("dev-zero", [], "/dev/zero", {2}),
            ("directory", [mkdir("cfgdir")], "cfgdir", {2}),
            ("fifo", [{"op": "fifo", "path": "cfg"}], "cfg", {2}),
            ("missing", [], "nosuch.cfg", {2}),
            ("missing-dir", [], "nosuch/dir/x.cfg", {2}),
            ("unreadable", [write("cfg", b"[parameters]\nm = 1\n"), chmod("cfg", 0)], "cfg",
             {2}),
            ("symlink-loop", [{"op": "symlink", "path": "cfg", "target": "cfg"}], "cfg", {2}),
            ("empty-name", [], "", {2}),
        ]
        for command, opts in self.commands.items():
            if "--config" not in opts:
                continue
            system = self.systems_for(command)[0]
            base = self.base(command, system)
            for label, setup, path, expect in files:
                names = ["--config", "config", path] if path else ["--config", "config"]
                # root reads anything: then the unreadable file is a valid one
                root = {0, 2, 3} if label == "unreadable" else None
                argv = (self.base(command, system, drop=("--system",)) if label == "unknown-system"
                        else base) + ["--config", path]
                self.add("config", [command, label], argv, expect, names, setup,
                         root_expect=root)
            # Every run option as a config key, with a bad value.
            for option, metavar in opts.items():
                if option in ("--config", "--set") or metavar in ("", "FILE"):
                    continue
                key = option.lstrip("-")
                line = ("%s = nan\n" % key).encode()
                self.add("config", [command, "key-" + key + "=nan"],
                         self.base(command, system, drop=(option,)) + ["--config", "cfg"],
                         {2} if metavar in ("N", "NUMBER") else {0, 2, 3},
                         [key, option, "cfg"], [write("cfg", line)])

    def out_paths(self):
        """--out that is a file, under a file, too long, unwritable, nested and missing."""
        cases = [
            # (label, setup, path, expect)
            ("nested-missing", [], "a/b/c/out", {0, 3}),
            ("is-a-file", [write("f", b"x")], "f", {1}),
            ("under-a-file", [write("f", b"x")], "f/out", {1}),
            ("dev-null", [], "/dev/null", {1}),
            ("dev-null-under", [], "/dev/null/out", {1}),
            ("proc", [], "/proc/vicont-fuzz-out", {1}),
            ("component-too-long", [], "o" * 300, {1}),
            ("path-too-long", [], "/".join(["d" * 200] * 25), {1}),
            ("unwritable", [mkdir("ro"), chmod("ro", 0o555)], "ro/out", {1}),
            ("unicode", [], "\u00e9t\u00e9-\u2603", {0, 3}),
            ("newline", [], "a\nb", {0, 3}),
            ("bytes", [], "\udcff\udcfe", {0, 3}),
            ("dot", [], ".", {0, 3}),
            ("empty", [], "", {1, 2}),
            ("dangling-symlink", [{"op": "symlink", "path": "ln", "target": "nowhere/x"}], "ln",
             {0, 1, 3}),
        ]
        for command, opts in self.commands.items():
            if "--out" not in opts:
                continue
            system = self.systems_for(command)[0]
            base = self.base(command, system, drop=("--out",))
            for label, setup, path, expect in cases:
                names = ["--out", [part for part in path.split("/") if part][-1][:100]
                         if path.strip("/") else "out"]
                if label == "empty":
                    names.append("output directory")
                    if command == "":  # the main job writes OUT/omega-4: omega-4 here
                        expect = expect | {0}
                root = {0, 1, 3} if label == "unwritable" else None  # root writes anywhere
                self.add("out", [command, label], base + ["--out", path], expect, names, setup,
                         root_expect=root)

    def arguments(self):
        """The command line's structure: unknown options and words, --set forms, many
        arguments."""
        for command, opts in self.commands.items():
            system = self.systems_for(command)[0]
            base = self.base(command, system)
            cases = [
                ("unknown-option", ["--nosuch"], {2}, ["--nosuch"]),
                ("unknown-option-value", ["--nosuch=1"], {2}, ["--nosuch"]),
                ("positional", ["stray"], {2}, ["stray"]),
                ("double-dash", ["--", "x"], {2}, ["--", "x"]),
                ("single-dash", ["-"], {2}, ["-"]),
                ("short-unknown", ["-q"], {2}, ["-q"]),
                ("bytes-word", ["\udcff"], {2}, ["\ufffd", "\\", "\udcff", "argument"]),
                ("help-late", ["--help"], {0}, []),
                ("version-late", ["--version"], {0, 2}, ["--version"]),
            ]
            if "--set" in opts:
                p = self.numeric_params(system)[0]["name"]
                cases += [
                    ("set-no-equals", ["--set", p], {2}, [p]),
                    ("set-empty-name", ["--set", "=1"], {2}, ["=1", "NAME"]),
                    ("set-double-equals", ["--set", p + "==1"], {2}, [p]),
                    ("set-empty", ["--set", ""], {2}, ["--set", "NAME"]),
                    ("set-unknown", ["--set", "nosuch=1"], {2}, ["nosuch"]),
                    ("set-1000", ["--set"] + ["%s=%s" % (p, self.numeric_params(system)[0]["value"])
                                              ] * 1000, {0, 2, 3}, [p]),
                    ("set-long-name", ["--set", "n" * 5000 + "=1"], {2}, ["n" * 50]),
                    ("set-unicode-name", ["--set", "\u03b7=4"], {2}, ["\u03b7"]),
                ]
            for label, extra, expect, names in cases:
                self.add("argv", [command, label], base + extra, expect, names)
            self.add("argv", [command, "many-args"], base + ["--nosuch"] * 20000, {2},
                     ["--nosuch"])
        self.add("argv", ["", "unknown-command"], ["nosuch"], {2}, ["nosuch"])
        self.add("argv", ["", "empty-command"], [""], {2}, ["argument", "''", "\"\""])
        for sub in [c for c in self.commands if c]:
            self.add("argv", [sub, "main-option-before"], ["--out", "out", sub], {2},
                     ["--out", "main job", sub])

    def choice_combinations(self):
        """Each non-default choice of a system with the extreme values of its numbers
        (drop with model=soft and H0=0 ...)."""
        for system, desc in self.systems.items():
            numeric = self.numeric_params(system)
            for p in [p for p in desc["parameters"] if "choices" in p]:
                for choice in p["choices"]:
                    if choice == p["value"]:
                        continue
                    for q in numeric:
                        for label, text, valid in rule_values(q["rule"], q["value"]):
                            if label not in ("0", "4.9e-324"):
                                continue
                            argv = self.base("simulate", system) + [
                                "--set", "%s=%s" % (p["name"], choice), "%s=%s" % (q["name"], text)]
                            self.add("combo", ["simulate", system, "%s=%s" % (p["name"], choice),
                                               q["name"] + "=" + label], argv,
                                     {0, 2, 3} if valid else {2}, [q["name"], p["name"]])

    def set_order(self):
        """Two parameters set in both orders must give the same exit status."""
        for system in self.systems:
            numeric = [p["name"] for p in self.numeric_params(system)]
            pairs = [(a, b) for a in numeric for b in numeric
                     if a < b and (a.rstrip("0123456789") == b.rstrip("0123456789") or
                                   a[0] == b[0])]
            rng = self.rng("order", system)
            pairs = sorted(set(pairs + rng.sample([(a, b) for a in numeric for b in numeric
                                                   if a < b], min(6, len(numeric)))))
            for a, b in pairs:
                for va, vb in (("0.3", "0.2"), ("0.2", "0.3"), ("3", "2")):
                    first = ["--set", a + "=" + va, "--set", b + "=" + vb]
                    second = ["--set", b + "=" + vb, "--set", a + "=" + va]
                    base = self.base("systems", system)
                    self.add("order", ["systems", system, "%s=%s,%s=%s" % (a, va, b, vb)],
                             base + first, {0, 2}, [a, b], pair=base + second)

    def restart(self):
        """--restart with missing and malformed saved runs (continue, curve), and curve's
        start at each kind of point of the saved run."""
        bases = {"continue": ["continue", "--to", "4.1", "--max-points", "5", "--out", "out",
                              "--json"]}
        if "curve" in self.commands:
            bases["curve"] = self.base("curve", "moving-base", drop=("--restart",))
        runs = [
            ("missing-dir", [], "nosuch:PD1", ["nosuch"]),
            ("no-colon", [mkdir("run")], "run", ["run", "--restart"]),
            ("empty-label", [mkdir("run")], "run:", ["run", "--restart", "label"]),
            ("empty-dir", [mkdir("run")], "run:PD1", ["continue.json", "run"]),
            ("garbage-json", [write("run/continue.json", b"{not json")], "run:PD1",
             ["continue.json"]),
            ("binary-json", [write("run/continue.json", bytes(range(256)))], "run:PD1",
             ["continue.json"]),
            ("empty-object", [write("run/continue.json", b"{}")], "run:PD1", ["continue.json"]),
            ("wrong-types", [write("run/continue.json",
                                   b'{"system": 1, "parameters": [], "parameter": null}')],
             "run:PD1", ["continue.json", "system"]),
            ("no-branch-csv", [write("run/continue.json",
                                     b'{"system": "moving-base", "parameters": {}, '
                                     b'"parameter": "omega"}')], "run:0",
             ["branch.csv", "run"]),
            ("garbage-csv", [write("run/continue.json",
                                   b'{"system": "moving-base", "parameters": {}, '
                                   b'"parameter": "omega"}'),
                             write("run/branch.csv", b"a,b\n1,2,3\n\xff\xfe\n")], "run:0",
             ["branch.csv", "run"]),
            ("row-negative", [mkdir("run")], "run:-1", ["run", "-1"]),
            ("row-huge", [mkdir("run")], "run:99999999999999999999", ["run", "9999"]),
            ("dev-null", [], "/dev/null:PD1", ["/dev/null"]),
            ("fifo-json", [mkdir("run"), {"op": "fifo", "path": "run/continue.json"}], "run:PD1",
             ["continue.json"]),
            ("json-directory", [mkdir("run/continue.json")], "run:PD1", ["continue.json"]),
        ]
        for command, base in bases.items():
            if "--restart" not in self.commands.get(command, {}):
                continue
            for label, setup, value, names in runs:
                self.add("restart", [command, label], base + ["--restart", value], {2},
                         names + ["--restart", "--param"], setup)
        if "curve" not in bases or not self.saved:
            return
        # The saved run's points: those a curve starts from, and those it refuses (a row,
        # a Neimark-Sacker point, one that is not there).
        specials = self.saved["special_points.csv"]
        as_ns = specials.replace(b"PD1,period-doubling", b"NS1,neimark-sacker")
        whole = [write("run/" + name, data) for name, data in self.saved.items()]
        for label, value, expect, names, setup in [
                ("PD1", "run:PD1", {0, 3}, [], []),
                ("pd1-lower-case", "run:pd1", {0, 3}, [], []),
                ("LP1", "run:LP1", {0, 3}, [], []),
                ("GR1-no-impact", "run:GR1", {0, 3}, [], []),
                ("GR2-impact", "run:GR2", {0, 3}, [], []),
                ("row", "run:3", {2}, ["run:3", "row"], whole),
                ("missing-label", "run:LP9", {2}, ["LP9"], []),
                ("neimark-sacker", "run:NS1", {2}, ["NS1", "neimark-sacker"],
                 [write("run/continue.json", self.saved["continue.json"]),
                  write("run/special_points.csv", as_ns)])]:
            self.add("restart", ["curve", "label-" + label], bases["curve"] + ["--restart", value],
                     expect, names + ["--restart"], setup)

    def structured_values(self):
        """Values with an inner syntax: basins axes, sweep initial states."""
        for command, opts in self.commands.items():
            system = self.systems_for(command)[0]
            state = self.systems[system]["state"]
            if "--x" in opts:
                x = state[0]
                for label, text in [("no-range", x), ("two-fields", x + ":0:1"),
                                    ("steps-0", x + ":0:1:0"), ("steps-1e9", x + ":0:1:1e9"),
                                    ("steps-2.5", x + ":0:1:2.5"), ("steps-neg", x + ":0:1:-3"),
                                    ("from-eq-to", x + ":0:0:3"), ("reversed", x + ":1:0:3"),
                                    ("nan", x + ":nan:1:3"), ("inf", x + ":0:inf:3"),
                                    ("huge", x + ":-1e308:1e308:3"),
                                    ("subnormal", x + ":0:4.9e-324:3"),
                                    ("unknown-coord", "nosuch:0:1:3"), ("empty", ""),
                                    ("colons", ":::"), ("extra-field", x + ":0:1:3:4"),
                                    ("same-as-y", state[len(state) // 2] + ":0:1:3")]:
                    ok = label in ("from-eq-to", "reversed", "huge", "subnormal", "same-as-y",
                                   "steps-1")
                    self.add("axes", [command, system, "x=" + label],
                             self.base(command, system, drop=("--x",)) + ["--x", text],
                             {0, 2, 3} if ok else {2}, ["--x", "x", "STEPS"])
            if "--initial-states" in opts:
                n = len(state)
                for label, text, expect in [
                        ("empty", "", {2}), ("semicolon", ";", {2}), ("short", "0", {2}),
                        ("long", ",".join(["0"] * (n + 1)), {2}),
                        ("nan", ",".join(["nan"] + ["0"] * (n - 1)), {2}),
                        ("huge", ",".join(["1e308"] * n), {0, 2, 3}),
                        ("subnormal", ",".join(["4.9e-324"] * n), {0, 2, 3}),
                        ("trailing-semicolon", ",".join(["0"] * n) + ";", {0, 2}),
                        ("many", ";".join([",".join(["0"] * n)] * 50), {0, 2, 3}),
                        ("garbage", "a,b", {2})]:
                    self.add("states", [command, system, label],
                             self.base(command, system, drop=("--initial-states",))
                             + ["--initial-states", text], expect,
                             ["--initial-states", "initial-states", "initial state"])

    def build(self):
        self.parameters()
        self.options()
        self.parameter_ranges()
        self.config_files()
        self.out_paths()
        self.arguments()
        self.choice_combinations()
        self.set_order()
        self.restart()
        self.structured_values()
        return self.cases


def write(path, data):
    return {"op": "write", "path": path, "data": base64.b64encode(data).decode()}


def mkdir(path):
    return {"op": "mkdir", "path": path}


def chmod(path, mode):
    return {"op": "chmod", "path": path, "mode": mode}


def generate(vicont):
    commands, catalogue = discover(vicont)
    saved = saved_run(vicont) if RESTART_COMMANDS & set(commands) else None
    return Corpus(commands, catalogue, saved).build()


def in_sample(case_id, every):
    """Whether a case belongs to the 1-in-EVERY sample: decided by the case's own id, so
    that a case stays in (or out of) the sample when others are added."""
    digest = hashlib.sha256(case_id.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") % every == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("vicont")
    parser.add_argument("-o", "--output", help="write the corpus here (JSON lines)")
    args = parser.parse_args()
    cases = generate(args.vicont)
    if args.output:
        with open(args.output, "w") as f:
            for case in cases:
                f.write(json.dumps(case) + "\n")
    for family, count in sorted(Counter(c["family"] for c in cases).items()):
        print("%-8s %5d" % (family, count))
    print("%-8s %5d" % ("total", len(cases)))


if __name__ == "__main__":
    sys.exit(main())
