"""libcont.curve: a special point of a branch continued in a second parameter, its
codimension-two points, and the curves switched onto at them."""
from dataclasses import dataclass, field

import numpy as np

from . import _core
from ._tables import ColumnTable, number, progress_argument
from .labels import curve_labels, find_label
from .system import System


@dataclass
class CurvePoint:
    """A codimension-two point of a curve: label ("RGPD1"), type ("resonant-grazing-flip"),
    both parameter values, state, multipliers, index (the curve row before it), the kinds
    of curve that can be switched onto there, and a grazing's error estimate of p1."""
    label: str
    type: str
    first: float
    second: float
    state: np.ndarray = field(repr=False)
    multipliers: np.ndarray = field(repr=False)
    index: int
    switches: list
    error_estimate: float = field(repr=False)
    section_phase: float = field(repr=False)
    auxiliary: np.ndarray = field(repr=False)

    def __repr__(self):
        switches = f", switch to {' or '.join(self.switches)}" if self.switches else ""
        return (f"{self.label}: {self.type} at ({number(self.first, 12)}, {number(self.second, 12)}), "
                f"row {self.index}{switches}")


def _settings(max_points, initial_step, max_step, min_step, locate_tolerance, integrator,
              corrector_tolerance=None):
    return _core.CurveSettings(max_points, initial_step, max_step, min_step, locate_tolerance,
                               corrector_tolerance, integrator)


class OrbitCurve(ColumnTable):
    """A fold, period-doubling, Neimark-Sacker or grazing curve in two parameters.

    columns: both parameters by name (first = the branch's, second = the continued one),
    the state on each row's section, section_phase, the auxiliary unknowns (kappa of a
    Neimark-Sacker curve, tangency_time of a grazing curve), test values (test:NAME),
    impacts, slowest_impact, min_gap, spectral_radius. points: the codimension-two points."""

    def __init__(self, run):
        self._run = run
        data = run.data()
        self.kind = data["kind"]
        self.first = data["first"]
        self.second = data["second"]
        self.period = data["period"]
        self.columns = dict(data["columns"])
        self.state_names = list(data["state_names"])
        self.status = data["status"]
        self.stop_reason = data["stop_reason"]
        self.failure = data["failure"]
        self.ok = data["ok"]
        self.range = tuple(data["range"])
        self.first_range = tuple(data["first_range"])
        points = data["points"]
        labels = curve_labels(p["type"] for p in points)
        self.points = [CurvePoint(label, p["type"], p["first"], p["second"], p["state"],
                                  p["multipliers"], p["index"], list(p["switches"]),
                                  p["error_estimate"], p["section_phase"], p["auxiliary"])
                       for label, p in zip(labels, points)]

    @property
    def system(self):
        return System(self._run.system)

    def point(self, label):
        return self.points[find_label(self.points, label, "curve")]

    def switch(self, label, kind, frm=None, to=None, *, p1_from=None, p1_to=None, max_points=500,
               initial_step=None, max_step=None, min_step=None, locate_tolerance=None,
               corrector_tolerance=None, integrator="auto", progress=None):
        """The curve of `kind` ("fold", "period-doubling", "grazing") issuing from the point
        `label` of this curve, in the same parameters, towards `to` (default: this curve's
        ranges), as vicont curve --restart CURVE:LABEL --kind KIND."""
        index = find_label(self.points, label, "curve")
        return OrbitCurve(_core.switch_curve(
            self._run, index, kind, frm, to, p1_from, p1_to,
            _settings(max_points, initial_step, max_step, min_step, locate_tolerance, integrator,
                      corrector_tolerance),
            progress_argument(progress)))

    def __repr__(self):
        lines = [f"OrbitCurve ({self.kind}, n = {self.period}) in ({self.first}, {self.second}): "
                 f"{len(self)} rows; {self.stop_reason or self.status}"]
        lines += [f"  {p!r}" for p in self.points]
        return "\n".join(lines)


def curve(branch, label, param2, frm, to, *, p1_from=None, p1_to=None, max_points=500,
          initial_step=None, max_step=None, min_step=None, locate_tolerance=None,
          corrector_tolerance=None, integrator="auto", progress=None):
    """The special point `label` (LPk, PDk, NSk or GRk) of `branch` continued in `param2`
    from its current value within [frm, to], towards `to`, with the branch's parameter free
    within [p1_from, p1_to] (default the branch's range), as vicont curve --restart RUN:LABEL.
    A curve has no progress reports; Ctrl-C ends it within an integration step."""
    special = find_label(branch.special_points, label, "branch")
    return OrbitCurve(_core.trace_curve(
        branch._run, special, param2, frm, to, p1_from, p1_to,
        _settings(max_points, initial_step, max_step, min_step, locate_tolerance, integrator,
                  corrector_tolerance),
        progress_argument(progress)))
