#!/usr/bin/python3
"""Runs the commands behind the documentation and checks what the docs quote of them.

A page opts in with markers (HTML comments, invisible on the rendered page):

  <!-- run ID: vicont ARGS -->   a run of a reference page; its stdout is kept as ID.stdout
  <!-- run ID: sh examples/SCRIPT ARGS -->
                                a script of examples/ (an argument `vicont` is the program)
  <!-- output: ID -->           before a code block: the block is the printed output of run
                                ID (in doc/tutorial.md ID may be left out: the last command
                                run before the block)
  NUMBER <!-- number: REF -->   NUMBER is the value at REF, to its printed precision
  <!-- files: PATH ... -->      the runs write these files
  ![...](figures/F.png) <!-- figure: PATH -->
                                the figure F.png is a copy of the run's PATH
  <!-- listing: FILE -->        before a code block: the block is a verbatim part of FILE
                                (a path in the source tree)

REF is FILE:PATH (in double quotes if it holds spaces), FILE a JSON file written by the
runs (or a run's ID.stdout) or a CSV file (read as a list of rows by column name), and PATH
keys and indices separated by dots: `special_points[PD1].parameter` takes the element of
`special_points` whose `label` is PD1 (`attractors[id=0]` the one whose `id` is 0);
`runs[1].lyapunov.exponents[0]` takes by index; `{kind=fold,n=1}` the list of the
elements with those values (`{...}[0]` its first); `len(points)` is a list's length; a
trailing `*FACTOR` scales the value (`amplitudes.y1*1000`: metres quoted in millimetres).

doc/tutorial.md has no run markers: its commands are the fenced ```sh blocks themselves
(lines starting with `vicont`, `\\` continuing a line), run in order in one directory, and a
```json block after <!-- file: NAME --> is written to NAME before the commands after it.
So the page and its test cannot diverge.

Each page's runs happen in a directory of their own under --workdir (a temporary one by
default), where `examples` is the source tree's. Exit status 0 when every command
succeeded and every quoted number, output block, file, figure and listing matches; 1
otherwise, with one line per mismatch. --update rewrites stale numbers and output lines in
place; --copy-figures copies the figures into doc/figures.
"""

import argparse
import csv
import decimal
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

RUN = re.compile(r"<!--\s*run\s+([\w.-]+)\s*:\s*((?:vicont|sh examples/)\S*.*?)\s*-->", re.S)
OUTPUT = re.compile(r"<!--\s*output(?::\s*([\w.-]+))?\s*-->")
# a sign only where no word, number or marker runs into it ("2.00-2.55" is a range)
NUMBER = re.compile(r"((?:(?<![\w.>])[-+])?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(\s*)"
                    r"<!--\s*number:\s*(\"[^\"]+\"|\S+?)\s*-->")
FILES = re.compile(r"<!--\s*files:\s*(.*?)\s*-->", re.S)
FIGURE = re.compile(r"!\[[^\]]*\]\(figures/([^)\s]+)\)\s*<!--\s*figure:\s*(\S+)\s*-->")
LISTING = re.compile(r"<!--\s*listing:\s*(\S+)\s*-->")
FILE_MARK = re.compile(r"<!--\s*file:\s*(\S+)\s*-->")
REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBER_TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


class Page:
    """One markdown page: its text, and the problems found in it."""

    def __init__(self, path):
        self.path = path
        with open(path, encoding="utf-8") as f:
            self.text = f.read()
        self.problems = []

    def line_of(self, offset):
        return self.text.count("\n", 0, offset) + 1

    def problem(self, offset, message):
        self.problems.append(f"{self.path}:{self.line_of(offset)}: {message}")


def code_block_after(text, offset):
    """The code block (fenced or indented) that starts after offset, as (start, end, indent)
    of its lines in text, or None."""
    fenced = re.compile(r"\s*```[^\n]*\n(.*?\n)[ \t]*```", re.S).match(text, offset)
    if fenced:
        return fenced.start(1), fenced.end(1), ""
    indented = re.compile(r"[ \t]*\n(?:[ \t]*\n)*((?: {4}[^\n]*\n)(?: {4}[^\n]*\n|[ \t]*\n)*)").match(text, offset)
    if indented:
        end = indented.end(1)
        while text[:end].endswith("\n\n"):
            end -= 1
        return indented.start(1), end, "    "
    return None


