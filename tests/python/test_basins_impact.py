"""basins and impact: vicont basins' cells and vicont impact's characteristics."""
import csv

import pytest

import libcont


def test_basins_are_viconts(run_vicont):
    summary, out = run_vicont("basins", "--x", "x:0:0.2:4", "--y", "v:-0.5:0.5:3",
                              "--transient", 200, "--threads", 2)
    ba = libcont.basins(libcont.system("moving-base"), x=("x", 0.0, 0.2, 4),
                        y=("v", -0.5, 0.5, 3), transient=200, threads=2)
    assert ba.attractor.shape == (3, 4)
    with open(out / "basins.csv") as f:
        for row in csv.DictReader(f):
            i, j = int(row["i"]), int(row["j"])
            assert ba.x[i] == float(row["x"]) and ba.y[j] == float(row["v"])
            assert (ba.p[j, i], ba.n[j, i]) == (int(row["p"]), int(row["n"]))
            assert ba.final_states[j * 4 + i].tolist() == [float(row["final_x"]), float(row["final_v"])]
    assert [(a["p"], a["n"], a["cells"]) for a in ba.attractors] == \
        [(a["p"], a["n"], a["cells"]) for a in summary["attractors"]]


def test_settling_cells_are_viconts(run_vicont):
    # The weakly stable z = 1/2 orbit at omega = 3.3, r = 0.9 (doc/sweeps.md): its cells
    # settle past the transient, the same in both, and without settling they are not periodic.
    args = ("--set", "omega=3.3", "--set", "r=0.9", "--x", "x:0.014:0.016:3",
            "--y", "v:-0.001:0.001:3", "--transient", 200)
    summary, _ = run_vicont("basins", *args)
    s = libcont.system("moving-base", omega=3.3, r=0.9)
    grid = dict(x=("x", 0.014, 0.016, 3), y=("v", -0.001, 0.001, 3), transient=200)
    ba = libcont.basins(s, **grid)
    assert int((ba.settled_after > 0).sum()) == summary["settled_cells"] > 0
    assert int(ba.settled_after.max()) == summary["most_settle_periods"]
    assert ba.settling == summary["settling_cells"] == 0
    assert (ba.p[1, 1], ba.n[1, 1]) == (1, 2)
    unsettled = libcont.basins(s, **grid, settle_periods=0)
    assert unsettled.attractor[1, 1] == unsettled.NON_PERIODIC
    assert unsettled.settling == summary["settled_cells"]
    with pytest.raises(libcont.InputError, match="settle_periods"):
        libcont.basins(s, **grid, settle_periods=-1)


def test_bad_axes():
    s = libcont.system("moving-base")
    with pytest.raises(libcont.InputError, match="'q' is not a state coordinate"):
        libcont.basins(s, x=("q", 0, 1, 2), y=("v", 0, 1, 2))
    with pytest.raises(libcont.InputError, match="steps"):
        libcont.basins(s, x=("x", 0, 1, 0), y=("v", 0, 1, 2))
    with pytest.raises(libcont.InputError):
        libcont.basins(s, x=("x", 0, 1), y=("v", 0, 1, 2))


def test_impact_is_viconts(run_vicont):
    summary, _ = run_vicont("impact", "--set", "v0=3")
    im = libcont.impact(v0=3.0)
    assert im.closed_form == {k: summary[k] for k in im.closed_form}
    assert im.ode == {k: summary["ode"][k] for k in im.ode}
    assert max(im.relative_differences.values()) < 1e-6
    profile = im.profile()
    assert profile["x"].max() <= im["x_c"] * (1 + 1e-12)
    # Maximal compression at t_c: x_c, and the force's jump from P_c to P_c*.
    assert im.profile([im["t_c"]])["x"][0] == pytest.approx(im["x_c"], rel=1e-9)


def test_impact_refuses_bad_parameters():
    with pytest.raises(libcont.InputError, match="v0"):
        libcont.impact(v0=-1.0)
    with pytest.raises(libcont.InputError, match="nosuch"):
        libcont.impact(nosuch=2)
