"""libcont.sweep: brute-force bifurcation diagrams in one parameter or over a grid of two."""
import numpy as np

from . import _core
from ._tables import ColumnTable, number, progress_argument
from .system import core_of


class SweepResult(ColumnTable):
    """One row per point: columns the swept parameter(s), direction, initial_condition,
    p and n (z = p/n; n = 0 not periodic), lambda_1 .. lambda_d (the exponents, also as the
    matrix `exponents`), lambda_1_error .. lambda_d_error (their standard errors by batch
    means, also as the matrix `exponent_errors`), exponent_sum, exponent_sum_error,
    largest_exponent, a_i, a_e, averaged_periods, status
    and regime ("periodic", "chaotic", "non-periodic", "failed"); samples (the kept
    Poincare samples of each point) and impact_velocities; status, message, complete."""

    def __init__(self, data):
        self.parameter = data["parameter"]
        self.second = data["second"] or None
        self.state_names = list(data["state_names"])
        self.exponents = data["exponents"]
        self.exponent_errors = data["exponent_errors"]
        columns = dict(data["columns"])
        for name in ("direction", "status", "regime"):
            columns[name] = np.array(columns[name], dtype=object)
        head = [self.parameter] + ([self.second] if self.second else [])
        ordered = {name: columns.pop(name) for name in head + ["direction", "initial_condition", "p", "n"]}
        for k in range(self.exponents.shape[1]):
            ordered[f"lambda_{k + 1}"] = self.exponents[:, k]
        for k in range(self.exponent_errors.shape[1]):
            ordered[f"lambda_{k + 1}_error"] = self.exponent_errors[:, k]
        ordered.update(columns)
        self.columns = ordered
        self.samples = list(data["samples"])
        self.impact_velocities = list(data["impact_velocities"])
        self.messages = list(data["messages"])
        self.status = data["status"]
        self.message = data["message"]
        self.complete = data["complete"]
        self.failed = data["failed"]

    def __repr__(self):
        values = self.columns[self.parameter]
        span = f"{number(values.min())} to {number(values.max())}" if len(values) else "-"
        periodic = int(np.sum(self.columns["n"] > 0))
        chaotic = int(np.sum(self.columns["regime"] == "chaotic"))
        grid = f" x {self.second}" if self.second else ""
        return (f"SweepResult in {self.parameter}{grid}: {len(self)} points, {self.parameter} {span}; "
                f"{periodic} periodic, {chaotic} chaotic, {self.failed} failed; {self.status}"
                + (f" ({self.message})" if self.message else ""))


def sweep(system, parameter, frm, to, steps=101, *, second=None, direction=None, follow=False,
          initial_states=None, threads=1, transient=1000, periods=1000, max_period=16,
          samples=None, integrator="auto", progress=None):
    """The bifurcation diagram of vicont sweep: at each of `steps` values from frm to to, a
    transient and the Lyapunov spectrum over `periods` forcing periods, z = p/n, a_i, a_e,
    the impact velocities. second=(name, from, to[, steps]) makes it a grid (default 101
    steps). follow=True starts each point from the previous one's final state (direction
    up, down or both); threads run the points in parallel with identical results."""
    second_name, second_from, second_to, second_steps = "", 0.0, 0.0, 101
    if second is not None:
        if isinstance(second, str) or len(second) not in (3, 4):
            raise _core.InputError("second: expected (name, from, to) or (name, from, to, steps)")
        second_name, second_from, second_to = second[0], second[1], second[2]
        if len(second) == 4:
            second_steps = second[3]
    arguments = _core.SweepArguments(steps, second_name, second_from, second_to, second_steps,
                                     direction or "", follow, initial_states, threads, transient,
                                     periods, max_period, samples or 0, integrator)
    return SweepResult(_core.sweep(core_of(system), parameter, frm, to, arguments,
                                   progress_argument(progress)))
