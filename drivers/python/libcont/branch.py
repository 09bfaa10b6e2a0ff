"""libcont.continue_branch: branches of periodic orbits, their special points, restarts
and switches."""
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from . import _core
from ._tables import ColumnTable, number, progress_argument
from .labels import branch_labels, find_label
from .system import System, core_of


@dataclass
class SpecialPoint:
    """A located special point: label ("PD1"), type ("period-doubling"), kind (a
    grazing's: "impact-velocity", ...), parameter value, state on its section, Floquet
    multipliers, index (the branch row before it), amplitudes, p, stable (of the branch
    arriving at the point, its index row: at the point a multiplier is on the unit circle),
    stable_after (of the branch leaving it, the next row; None at the branch's end)."""
    label: str
    type: str
    kind: str
    parameter: float
    state: np.ndarray = field(repr=False)
    multipliers: np.ndarray = field(repr=False)
    index: int
    amplitudes: dict
    p: int
    stable: bool
    spectral_radius: float = field(repr=False)
    section_phase: float = field(repr=False)
    min_gap: float = field(repr=False)
    slowest_impact: float = field(repr=False)
    stable_after: Optional[bool] = field(default=None, repr=False)

    def __repr__(self):
        kind = f" ({self.kind})" if self.kind else ""
        amplitudes = ", ".join(f"A_max({k}) = {number(v)}" for k, v in self.amplitudes.items())
        return (f"{self.label}: {self.type}{kind} at {number(self.parameter, 12)}, {amplitudes}, "
                f"p = {self.p}, {'stable' if self.stable else 'unstable'}, row {self.index}")


def _settings(max_points, initial_step, max_step, min_step, locate_tolerance, natural,
              stop_at_grazing, integrator, corrector_tolerance=None, at=None):
    at = [] if at is None else [float(v) for v in np.atleast_1d(at)]
    return _core.BranchSettings(max_points, initial_step, max_step, min_step, locate_tolerance,
                                corrector_tolerance, natural, stop_at_grazing, integrator, at)


