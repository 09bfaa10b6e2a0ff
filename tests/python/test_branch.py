"""Branches: the same rows and special points as vicont continue, restarts and switches as
vicont continue --restart, and the period doubling of the moving-base oscillator where the
library's documentation locates it."""
import csv

import numpy as np
import pytest

import libcont


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def assert_same_special_points(branch, summary):
    assert [p.label for p in branch.special_points] == [p["label"] for p in summary["special_points"]]
    for mine, theirs in zip(branch.special_points, summary["special_points"]):
        assert mine.type == theirs["type"]
        assert mine.kind == theirs["kind"]
        assert mine.parameter == theirs["parameter"]  # every digit
        assert mine.amplitudes == theirs["amplitudes"]
        assert mine.p == theirs["p"] and mine.stable == theirs["stable"]
        assert mine.stable_after == theirs["stable_after"]
        assert mine.index == theirs["after_point"]


def assert_same_rows(branch, out):
    rows = read_csv(out / "branch.csv")
    assert len(branch) == len(rows)
    for name in [branch.parameter] + branch.state_names + ["section_phase"]:
        assert np.array_equal(branch[name], [float(r[name]) for r in rows]), name


def test_loading_curve_is_viconts(run_vicont):
    summary, out = run_vicont("continue", "--system", "two-body", "--set", "contact=hertz",
                              "--param", "lambda", "--from", 1, "--to", 0.1)
    s = libcont.system("two-body", contact="hertz")
    branch = libcont.continue_branch(s, "lambda", 1.0, 0.1)
    assert branch.ok and branch.stop_reason == summary["stop_reason"]
    assert len(branch) == summary["points"]
    assert branch.period == summary["n"]
    assert_same_special_points(branch, summary)
    assert_same_rows(branch, out)
    # The branch keeps its system as it was: lambda is where the branch started.
    assert branch.system["lambda"] == 1.0
    assert s["lambda"] == libcont.system("two-body", contact="hertz")["lambda"]
    types = {p.type for p in branch.special_points}
    assert {"fold", "neimark-sacker", "grazing"} <= types


def test_user_values_are_viconts(run_vicont):
    # at=[...] as vicont continue --at: the branch's orbits at exactly those values, UZ1, UZ2
    # in branch order among the other special points, every digit as vicont's.
    summary, _ = run_vicont("continue", "--system", "two-body", "--set", "contact=hertz",
                            "--param", "lambda", "--from", 1, "--to", 0.1, "--at", "0.8,0.3")
    branch = libcont.continue_branch(libcont.system("two-body", contact="hertz"), "lambda", 1.0,
                                     0.1, at=[0.8, 0.3])
    assert_same_special_points(branch, summary)
    users = [p for p in branch.special_points if p.type == "user-value"]
    assert [(p.label, p.parameter) for p in users] == [("UZ1", 0.8), ("UZ2", 0.3)]
    assert branch.point("UZ1").parameter == 0.8
    with pytest.raises(libcont.InputError, match="at"):
        libcont.continue_branch(libcont.system("moving-base", omega=4), "omega", 4.0, 4.5, at=5.0)
    with pytest.raises(libcont.InputError, match="at"):
        libcont.continue_branch(libcont.system("moving-base", omega=4), "omega", 4.0, 4.5,
                                at=[4.2, float("nan")])


def test_stability_warnings_are_viconts(run_vicont):
    # The soft moving base stalls at its soft grazing with steps of up to 0.08, its last rows
    # changing stability with no special point between them (doc/cli.md,
    # stability_warnings); vicont and Python flag the same rows.
    params = {"model": "soft", "ks": 2000, "d": -0.005, "omega": 0.5}
    args = [a for k, v in params.items() for a in ("--set", f"{k}={v}")]
    summary, _ = run_vicont("continue", "--system", "moving-base", *args, "--param", "omega",
                            "--from", 0.5, "--to", 2.5, "--max-step", 0.08, expect_ok=False)
    branch = libcont.continue_branch(libcont.system("moving-base", **params), "omega", 0.5, 2.5,
                                     max_step=0.08)
    assert branch.stability_warnings
    assert branch.stability_warnings == [w["after_point"] for w in summary["stability_warnings"]]


@pytest.fixture(scope="module")
def moving_base_branch():
    return libcont.continue_branch(libcont.system("moving-base", omega=4), "omega", 4.0, 4.7)


def test_period_doubling_where_vicont_finds_it(moving_base_branch, run_vicont):
    branch = moving_base_branch
    assert branch.period == 2 and branch.status == "reached bound"
    assert [p.label for p in branch.special_points] == ["PD1"]
    pd = branch.point("pd1")
    summary, _ = run_vicont("continue", "--system", "moving-base", "--set", "omega=4",
                            "--param", "omega", "--from", 4, "--to", 4.7)
    assert pd.parameter == summary["special_points"][0]["parameter"]
    # The multiplier -1 at the period doubling, stable before it, unstable after.
    assert np.min(np.abs(pd.multipliers + 1)) < 1e-6
    assert branch["stable"][0] and not branch["stable"][-1]
    assert set(branch.columns) >= {"omega", "x", "v", "A_max:x", "impacts", "spectral_radius", "stable"}


