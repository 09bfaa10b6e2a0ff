"""Two-parameter curves and parameter-plane maps: the curves of vicont curve and vicont map."""
import numpy as np
import pytest

import libcont


@pytest.fixture(scope="module")
def branch():
    return libcont.continue_branch(libcont.system("moving-base", omega=4), "omega", 4.0, 4.7)


def test_period_doubling_curve_is_viconts(run_vicont, branch):
    _, out = run_vicont("continue", "--set", "omega=4", "--param", "omega", "--from", 4, "--to", 4.7)
    summary, _ = run_vicont("curve", "--restart", f"{out}:PD1", "--param2", "c",
                            "--from", 0.2, "--to", 0.3)
    cu = libcont.curve(branch, "PD1", "c", 0.2, 0.3)
    assert branch.curve("PD1", "c", 0.2, 0.3)["c"].tolist() == cu["c"].tolist()
    assert cu.kind == summary["kind"] == "period-doubling"
    assert (cu.first, cu.second, cu.period) == ("omega", "c", summary["n"])
    assert cu.stop_reason == summary["stop_reason"]
    assert len(cu) == summary["rows_count"]
    assert cu["omega"].tolist() == [r["p1"] for r in summary["rows"]]
    assert cu["c"].tolist() == [r["p2"] for r in summary["rows"]]
    assert [(p.type, p.first, p.second) for p in cu.points] == \
        [(p["type"], p["p1"], p["p2"]) for p in summary["points"]]
    # Along a period-doubling curve a multiplier stays at -1: the tests vanish on it.
    assert np.all(np.abs(cu["spectral_radius"]) >= 0.99)


def test_curve_needs_its_start_inside_the_range(branch):
    with pytest.raises(libcont.InputError, match="do not hold the start's c"):
        libcont.curve(branch, "PD1", "c", 0.3, 0.4)
    with pytest.raises(libcont.InputError, match="omega"):
        libcont.curve(branch, "PD1", "omega", 4.0, 4.5)
    with pytest.raises(libcont.InputError, match="PD3"):
        libcont.curve(branch, "PD3", "c", 0.2, 0.3)


def test_parameter_map_is_viconts(run_vicont):
    summary, _ = run_vicont("map", "--param", "omega", "--from", 1.5, "--to", 3, "--param2", "d",
                            "--from2", -0.004, "--to2", 0, "--max-period", 2)
    mp = libcont.parameter_map(libcont.system("moving-base"), "omega", 1.5, 3.0, "d", -0.004, 0.0,
                               max_period=2)
    assert (mp.searches, mp.orbits_found) == (summary["searches"], summary["orbits_found"])
    assert len(mp.branches) == len(summary["branches"])
    assert len(mp.curves) == len(summary["curves"])
    for mine, theirs in zip(mp.curves, summary["curves"]):
        assert mine.kind == theirs["kind"] and mine.period == theirs["n"]
        assert len(mine) == theirs["rows"]
        assert mine.direction == theirs["direction"]
        assert [(p.type, p.first, p.second) for p in mine.points] == \
            [(p["type"], p["p1"], p["p2"]) for p in theirs["points"]]
    assert mp.notes == summary["notes"]
    kinds = {c.kind for c in mp.curves}
    assert "fold" in kinds


