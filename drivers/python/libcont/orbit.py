"""libcont.orbit: one periodic orbit z = p/n, its multipliers and measures."""
from . import _core
from ._tables import number, numbers, progress_argument
from .system import core_of


class OrbitResult:
    """state (on the section t = phase mod T), phase, period n, impacts p, z_text "p/n",
    multipliers (complex, by decreasing modulus), spectral_radius, stable, measures
    (A_max by coordinate, impacts, slowest_impact, min_gap, sticks), converged and how
    (reason, iterations, residual_history), and one pass of the orbit: t, x."""

    def __init__(self, data):
        self.converged = data["converged"]
        self.status = data["status"]
        self.message = data["message"]
        self.reason = data["reason"]
        self.state = data["state"]
        self.phase = data["phase"]
        self.n = data["n"]
        self.p = data["p"]
        self.period_note = data["period_note"]
        self.iterations = data["iterations"]
        self.residual_history = list(data["residual_history"])
        self.multipliers = data["multipliers"]
        self.spectral_radius = data["spectral_radius"]
        self.stable = data["stable"]
        self.state_names = list(data["state_names"])
        self.measures = dict(data["measures"])
        self.measures["A_max"] = dict(self.measures["A_max"])
        self.t = data["t"]
        self.x = data["x"]

    period = property(lambda self: self.n)
    impacts = property(lambda self: self.p)

    @property
    def z_text(self):
        return f"{self.p}/{self.n}"

    def __repr__(self):
        if not self.converged:
            return f"OrbitResult: no orbit ({self.status}: {self.message or self.reason})"
        amplitudes = ", ".join(f"A_max({k}) = {number(v)}" for k, v in self.measures["A_max"].items())
        return (f"OrbitResult: z = {self.z_text} ({self.period_note}), "
                f"{'stable' if self.stable else 'unstable'}, multipliers [{numbers(self.multipliers)}], "
                f"{amplitudes}; state [{numbers(self.state, 10)}] at phase {number(self.phase, 6)}")


def orbit(system, period=0, transient=300, max_period=16, multiple=False, x0=None,
          integrator="auto", progress=None):
    """The periodic orbit as vicont orbit finds it: `transient` forcing periods from x0
    (default the model's initial state), n read from the settled motion (period=0) or
    given, single (or multiple) shooting, moved to a quiet section."""
    search = _core.OrbitSearch(transient, period, max_period, multiple, integrator, x0)
    return OrbitResult(_core.orbit(core_of(system), search, progress_argument(progress)))