def test_restart_along_the_tangent_and_switch_are_viconts(run_vicont, moving_base_branch):
    first, out = run_vicont("continue", "--set", "omega=4", "--param", "omega", "--from", 4, "--to", 4.7)
    branch = moving_base_branch
    restarted = branch.restart(5, to=4.2)
    theirs, out2 = run_vicont("continue", "--restart", f"{out}:5", "--to", 4.2)
    assert_same_special_points(restarted, theirs)
    assert_same_rows(restarted, out2)

    doubled = branch.switch("PD1", to=4.7)
    theirs, out3 = run_vicont("continue", "--restart", f"{out}:PD1", "--switch",
                              "--to", 4.7)
    assert doubled.period == 4 == theirs["n"]
    assert_same_special_points(doubled, theirs)
    assert_same_rows(doubled, out3)


def test_restart_in_another_parameter(run_vicont, moving_base_branch):
    _, out = run_vicont("continue", "--set", "omega=4", "--param", "omega", "--from", 4, "--to", 4.7)
    theirs, out2 = run_vicont("continue", "--restart", f"{out}:PD1", "--param", "r", "--to", 0.9)
    branch = moving_base_branch
    other = branch.restart("PD1", parameter="r", to=0.9)
    assert_same_special_points(other, theirs)
    assert_same_rows(other, out2)
    assert other.parameter == "r" and len(other) > 2
    # It starts on the period doubling's orbit: omega there, r at the system's value.
    assert other.system["omega"] == branch.point("PD1").parameter
    assert other["r"][0] == pytest.approx(libcont.system("moving-base")["r"])


def test_progress_reports_rows():
    seen = []
    libcont.continue_branch(libcont.system("moving-base", omega=4), "omega", 4.0, 4.3,
                            progress=seen.append)
    assert seen and all("points" in p and "parameter" in p for p in seen)
    assert seen[-1]["points"] >= 2


def test_bad_branch_inputs_name_the_item():
    s = libcont.system("moving-base", omega=4)
    with pytest.raises(libcont.InputError, match="nosuch"):
        libcont.continue_branch(s, "nosuch", 1, 2)
    with pytest.raises(libcont.InputError):
        libcont.continue_branch(s, "omega", 4.0, 4.0)
    with pytest.raises(libcont.InputError, match="from"):
        libcont.continue_branch(s, "omega", float("nan"), 4.5)
    with pytest.raises(libcont.InputError, match="max_points"):
        libcont.continue_branch(s, "omega", 4.0, 4.5, max_points=-3)
    with pytest.raises(libcont.InputError, match="x0"):
        libcont.continue_branch(s, "omega", 4.0, 4.5, x0=[1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="nosuch_option"):
        libcont.continue_branch(s, "omega", 4.0, 4.5, nosuch_option=1)
    with pytest.raises(libcont.InputError, match="corrector_tolerance"):
        libcont.continue_branch(s, "omega", 4.0, 4.5, corrector_tolerance=0.0)


def test_corrector_tolerance_is_viconts(run_vicont):
    # The soft moving base folds 2.7e-9 in amplitude past its grazing: only with the
    # smaller tolerance and min_step does the branch pass the fold (doc/library.md, 7).
    options = ["--min-step", 1e-13, "--corrector-tolerance", 1e-12]
    summary, out = run_vicont("continue", "--system", "moving-base", "--set", "model=soft",
                              "--set", "ks=2000", "--set", "d=-0.005", "--param", "omega",
                              "--from", 2, "--to", 1.3, *options)
    s = libcont.system("moving-base", model="soft", ks=2000, d=-0.005)
    branch = libcont.continue_branch(s, "omega", 2.0, 1.3, min_step=1e-13, corrector_tolerance=1e-12)
    assert branch.ok and [p.label for p in branch.special_points] == ["GR1", "LP1", "LP2"]
    assert_same_special_points(branch, summary)
    assert_same_rows(branch, out)
    assert not libcont.continue_branch(s, "omega", 2.0, 1.3, min_step=1e-13).ok


def test_unknown_labels_and_rows(moving_base_branch):
    with pytest.raises(libcont.InputError, match="PD7.*PD1"):
        moving_base_branch.restart("PD7")
    with pytest.raises(libcont.InputError, match="row"):
        moving_base_branch.restart(10**6)
    with pytest.raises(libcont.InputError):
        moving_base_branch.restart(-1)
