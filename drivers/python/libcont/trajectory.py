"""libcont.simulate: one trajectory, its samples and its events."""
import numpy as np

from . import _core
from ._tables import ColumnTable, data_frame, progress_argument
from .system import core_of


class Events:
    """The events of a trajectory: t, event (index within its mode), kind ("impact",
    "contact_start", ...), mode_before, mode_after, and the states x_minus, x_plus."""

    def __init__(self, data):
        self.t = data["t"]
        self.event = data["event"]
        self.kind = np.array(data["kind"], dtype=object)
        self.mode_before = data["mode_before"]
        self.mode_after = data["mode_after"]
        self.x_minus = data["x_minus"]
        self.x_plus = data["x_plus"]

    def __len__(self):
        return len(self.t)

    def to_pandas(self):
        return data_frame({"t": self.t, "event": self.event, "kind": self.kind,
                           "mode_before": self.mode_before, "mode_after": self.mode_after})

    def __repr__(self):
        kinds = {}
        for k in self.kind:
            kinds[k] = kinds.get(k, 0) + 1
        counted = ", ".join(f"{n} {k}" for k, n in kinds.items())
        return f"Events({len(self)}: {counted or 'none'})"


class Trajectory(ColumnTable):
    """Samples every sample_step and the states just before and after every event:
    t (N,), x (N, dim), mode (N,); columns by state name (tr["x"]); events; status."""

    def __init__(self, data):
        self.t = data["t"]
        self.x = data["x"]
        self.mode = data["mode"]
        self.state_names = list(data["state_names"])
        self.mode_names = list(data["mode_names"])
        self.events = Events(data["events"])
        self.status = data["status"]
        self.message = data["message"]
        self.ok = data["ok"]
        self.columns = {"t": self.t, "mode": self.mode}
        self.columns.update({name: self.x[:, k] for k, name in enumerate(self.state_names)})

    def __repr__(self):
        end = self.t[-1] if len(self.t) else 0.0
        text = (f"Trajectory: {len(self.t)} rows, t from 0 to {end:.6g}, {len(self.events)} events; "
                f"state ({', '.join(self.state_names)}); status {self.status}")
        return text + (f": {self.message}" if self.message else "")


def simulate(system, t_end=None, sample_step=None, x0=None, max_events=200000,
             integrator="auto", progress=None):
    """One trajectory from t = 0, as vicont simulate: t_end 20 forcing periods and a sample
    every T/200 unless given, from x0 (default the model's initial state), stopping with a
    failure status after max_events events."""
    return Trajectory(_core.simulate(core_of(system), t_end, sample_step, x0, max_events,
                                     integrator, progress_argument(progress)))
