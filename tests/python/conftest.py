"""Shared fixtures: the vicont program the Python results are compared with, and runs of it.

The module under test is found on PYTHONPATH (the build tree's python directory, which
CTest's python_module sets); vicont is LIBCONT_VICONT, or vicont in the build tree next to
that directory."""
import json
import os
import pathlib
import subprocess

import pytest

import libcont


def _vicont():
    given = os.environ.get("LIBCONT_VICONT")
    if given:
        return pathlib.Path(given)
    # <build>/python/libcont/__init__.py -> <build>/vicont
    return pathlib.Path(libcont.__file__).resolve().parents[2] / "vicont"


@pytest.fixture(scope="session")
def vicont():
    program = _vicont()
    if not program.exists():
        pytest.skip(f"vicont not built ({program})")
    return program


@pytest.fixture
def run_vicont(vicont, tmp_path):
    """Runs `vicont ARGS --out DIR --json` (DIR a new directory each run; no --out with
    out=False) and returns (its JSON summary, DIR)."""
    runs = []

    def run(*args, expect_ok=True, out=True):
        runs.append(tmp_path / f"run{len(runs)}")
        directory = ["--out", str(runs[-1])] if out else []
        done = subprocess.run([str(vicont), *map(str, args), *directory, "--json"],
                              capture_output=True, text=True, timeout=600)
        if expect_ok:
            assert done.returncode == 0, done.stderr
        return json.loads(done.stdout) if done.stdout.strip() else None, runs[-1]
    return run


@pytest.fixture
def vicont_error(vicont):
    """The one-line error vicont prints for ARGS (exit status 1)."""
    def run(*args):
        done = subprocess.run([str(vicont), *map(str, args)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode != 0
        return done.stderr.strip()
    return run