def run_command(args, vicont, cwd, timeout):
    """Runs one vicont command line (a string); returns (status, stdout, stderr, seconds)."""
    words = shlex.split(args)
    if words[:1] == ["vicont"]:
        command = [vicont] + words[1:]
    elif words[:1] == ["sh"] and len(words) > 1 and words[1].startswith("examples/"):
        command = ["sh", os.path.join(REPOSITORY, words[1])] + [vicont if w == "vicont" else w for w in words[2:]]
    else:
        return 127, "", f"neither vicont nor a script of examples/: {args}", 0.0
    env = dict(os.environ, LC_ALL="C")
    start = time.monotonic()
    try:
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s", timeout
    seconds = time.monotonic() - start
    return done.returncode, done.stdout, done.stderr, seconds


def tutorial_steps(text):
    """The commands and files of the tutorial in page order: ("command", offset, line) and
    ("file", offset, (name, content))."""
    steps = []
    pending_file = None
    pattern = re.compile(FILE_MARK.pattern + r"|```(\w*)\n(.*?)\n```", re.S)
    for m in pattern.finditer(text):
        if m.group(1):
            pending_file = m.group(1)
            continue
        language, body = m.group(2), m.group(3)
        if pending_file:
            steps.append(("file", m.start(), (pending_file, body + "\n")))
            pending_file = None
            continue
        if language != "sh":
            continue
        joined = re.sub(r"\\\n\s*", " ", body)
        for line in joined.split("\n"):
            line = line.split(" #")[0].strip()
            if line.startswith("vicont "):
                steps.append(("command", m.start(), line))
    return steps


def resolve(workdir, ref):
    """The value REF (FILE:PATH, or FILE:PATH*FACTOR) names."""
    scaled = re.fullmatch(r"(.*)\*([0-9.eE+-]+)", ref)
    if scaled:
        return resolve(workdir, scaled.group(1)) * float(scaled.group(2))
    name, _, path = ref.strip('"').partition(":")
    with open(os.path.join(workdir, name), encoding="utf-8", newline="") as f:
        value = list(csv.DictReader(f)) if name.endswith(".csv") else json.load(f)
    length = path.startswith("len(") and path.endswith(")")
    if length:
        path = path[4:-1]
    for part in filter(None, re.split(r"\.(?![^\[{]*[\]}])", path)):
        m = re.fullmatch(r"([^\[\]{}]*)((?:\[[^\]]+\]|\{[^}]+\})*)", part)
        if m.group(1):
            value = value[m.group(1)]
        for index in re.findall(r"\[[^\]]+\]|\{[^}]+\}", m.group(2)):
            if index.startswith("{"):
                wanted = dict(condition.split("=", 1) for condition in index[1:-1].split(","))
                value = [item for item in value
                         if all(str(item.get(k)) == v for k, v in wanted.items())]
                continue
            index = index[1:-1]
            if re.fullmatch(r"-?\d+", index):
                value = value[int(index)]
                continue
            key, _, wanted = index.rpartition("=") if "=" in index else ("label", "", index)
            matches = [item for item in value if str(item.get(key)) == wanted]
            if len(matches) != 1:
                raise KeyError(f"{len(matches)} elements with {key} = {wanted}")
            value = matches[0]
    if length:
        return len(value)
    try:
        return float(value) if isinstance(value, str) else value  # a CSV cell
    except ValueError:
        return value


# A computed result carries about 1e-10 relative accuracy at best (the integrators'
# tolerances, the continuation's location tolerance): digits beyond that are rounding,
# which a change of code or compiler may move, and do not make a number stale.
RELATIVE_NOISE = decimal.Decimal("1e-10")


