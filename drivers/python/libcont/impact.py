"""libcont.impact: the closed-form Hertz impact with positional friction."""
import numpy as np

from . import _core
from ._tables import number
from .system import System


class ImpactResult:
    """closed_form and ode: the characteristics x_c, P_c, P_c_star, t_c, t_y, restitution
    and rebound_velocity, by Ateb functions and by integrating the two-stage equation;
    relative_differences between them; profile(t) gives x, v, P of the closed form."""

    def __init__(self, data, system):
        self._system = system
        self.closed_form = dict(data["closed_form"])
        self.ode = dict(data["ode"])
        self.v0 = data["v0"]
        self.mass = data["mass"]
        self.ok = data["ok"]
        self.status = data["status"]
        self.message = data["message"]

    @property
    def relative_differences(self):
        return {k: abs(self.ode[k] - v) / abs(v) if v else abs(self.ode[k])
                for k, v in self.closed_form.items()}

    def profile(self, t=None):
        """x(t), v(t), P(t) of the closed form (default: 400 times over the impact)."""
        if t is None:
            t = np.linspace(0.0, self.closed_form["t_y"], 401)
        return dict(_core.impact_profile(self._system._core, np.asarray(t, dtype=float)))

    def __getitem__(self, name):
        return self.closed_form[name]

    def __repr__(self):
        shown = ", ".join(f"{k} = {number(v, 8)}" for k, v in self.closed_form.items())
        worst = max(self.relative_differences.values())
        return (f"ImpactResult (v0 = {number(self.v0)}): {shown}; ODE within {worst:.2g}"
                + ("" if self.ok else f"; ODE {self.status}: {self.message}"))


def impact(v0=None, integrator="auto", **parameters):
    """One impact of the hertz-friction system with `parameters` (M, Kr, geometry, alpha,
    c, ...) at impact velocity v0 (default its own), as vicont impact."""
    if v0 is not None:
        parameters["v0"] = v0
    system = System("hertz-friction", **parameters)
    return ImpactResult(_core.impact(system._core, integrator), system)
