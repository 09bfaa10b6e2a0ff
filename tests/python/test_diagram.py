"""Hybrid diagrams: libcont.diagram gives vicont diagram's branches, stretches and
integration points to the digit, with the branch rows, orbits at t = kT and special points
of its files."""
import csv

import numpy as np
import pytest

import libcont


def test_hybrid_diagram_is_viconts(run_vicont):
    args = ("--param", "omega", "--from", 2, "--to", 5, "--steps", 31, "--transient", 300,
            "--periods", 300)
    summary, out = run_vicont("diagram", *args)
    result = libcont.diagram(libcont.system("moving-base"), "omega", 2.0, 5.0, 31,
                             transient=300, periods=300)
    assert result.failed == summary["failed"] == 0
    assert len(result.branches) == len(summary["branches"])
    for mine, theirs in zip(result.branches, summary["branches"]):
        assert (mine.n, mine.p, mine.lost_by) == (theirs["n"], theirs["p"], theirs["lost_by"])
        assert mine.found_at == theirs["found_at"] and mine.stable_until == theirs["stable_until"]
        assert mine.rejoined == theirs["rejoined"]
        assert len(mine) == theirs["points"] and mine.stop_reason == theirs["stop_reason"]
        assert [s["type"] for s in mine.special_points] == \
            [s["type"] for s in theirs["special_points"]]
        assert [s["parameter"] for s in mine.special_points] == \
            [s["omega"] for s in theirs["special_points"]]
    # The rows and the orbits at t = kT, against the CSV files (17 digits).
    with open(out / "diagram_branches.csv") as f:
        rows = list(csv.DictReader(f))
    with open(out / "diagram_stroboscopic.csv") as f:
        laps = [r for r in csv.DictReader(f) if not r["special"]]
    for b, branch in enumerate(result.branches):
        mine = [r for r in rows if int(r["branch"]) == b]
        assert len(mine) == len(branch)
        for k, row in enumerate(mine):
            for name in ("omega", "spectral_radius", "section_phase", "x", "v"):
                assert branch[name][k] == float(row[name])
            assert bool(branch["stable"][k]) == (row["stable"] == "1")
        strobe = [r for r in laps if int(r["branch"]) == b]
        assert len(strobe) == len(branch) * branch.n
        for r in strobe:
            orbit = branch.stroboscopic[int(r["index"])]
            assert orbit.shape == (branch.n, 2)
            assert orbit[int(r["k"])][0] == float(r["x"]) and orbit[int(r["k"])][1] == float(r["v"])
    # The integration points, as vicont's integration file.
    with open(out / "diagram_integration.csv") as f:
        integration = list(csv.DictReader(f))
    assert len(result.integration) == len(integration)
    for k, row in enumerate(integration):
        assert result.integration["omega"][k] == float(row["omega"])
        assert result.integration["lambda_1"][k] == float(row["lambda_1"])
        assert (result.integration["p"][k], result.integration["n"][k]) == (int(row["p"]), int(row["n"]))


def test_diagram_progress_and_bad_inputs():
    s = libcont.system("moving-base")
    seen = []
    libcont.diagram(s, "omega", 2.0, 2.4, 3, transient=100, periods=100, progress=seen.append)
    assert seen and seen[-1]["points"] == 3 and seen[-1]["total"] == 3
    with pytest.raises(libcont.InputError, match="steps"):
        libcont.diagram(s, "omega", 2, 3, 1)
    with pytest.raises(libcont.InputError, match="from and to"):
        libcont.diagram(s, "omega", 2, 2)
    with pytest.raises(libcont.InputError, match="max_step"):
        libcont.diagram(s, "omega", 2, 3, max_step=-1)
    with pytest.raises(libcont.InputError, match="x0"):
        libcont.diagram(s, "omega", 2, 3, x0=[0.0])
    with pytest.raises(libcont.InputError, match="autonomous"):
        libcont.diagram(libcont.system("drop"), "r", 0.5, 0.9)
    assert np.isfinite(libcont.diagram(s, "omega", 2.0, 2.2, 2, transient=50,
                                       periods=50).integration["lambda_1"]).all()
