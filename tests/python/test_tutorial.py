"""examples/python/tutorial.py runs from start to end, writes each step's figure, and the
numbers it prints are vicont's for the same runs."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

TUTORIAL = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "tutorial.py"
FIGURES = ["loading_curve", "frequency_response", "lyapunov_diagram", "basins",
           "own_model_phase_portrait"]


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory):
    out = tmp_path_factory.mktemp("tutorial")
    done = subprocess.run([sys.executable, str(TUTORIAL), str(out)], capture_output=True,
                          text=True, timeout=900, env=dict(os.environ, MPLBACKEND="Agg"))
    assert done.returncode == 0, done.stderr
    return out, done.stdout


def test_every_step_writes_its_figure(tutorial):
    out, _ = tutorial
    for name in FIGURES:
        figure = out / f"{name}.png"
        assert figure.exists(), name
        assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert figure.stat().st_size > 10_000, name


def test_the_frequency_response_points_are_vicont_s(tutorial, run_vicont):
    _, printed = tutorial
    shown = re.findall(r"^  (\w+)\s+([\w-]+)\s+omega = ([0-9.]+)$", printed, re.MULTILINE)
    summary, _ = run_vicont("continue", "--system", "moving-base", "--set", "d=-0.005",
                            "--param", "omega", "--from", "0.5", "--to", "2.5")
    expected = [(p["label"], p["type"], f"{p['parameter']:.10f}") for p in summary["special_points"]]
    assert shown == expected
    assert {label for label, _, _ in shown} >= {"GR1", "PD1", "LP1", "GR2"}
