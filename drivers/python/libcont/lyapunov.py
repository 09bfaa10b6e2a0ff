"""libcont.lyapunov: the Lyapunov spectrum and the motion's type z = p/n."""
from . import _core
from ._tables import number, numbers, progress_argument
from .system import core_of


class LyapunovResult:
    """exponents (descending; -inf where sticking collapsed the tangent space),
    exponent_sum, their standard errors by batch means exponent_errors and
    exponent_sum_error (NaN with fewer than two batches) and the batches, z = (p, n) and z_text "p/n" (None when not periodic), a_i (impacts per
    period), a_e (energy change at impacts per period), v_r (impact velocities), poincare
    (section samples), final_state, status."""

    def __init__(self, data):
        self.exponents = data["exponents"]
        self.exponent_sum = data["exponent_sum"]
        self.exponent_errors = data["exponent_errors"]
        self.exponent_sum_error = data["exponent_sum_error"]
        self.batches = data["batches"]
        self.p = data["p"]
        self.n = data["n"]
        self.a_i = data["a_i"]
        self.a_e = data["a_e"]
        self.v_r = data["v_r"]
        self.impact_times = data["impact_times"]
        self.velocity_summary = dict(data["velocity_summary"])
        self.poincare = data["poincare"]
        self.final_state = data["final_state"]
        self.final_time = data["final_time"]
        self.averaged_periods = data["averaged_periods"]
        self.period = data["period"]
        self.state_names = list(data["state_names"])
        self.status = data["status"]
        self.message = data["message"]
        self.ok = data["ok"]

    @property
    def z(self):
        return (self.p, self.n)

    @property
    def z_text(self):
        return f"{self.p}/{self.n}" if self.n > 0 else None

    def __repr__(self):
        return (f"LyapunovResult: exponents [{numbers(self.exponents, 9)}] "
                f"(standard errors [{numbers(self.exponent_errors, 2)}]), "
                f"z = {self.z_text or 'not periodic'}, a_i = {number(self.a_i, 6)}, "
                f"a_e = {number(self.a_e, 6)}, {len(self.v_r)} impacts, "
                f"{self.averaged_periods} periods averaged; status {self.status}"
                + (f": {self.message}" if self.message else ""))


def lyapunov(system, periods=1000, transient=1000, max_period=16, x0=None, integrator="auto",
             progress=None, batches=20):
    """The Lyapunov spectrum as vicont lyapunov: `transient` forcing periods, then the
    average over `periods`, z = p/n with n up to max_period, from x0 at t = 0 (default the
    model's initial state); the standard errors from `batches` batches of the averaged
    periods. The spectrum has no progress reports; Ctrl-C ends it within an
    integration step."""
    return LyapunovResult(_core.lyapunov(core_of(system), transient, periods, max_period,
                                         batches, x0, integrator, progress_argument(progress)))
