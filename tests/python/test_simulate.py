"""simulate: the time series and events of vicont simulate, row for row."""
import csv

import numpy as np
import pytest

import libcont


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("model", ["hard", "soft"])
def test_time_series_and_events_are_viconts(run_vicont, model):
    summary, out = run_vicont("simulate", "--set", "omega=4", "--set", f"model={model}")
    tr = libcont.simulate(libcont.system("moving-base", omega=4, model=model))
    rows = read_csv(out / "timeseries.csv")
    assert tr.ok and tr.status == summary["status"] == "success"
    # The soft model accounts for its energy: two more columns, as in vicont's file.
    assert tr.state_names == list(rows[0])[1:-2]
    assert tr.x.shape == (len(rows), len(tr.state_names)) and tr.t.shape == (len(rows),)
    assert np.array_equal(tr.t, [float(r["t"]) for r in rows])
    for name in tr.state_names:
        assert np.array_equal(tr[name], [float(r[name]) for r in rows]), name
    events = read_csv(out / "events.csv")
    assert len(tr.events) == len(events) == summary["events"]
    assert np.array_equal(tr.events.t, [float(e["t"]) for e in events])
    assert list(tr.events.kind) == [e["kind"] for e in events]
    assert np.array_equal(tr.events.x_plus[:, 1], [float(e["v_after"]) for e in events])


def test_initial_state_and_end_time():
    s = libcont.system("moving-base", omega=4)
    tr = libcont.simulate(s, t_end=5.0, sample_step=0.01, x0=[0.01, 0.0])
    assert tr.t[0] == 0.0 and tr.t[-1] == 5.0
    assert tr.x[0].tolist() == [0.01, 0.0]
    assert np.all(np.diff(tr.t) >= 0)


def test_event_limit_ends_with_a_status():
    tr = libcont.simulate(libcont.system("moving-base", omega=4), t_end=200.0, max_events=3)
    assert not tr.ok and len(tr.events) <= 4


@pytest.mark.parametrize("x0", [[1.0], [[0.0, 0.0]], [0.0, float("nan")], "ab"])
def test_bad_initial_states(x0):
    with pytest.raises(libcont.InputError, match="x0"):
        libcont.simulate(libcont.system("moving-base"), t_end=1.0, x0=x0)


def test_bad_times():
    s = libcont.system("moving-base")
    for kwargs in ({"t_end": -1.0}, {"t_end": float("nan")}, {"sample_step": 0.0},
                   {"max_events": -2}, {"integrator": "euler"}):
        with pytest.raises(libcont.InputError):
            libcont.simulate(s, **kwargs)
    with pytest.raises(TypeError):
        libcont.simulate("moving-base")
