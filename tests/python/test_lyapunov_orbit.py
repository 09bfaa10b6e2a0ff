"""lyapunov and orbit: the numbers of vicont lyapunov and vicont orbit."""
import numpy as np
import pytest

import libcont


def test_lyapunov_is_viconts(run_vicont):
    summary, _ = run_vicont("lyapunov", "--set", "omega=7.1", "--periods", 500, "--transient", 300)
    ly = libcont.lyapunov(libcont.system("moving-base", omega=7.1), periods=500, transient=300)
    assert ly.ok
    assert ly.exponents.tolist() == summary["exponents"]
    assert ly.exponent_sum == summary["exponent_sum"]
    assert ly.exponent_errors.tolist() == summary["exponent_errors"]
    assert ly.exponent_sum_error == summary["exponent_sum_error"]
    assert ly.batches == summary["batches"] == 20
    assert (ly.p, ly.n) == (summary["p"], summary["n"])
    assert ly.a_i == summary["impacts_per_period"] and ly.a_e == summary["energy_per_period"]
    assert ly.velocity_summary["count"] == summary["impact_velocity"]["count"]
    assert ly.averaged_periods == summary["averaged_periods"] == 500


def test_batches_set_the_standard_errors(run_vicont):
    summary, _ = run_vicont("lyapunov", "--set", "omega=7.1", "--periods", 400, "--transient", 100,
                            "--batches", 8)
    ly = libcont.lyapunov(libcont.system("moving-base", omega=7.1), periods=400, transient=100,
                          batches=8)
    assert ly.batches == 8 and ly.exponent_errors.tolist() == summary["exponent_errors"]
    assert ly.exponent_errors[0] > 0
    single = libcont.lyapunov(libcont.system("moving-base", omega=7.1), periods=1, transient=10)
    assert single.batches == 1 and np.isnan(single.exponent_errors).all()
    with pytest.raises(libcont.InputError, match="batches"):
        libcont.lyapunov(libcont.system("moving-base"), batches=1)


def test_periodic_motion_has_its_type():
    ly = libcont.lyapunov(libcont.system("moving-base", omega=4), periods=300, transient=300)
    assert ly.z == (1, 2) and ly.z_text == "1/2"
    assert ly.exponents[0] < 0 and len(ly.v_r) == 150
    assert ly.poincare.shape == (300, 2)


def test_orbit_is_viconts(run_vicont):
    summary, _ = run_vicont("orbit", "--set", "omega=4")
    orb = libcont.orbit(libcont.system("moving-base", omega=4))
    assert orb.converged and orb.z_text == "1/2"
    assert orb.state.tolist() == summary["state"]
    assert orb.phase == summary["section_phase"]
    assert [[z.real, z.imag] for z in orb.multipliers] == summary["multipliers"]
    assert orb.stable == summary["stable"]
    assert orb.measures["A_max"] == summary["amplitudes"]
    assert orb.measures["impacts"] == summary["impacts"]
    # One pass of the orbit closes on itself.
    assert np.allclose(orb.x[-1], orb.x[0], atol=1e-8)


def test_bad_counts():
    s = libcont.system("moving-base")
    with pytest.raises(libcont.InputError, match="periods"):
        libcont.lyapunov(s, periods=-1)
    # vicont's limits: 10^7 periods a phase, n up to 1000.
    with pytest.raises(libcont.InputError, match="periods must be a whole number from 1 to 10000000"):
        libcont.lyapunov(s, periods=2**40)
    with pytest.raises(libcont.InputError, match="max_period"):
        libcont.lyapunov(s, max_period=5000)
    with pytest.raises(libcont.InputError, match="transient"):
        libcont.orbit(s, transient=-10)
    with pytest.raises(libcont.InputError, match="x0"):
        libcont.orbit(s, x0=np.zeros((2, 2)))
