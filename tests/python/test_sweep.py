"""Sweeps: the Lyapunov diagram of vicont sweep, point by point and digit by digit, on any
number of threads."""
import numpy as np
import pytest

import libcont


def test_lyapunov_diagram_is_viconts(run_vicont):
    summary, _ = run_vicont("sweep", "--param", "omega", "--from", 2, "--to", 10, "--steps", 9)
    result = libcont.sweep(libcont.system("moving-base"), "omega", 2.0, 10.0, steps=9, threads=2)
    assert result.complete and result.status == "complete"
    points = summary["points"]
    assert len(result) == len(points) == 9
    for k, point in enumerate(points):
        assert result["omega"][k] == point["omega"]
        assert (result["p"][k], result["n"][k]) == (point["p"], point["n"])
        assert result["status"][k] == point["status"]
        assert len(point["exponents"]) == result.exponents.shape[1]
        for mine, theirs in zip(result.exponents[k], point["exponents"]):
            # JSON has no infinity: vicont writes null for -inf (sticking).
            assert (not np.isfinite(mine)) if theirs is None else mine == theirs  # every digit
        for mine, theirs in zip(result.exponent_errors[k], point["exponent_errors"]):
            assert (not np.isfinite(mine)) if theirs is None else mine == theirs
    assert np.array_equal(result["lambda_1"], result.exponents[:, 0])
    assert np.array_equal(result["lambda_2_error"], result.exponent_errors[:, 1])


def test_threads_give_the_serial_numbers():
    s = libcont.system("moving-base")
    one = libcont.sweep(s, "omega", 3.0, 5.0, steps=4, transient=200, periods=200)
    two = libcont.sweep(s, "omega", 3.0, 5.0, steps=4, transient=200, periods=200, threads=2)
    assert np.array_equal(one.exponents, two.exponents)


def test_grid_sweep_has_both_parameters():
    result = libcont.sweep(libcont.system("moving-base"), "omega", 3.0, 4.0, steps=2,
                           second=("r", 0.6, 0.8, 2), transient=100, periods=100)
    assert len(result) == 4
    assert sorted(set(result["r"])) == [0.6, 0.8]
    assert len(result.samples) == 4 and result.samples[0].shape[1] == 2


def test_progress_reaches_every_point():
    seen = []
    libcont.sweep(libcont.system("moving-base"), "omega", 3.0, 4.0, steps=3, transient=50,
                  periods=50, progress=seen.append)
    assert seen[-1]["points"] == 3 and seen[-1]["total"] == 3


def test_bad_sweep_inputs():
    s = libcont.system("moving-base")
    with pytest.raises(libcont.InputError, match="steps"):
        libcont.sweep(s, "omega", 2, 3, steps=0)
    with pytest.raises(libcont.InputError, match="periods"):
        libcont.sweep(s, "omega", 2, 3, periods=-5)
    with pytest.raises(libcont.InputError, match="nosuch"):
        libcont.sweep(s, "nosuch", 2, 3, steps=2)
    with pytest.raises(libcont.InputError, match="initial_states"):
        libcont.sweep(s, "omega", 2, 3, steps=2, initial_states=[[0.0, 0.0, 0.0]])
    with pytest.raises(libcont.InputError, match="direction"):
        libcont.sweep(s, "omega", 2, 3, steps=2, direction="sideways")


def test_following_the_attractor_both_ways_is_viconts(run_vicont):
    summary, _ = run_vicont("sweep", "--param", "omega", "--from", 3, "--to", 5, "--steps", 5,
                            "--follow", "--direction", "both", "--transient", 200,
                            "--periods", 200, "--initial-states", "0,0;0.004,0")
    result = libcont.sweep(libcont.system("moving-base"), "omega", 3.0, 5.0, steps=5, follow=True,
                           direction="both", transient=200, periods=200,
                           initial_states=[[0.0, 0.0], [0.004, 0.0]])
    points = summary["points"]
    assert len(result) == len(points) == 20
    assert list(result["direction"]) == [p["direction"] for p in points]
    assert list(result["initial_condition"]) == [p["initial_condition"] for p in points]
    for k, point in enumerate(points):
        assert result["omega"][k] == point["omega"]
        assert [None if not np.isfinite(e) else e for e in result.exponents[k]] == point["exponents"]