def test_switch_at_a_resonance_ends_on_the_branchs_fold(run_vicont):
    """The two-body Neimark-Sacker curve from the loading branch's NS1 towards lower omega
    reaches a 1:1 resonance; the fold curve switched onto there, back to omega = 6, ends on
    the loading branch's fold LP1 (its lambda found by the branch, not by the curve), and
    vicont's switch from the saved curve gives the same fold curve."""
    _, run = run_vicont("continue", "--system", "two-body", "--set", "contact=hertz",
                        "--param", "lambda", "--from", 1, "--to", 0.1)
    branch = libcont.continue_branch(libcont.system("two-body", contact="hertz"), "lambda", 1.0, 0.1)
    ns = libcont.curve(branch, "NS1", "omega", 6.0, 5.978, p1_from=0.55, p1_to=0.58)
    resonance = ns.point("R1_1")
    assert resonance.type == "resonance-1:1" and resonance.switches == ["fold"]
    fold = ns.switch("R1_1", "fold", 5.978, 6.0)
    assert fold.kind == "fold" and fold.status == "reached bound"
    assert fold["omega"][-1] == 6.0
    assert fold["lambda"][-1] == pytest.approx(branch.point("LP1").parameter, abs=1e-8)

    theirs, ns_run = run_vicont("curve", "--restart", f"{run}:NS1", "--param2", "omega",
                                "--from", 6, "--to", 5.978, "--p1-from", 0.55, "--p1-to", 0.58)
    # The switch from the saved curve reads its rows back, NaN test values (written as null)
    # included.
    switched, _ = run_vicont("curve", "--restart", f"{ns_run}:R1_1", "--kind", "fold",
                             "--from", 5.978, "--to", 6.0)
    assert fold["lambda"].tolist() == [r["p1"] for r in switched["rows"]]
    assert fold["omega"].tolist() == [r["p2"] for r in switched["rows"]]
    assert ns["lambda"].tolist() == [r["p1"] for r in theirs["rows"]]
    assert ns["omega"].tolist() == [r["p2"] for r in theirs["rows"]]
    assert [p.type for p in ns.points] == [p["type"] for p in theirs["points"]]
    with pytest.raises(libcont.InputError, match="no period-doubling curve issues from it"):
        ns.switch("R1_1", "period-doubling", 5.978, 6.0)


def test_grazing_curve_and_the_flip_curve_from_its_resonant_grazing_are_viconts(run_vicont):
    """The moving-base branch from omega = 4 down has an interior grazing GR1; its grazing
    curve in d has resonant grazings, where a period-doubling curve of the impacting orbit
    issues (doc/theory.md 6.4). Both curves row for row as vicont curve draws them."""
    _, run = run_vicont("continue", "--set", "omega=4", "--param", "omega", "--from", 4, "--to", 1)
    branch = libcont.continue_branch(libcont.system("moving-base", omega=4), "omega", 4.0, 1.0)
    assert branch.point("GR1").kind == "interior-tangency"
    grazing = libcont.curve(branch, "GR1", "d", 0.0, -0.003)
    theirs, curve_run = run_vicont("curve", "--restart", f"{run}:GR1", "--param2", "d",
                                   "--from", 0, "--to", -0.003)
    assert grazing.kind == "grazing" and "tangency_time" in grazing.columns
    assert grazing["omega"].tolist() == [r["p1"] for r in theirs["rows"]]
    assert [(p.label, p.first, p.second) for p in grazing.points] == \
        [(p["label"], p["p1"], p["p2"]) for p in theirs["points"]]
    assert grazing.point("RGPD1").switches == ["period-doubling"]

    flip = grazing.switch("RGPD1", "period-doubling", -0.003, 0.0)
    theirs, _ = run_vicont("curve", "--restart", f"{curve_run}:RGPD1", "--kind",
                           "period-doubling", "--from", -0.003, "--to", 0)
    assert flip.kind == "period-doubling" and flip.stop_reason == theirs["stop_reason"]
    assert flip["omega"].tolist() == [r["p1"] for r in theirs["rows"]]
    assert flip["d"].tolist() == [r["p2"] for r in theirs["rows"]]


def test_bad_map_inputs_name_the_item():
    s = libcont.system("moving-base")
    with pytest.raises(libcont.InputError, match="first range"):
        libcont.parameter_map(s, "omega", 3.0, 1.5, "d", -0.004, 0.0)
    with pytest.raises(libcont.InputError, match="second 'omega'"):
        libcont.parameter_map(s, "omega", 1.5, 3.0, "omega", 1.0, 2.0)
    with pytest.raises(libcont.InputError, match="nosuch"):
        libcont.parameter_map(s, "omega", 1.5, 3.0, "nosuch", 1.0, 2.0)
    with pytest.raises(libcont.InputError, match="max_period"):
        libcont.parameter_map(s, "omega", 1.5, 3.0, "d", -0.004, 0.0, max_period=0)
    with pytest.raises(libcont.InputError, match="initial_states"):
        libcont.parameter_map(s, "omega", 1.5, 3.0, "d", -0.004, 0.0, initial_states=[[1.0]])


def test_a_map_stopped_by_its_callback_raises_its_exception():
    class Enough(Exception):
        pass

    def progress(report):
        raise Enough(report)
    with pytest.raises(Enough):
        libcont.parameter_map(libcont.system("moving-base"), "omega", 1.5, 3.0, "d", -0.004, 0.0,
                              max_period=1, lines=2, seeds=2, progress=progress)