class Branch(ColumnTable):
    """A branch of periodic orbits z = p/n in one parameter.

    columns: the parameter's values (br[br.parameter]), the state on each row's section (by
    state name), section_phase, the point data by name (A_max:x, impacts, spectral_radius,
    min_gap, slowest_impact, section_clearance, mu0:re, ...) and stable (bool). parameter is
    the continued parameter's name, period n, special_points the located points, status and
    stop_reason how it ended; stability_warnings the rows after which the orbits' stability
    changes with no special point before the next row (a jump to another sheet of the
    branch, or a missed bifurcation: a smaller max_step shows which)."""

    def __init__(self, run):
        self._run = run
        data = run.data()
        self.parameter = data["parameter"]
        self.columns = dict(data["columns"])
        self.tangents = data["tangents"]
        self.state_names = list(data["state_names"])
        self.data_names = list(data["data_names"])
        self.period = data["period"]
        self.status = data["status"]
        self.stop_reason = data["stop_reason"]
        self.stability_warnings = list(data["stability_warnings"])
        self.ok = data["ok"]
        self.section_moves = data["section_moves"]
        self.failure = data["failure"]
        self.range = (data["from"], data["to"])
        points = data["special_points"]
        labels = branch_labels(p["type"] for p in points)
        self.special_points = [
            SpecialPoint(label, p["type"], p["kind"], p["parameter"], p["state"], p["multipliers"],
                         p["index"], dict(p["amplitudes"]), p["p"], p["stable"],
                         p["spectral_radius"], p["section_phase"], p["min_gap"], p["slowest_impact"],
                         p["stable_after"])
            for label, p in zip(labels, points)]

    @property
    def system(self):
        """The system at the branch's start (the continued parameter at `from`)."""
        return System(self._run.system)

    @property
    def values(self):
        return self.columns[self.parameter]

    def point(self, label):
        """The special point labelled `label` ("PD1")."""
        return self.special_points[find_label(self.special_points, label, "branch")]

    def restart(self, label_or_row, parameter=None, frm=None, to=None, *, max_points=2000,
                initial_step=None, max_step=None, min_step=None, locate_tolerance=None,
                corrector_tolerance=None, natural=False, stop_at_grazing=False, integrator="auto",
                at=None, progress=None):
        """The branch continued from a special point (label) or a row (int), as vicont
        continue --restart: in the same parameter along the saved tangent towards `to`
        (default this branch's end), or in another `parameter` from the point's orbit
        (from its current value, or `frm`, towards `to`). At a grazing the restart leaves
        from the row before it. `at`: as for continue_branch."""
        special, row = self._which(label_or_row)
        if to is None:
            if parameter not in (None, self.parameter):
                raise _core.InputError(f"to is required: the end of {parameter} the branch runs towards")
            to = self.range[1]
        settings = _settings(max_points, initial_step, max_step, min_step, locate_tolerance,
                             natural, stop_at_grazing, integrator, corrector_tolerance, at)
        return Branch(_core.restart_branch(self._run, special, row, parameter or "", frm, to,
                                           settings, progress_argument(progress)))

    def switch(self, label, to=None, *, max_points=2000, initial_step=None, max_step=None,
               min_step=None, locate_tolerance=None, corrector_tolerance=None, natural=False,
               stop_at_grazing=False, integrator="auto", at=None, progress=None):
        """The doubled (2n) branch of the period doubling `label` ("PD1"), towards `to`
        (default this branch's end), as vicont continue --restart RUN:PD1 --switch. `at`:
        as for continue_branch."""
        special = find_label(self.special_points, label, "branch")
        settings = _settings(max_points, initial_step, max_step, min_step, locate_tolerance,
                             natural, stop_at_grazing, integrator, corrector_tolerance, at)
        return Branch(_core.switch_branch(self._run, special, self.range[1] if to is None else to,
                                          settings, progress_argument(progress)))

    def curve(self, label, param2, frm, to, **options):
        """The special point `label` continued in `param2`: libcont.curve(self, ...)."""
        from .curve import curve
        return curve(self, label, param2, frm, to, **options)

    def _which(self, label_or_row):
        if isinstance(label_or_row, (int, np.integer)) and not isinstance(label_or_row, bool):
            return -1, int(label_or_row)
        if isinstance(label_or_row, str) and label_or_row.strip().lstrip("-").isdigit():
            return -1, int(label_or_row)
        if isinstance(label_or_row, str):
            return find_label(self.special_points, label_or_row, "branch"), -1
        raise TypeError("expected a special point's label (\"PD1\") or a row index")

    def __repr__(self):
        values = self.values
        span = "no rows"
        if len(values):
            span = f"{number(values[0])} to {number(values[-1])}"
            if {values.min(), values.max()} != {values[0], values[-1]}:  # it turned back
                span += f" (within [{number(values.min())}, {number(values.max())}])"
        lines = [f"Branch of n = {self.period} orbits in {self.parameter}: {len(self)} rows, "
                 f"{self.parameter} {span}; {self.stop_reason or self.status}"]
        lines += [f"  {p!r}" for p in self.special_points]
        return "\n".join(lines)


def continue_branch(system, parameter, frm, to, period=0, *, transient=300, max_period=16,
                    multiple=False, x0=None, max_points=2000, initial_step=None, max_step=None,
                    min_step=None, locate_tolerance=None, corrector_tolerance=None, natural=False,
                    stop_at_grazing=False, integrator="auto", at=None, progress=None):
    """The branch of periodic orbits in `parameter` from `frm` towards `to`, as vicont
    continue: the orbit at frm found from x0 (default the model's initial state) after
    `transient` periods, n read from the settled motion (period=0) or given; then traced
    by pseudo-arclength continuation (natural=True: equal parameter steps), through
    grazings (stop_at_grazing=True ends there), with steps scaled to |to - frm| unless
    given. `at`: parameter values (a number or a list) at which the branch's orbit is also
    computed, exactly there, as special points UZ1, UZ2, ... (vicont continue --at). The
    system itself is not changed."""
    search = _core.OrbitSearch(transient, period, max_period, multiple, integrator, x0)
    settings = _settings(max_points, initial_step, max_step, min_step, locate_tolerance, natural,
                         stop_at_grazing, integrator, corrector_tolerance, at)
    return Branch(_core.continue_branch(core_of(system), parameter, frm, to, search, settings,
                                        progress_argument(progress)))
