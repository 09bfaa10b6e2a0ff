"""Results print in a line or a short table, and convert to pandas where it is installed."""
import importlib.util

import pytest

import libcont

HAS_PANDAS = importlib.util.find_spec("pandas") is not None


@pytest.fixture(scope="module")
def branch():
    return libcont.continue_branch(libcont.system("moving-base", omega=4), "omega", 4.0, 4.7)


def test_reprs_name_what_matters(branch):
    s = libcont.system("moving-base", omega=4)
    assert repr(s).startswith("System('moving-base', ") and "omega=4" in repr(s)
    text = repr(branch)
    assert "n = 2" in text and "PD1: period-doubling at 4.62915633" in text
    assert "z = 1/2" in repr(libcont.lyapunov(s, periods=100, transient=100))
    assert "z = 1/2" in repr(libcont.orbit(s))
    assert "Trajectory:" in repr(libcont.simulate(s, t_end=3.0))
    assert "x_c = " in repr(libcont.impact())


@pytest.mark.skipif(not HAS_PANDAS, reason="pandas is not installed")
def test_to_pandas(branch):
    frame = branch.to_pandas()
    assert list(frame["omega"]) == list(branch["omega"])


@pytest.mark.skipif(HAS_PANDAS, reason="pandas is installed")
def test_to_pandas_without_pandas_says_so(branch):
    with pytest.raises(ImportError, match="pandas"):
        branch.to_pandas()


def test_columns_by_name(branch):
    assert len(branch) == len(branch["omega"]) == len(branch["x"])
    with pytest.raises(KeyError, match="nosuch"):
        branch["nosuch"]
