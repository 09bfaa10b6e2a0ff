"""libcont.diagram: the hybrid bifurcation diagram of vicont diagram."""
import numpy as np

from . import _core
from ._tables import ColumnTable, number, progress_argument
from .sweep import SweepResult
from .system import core_of


class DiagramBranch(ColumnTable):
    """A branch continued where integration settled on a stable orbit: n, p (impacts where
    it was found), found_at, stable_until and lost_by (where its stable stretch from
    found_at ended, and why), rejoined (the later stretches integration settled on it
    again: dicts with at, stable_until, lost_by), last_stable_state, status,
    stop_reason and stability_warnings (as Branch's) of its continuation. Columns, one row per branch point: the parameter,
    stable, the point data of continue_branch (A_max:..., impacts, spectral_radius,
    min_gap, slowest_impact, section_clearance, mu<k>:re/im), section_phase and the state
    on that section. stroboscopic[row] is the orbit at t = kT (mod nT), a row per lap k,
    where the integration's Poincare samples lie; special_points are dicts (type,
    parameter, after_row, section_phase, state, data, stroboscopic)."""

    def __init__(self, data, parameter):
        self.parameter = parameter
        for name in ("n", "p", "found_at", "stable_until", "lost_by", "last_stable_state",
                     "status", "stop_reason", "stability_warnings"):
            setattr(self, name, data[name])
        self.rejoined = [dict(r) for r in data["rejoined"]]
        self.columns = dict(data["columns"])
        self.stroboscopic = list(data["stroboscopic"])
        self.special_points = [dict(s) for s in data["special_points"]]

    def __repr__(self):
        again = "".join(f"; settled on again at {number(r['at'], 6)}, stable until "
                        f"{number(r['stable_until'], 8)} ({r['lost_by']})" for r in self.rejoined)
        return (f"DiagramBranch n = {self.n} (p = {self.p}) found at {number(self.found_at, 6)}, "
                f"stable until {number(self.stable_until, 8)} ({self.lost_by}){again}; "
                f"{len(self)} points, {len(self.special_points)} special points")


class DiagramResult:
    """branches (DiagramBranch, in the order found) and integration (a SweepResult of the
    direct-integration points, in the order computed); failed counts the integration
    points whose flow failed."""

    def __init__(self, data):
        self.parameter = data["parameter"]
        self.state_names = list(data["state_names"])
        self.branches = [DiagramBranch(b, self.parameter) for b in data["branches"]]
        integration = dict(data["integration"])
        integration.update(parameter=self.parameter, second="", state_names=self.state_names,
                           status="points failed" if data["failed"] else "complete",
                           message="", complete=True, failed=data["failed"])
        self.integration = SweepResult(integration)
        self.failed = data["failed"]

    def __repr__(self):
        lines = [f"DiagramResult in {self.parameter}: {len(self.branches)} branches, "
                 f"{len(self.integration)} integration points, {self.failed} failed"]
        lines += ["  " + repr(b) for b in self.branches]
        return "\n".join(lines)


def diagram(system, parameter, frm, to, steps=61, *, transient=500, periods=500, max_period=16,
            samples=50, initial_step=None, max_step=None, x0=None, integrator="auto",
            progress=None):
    """The hybrid diagram of vicont diagram: along `steps` values from frm to to the settled
    motion is integrated (following the attractor, from x0 or the default state at the
    first) with its Lyapunov spectrum; where it settles on a stable z = p/n orbit, the
    orbit's branch is continued past its loss of stability (steps initial_step and
    max_step, by default |to - frm| / 100 and / 20), and the grid points on its stable
    stretch are not integrated. An orbit found on a branch already continued extends that
    branch's `rejoined` instead. Results equal vicont diagram's for the same inputs."""
    arguments = _core.DiagramArguments(steps, transient, periods, max_period, samples,
                                       initial_step, max_step, x0, integrator)
    return DiagramResult(_core.diagram(core_of(system), parameter, frm, to, arguments,
                                       progress_argument(progress)))