def matches_printed(printed, value):
    """Whether value, rounded to the precision of the text printed (or to 1e-10 relative
    where more digits are printed), is printed."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    quoted = decimal.Decimal(printed)
    half_unit = decimal.Decimal(5).scaleb(quoted.as_tuple().exponent - 1)
    allowed = max(half_unit * decimal.Decimal("1.000001"), RELATIVE_NOISE * abs(quoted))
    return abs(decimal.Decimal(repr(float(value))) - quoted) <= allowed


def printed_like(printed, value):
    """value written with as many decimals (or significant digits) as printed."""
    if re.search(r"[eE]", printed):
        digits = len(printed.split("e")[0].split("E")[0].lstrip("-+").replace(".", "")) - 1
        return f"{value:.{digits}e}"
    if "." in printed:
        return f"{value:.{len(printed.split('.')[1])}f}"
    return f"{round(value)}"


def shape(line):
    """A line with its numbers blanked: what must match exactly."""
    return NUMBER_TOKEN.sub("#", " ".join(line.split()))


def align(doc_lines, actual_lines):
    """Pairs each doc line with an actual line of the same shape, in order; a doc line
    `...` stands for any number of actual lines. Lines whose numbers match too are paired
    if they can be (so that `...` skips the right lines); else lines of the same shape.
    Returns the pairs or None."""
    def same(doc, actual, strict):
        return shape(doc) == shape(actual) and not (strict and stale_numbers(doc, actual))

    def match(i, j, strict):
        if i == len(doc_lines):
            return [] if j == len(actual_lines) else None
        if doc_lines[i].strip() == "...":
            for k in range(j, len(actual_lines) + 1):
                rest = match(i + 1, k, strict)
                if rest is not None:
                    return rest
            return None
        if j < len(actual_lines) and same(doc_lines[i], actual_lines[j], strict):
            rest = match(i + 1, j + 1, strict)
            if rest is not None:
                return [(i, j)] + rest
        return None
    pairs = match(0, 0, True)
    return pairs if pairs is not None else match(0, 0, False)


def closest_lines(doc_lines, actual_lines):
    """For a block whose lines no longer align: each doc line (but `...`) replaced by the
    most similar actual line after the one taken before it (a renamed word, a new column),
    or kept when none is similar. For --update only: the result is for a person to read."""
    lines, j = [], 0
    for doc in doc_lines:
        if doc.strip() == "...":
            lines.append(doc)
            continue
        ratios = [(difflib.SequenceMatcher(None, doc, actual).ratio(), k)
                  for k, actual in enumerate(actual_lines[j:], start=j)]
        best = max(ratios, default=(0, None))
        if best[0] >= 0.6:
            lines.append(actual_lines[best[1]])
            j = best[1] + 1
        else:
            lines.append(doc)
    return lines


def stale_numbers(doc_line, actual_line):
    """The numbers of doc_line that actual_line does not print to their precision."""
    return [(d, a) for d, a in zip(NUMBER_TOKEN.findall(doc_line), NUMBER_TOKEN.findall(actual_line))
            if d != a and not matches_printed(d, float(a))]


def check_numbers(page, workdir, update):
    replacements = []
    for m in NUMBER.finditer(page.text):
        printed, ref = m.group(1), m.group(3)
        try:
            value = resolve(workdir, ref)
        except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
            page.problem(m.start(), f"number {ref}: cannot be read ({error})")
            continue
        if matches_printed(printed, value):
            continue
        now = printed_like(printed, value) if isinstance(value, (int, float)) else repr(value)
        page.problem(m.start(), f"number {ref} is printed as {printed}, now {now}")
        replacements.append((m.start(1), m.end(1), now))
    if update and replacements:
        text = page.text
        for start, end, now in reversed(replacements):
            text = text[:start] + now + text[end:]
        with open(page.path, "w", encoding="utf-8") as f:
            f.write(text)


def check_outputs(page, outputs, last_output_before, update):
    """Compares each output block with its run's stdout; with update, rewrites stale lines
    (a block without `...` whose lines no longer correspond, whole; one with `...`, line by
    line from the most similar output lines)."""
    edits = []
    for m in OUTPUT.finditer(page.text):
        run_id = m.group(1)
        actual = outputs.get(run_id) if run_id else last_output_before(m.start())
        if actual is None:
            page.problem(m.start(), f"output block of an unknown run {run_id!r}")
            continue
        block = code_block_after(page.text, m.end())
        if block is None:
            page.problem(m.start(), "no code block after the output marker")
            continue
        start, end, indent = block
        doc_lines = [line[len(indent):] for line in page.text[start:end].rstrip("\n").split("\n")]
        actual_lines = actual.rstrip("\n").split("\n")
        name = run_id or "the command above"
        pairs = align(doc_lines, actual_lines)
        if pairs is None:
            page.problem(m.start(), f"output of {name} no longer has the printed lines; it is now:\n"
                         + "\n".join(actual_lines))
            if any(line.strip() == "..." for line in doc_lines):
                edits.append((start, end, closest_lines(doc_lines, actual_lines), indent))
            else:
                edits.append((start, end, list(actual_lines), indent))
            continue
        stale = False
        for i, j in pairs:
            for printed, now in stale_numbers(doc_lines[i], actual_lines[j]):
                page.problem(m.start(), f"output of {name}: {printed} is now {now} in {actual_lines[j].strip()!r}")
                stale = True
            if stale_numbers(doc_lines[i], actual_lines[j]):
                doc_lines[i] = actual_lines[j]
        if stale:
            edits.append((start, end, doc_lines, indent))
    if update and edits:
        text = page.text
        for start, end, lines, indent in reversed(edits):
            text = text[:start] + "".join(indent + line + "\n" if line else "\n" for line in lines) + text[end:]
        page.text = text
        with open(page.path, "w", encoding="utf-8") as f:
            f.write(text)


def check_listings(page):
    for m in LISTING.finditer(page.text):
        block = code_block_after(page.text, m.end())
        if block is None:
            page.problem(m.start(), "no code block after the listing marker")
            continue
        start, end, indent = block
        listed = "".join(line[len(indent):] + "\n" for line in page.text[start:end].rstrip("\n").split("\n"))
        try:
            with open(os.path.join(REPOSITORY, m.group(1)), encoding="utf-8") as f:
                source = f.read()
        except OSError as error:
            page.problem(m.start(), f"listing of {m.group(1)}: {error}")
            continue
        if listed not in source:
            page.problem(m.start(), f"the listing is no longer a verbatim part of {m.group(1)}")


def check_files(page, workdir, doc_dir, copy_figures):
    for m in FILES.finditer(page.text):
        for name in m.group(1).split():
            if not os.path.isfile(os.path.join(workdir, name)):
                page.problem(m.start(), f"file {name} was not written")
    for m in FIGURE.finditer(page.text):
        copy, source = m.group(1), os.path.join(workdir, m.group(2))
        if not os.path.isfile(source):
            page.problem(m.start(), f"figure {m.group(2)} was not written")
        elif copy_figures:
            shutil.copyfile(source, os.path.join(doc_dir, "figures", copy))
        elif not os.path.isfile(os.path.join(doc_dir, "figures", copy)):
            page.problem(m.start(), f"figures/{copy} is missing (run with --copy-figures)")


def run_page(page, vicont, workdir, timeout):
    """Runs the page's commands; returns (outputs by run id, function: last output before
    an offset)."""
    outputs, ordered = {}, []
    if os.path.basename(page.path) == "tutorial.md":
        for kind, offset, item in tutorial_steps(page.text):
            if kind == "file":
                name, content = item
                with open(os.path.join(workdir, name), "w", encoding="utf-8") as f:
                    f.write(content)
                continue
            status, out, err, seconds = run_command(item, vicont, workdir, timeout)
            print(f"  {seconds:6.2f} s  {item}", flush=True)
            if status != 0:
                page.problem(offset, f"'{item}' exited with {status}: {err.strip()[:2000]}")
            ordered.append((offset, out))
    else:
        for m in RUN.finditer(page.text):
            run_id, args = m.group(1), " ".join(m.group(2).split())
            status, out, err, seconds = run_command(args, vicont, workdir, timeout)
            print(f"  {seconds:6.2f} s  {run_id}: {args}", flush=True)
            with open(os.path.join(workdir, run_id + ".stdout"), "w", encoding="utf-8") as f:
                f.write(out)
            if status != 0:
                page.problem(m.start(), f"run {run_id} exited with {status}: {err.strip()[:2000]}")
            outputs[run_id] = out

    def last_output_before(offset):
        before = [out for start, out in ordered if start < offset]
        return before[-1] if before else None

    return outputs, last_output_before


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vicont", required=True, help="the vicont program to run")
    parser.add_argument("--workdir", help="where to run (default: a temporary directory, removed)")
    parser.add_argument("--update", action="store_true", help="rewrite stale numbers in the pages")
    parser.add_argument("--copy-figures", action="store_true", help="copy the figures into doc/figures")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per command")
    parser.add_argument("pages", nargs="+", help="markdown pages to check")
    args = parser.parse_args()
    vicont = os.path.abspath(args.vicont)

    with tempfile.TemporaryDirectory(prefix="doc-numbers-") as temporary:
        root = os.path.abspath(args.workdir) if args.workdir else temporary
        problems = []
        for path in args.pages:
            page = Page(path)
            workdir = os.path.join(root, os.path.splitext(os.path.basename(path))[0])
            shutil.rmtree(workdir, ignore_errors=True)
            os.makedirs(workdir)
            # commands name the shipped examples as from the top of the source tree
            os.symlink(os.path.join(REPOSITORY, "examples"), os.path.join(workdir, "examples"))
            print(f"{path}:", flush=True)
            outputs, last_output_before = run_page(page, vicont, workdir, args.timeout)
            check_outputs(page, outputs, last_output_before, args.update)
            check_numbers(page, workdir, args.update)
            check_listings(page)
            check_files(page, workdir, os.path.dirname(os.path.abspath(path)), args.copy_figures)
            problems += page.problems
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problems" if problems else "every command ran; every quoted number, output, file and figure matches")
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
