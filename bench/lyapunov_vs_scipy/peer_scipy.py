#!/usr/bin/python3
"""The peer of bench 1: the Lyapunov spectrum of the hard moving-base impact oscillator
written the way most people write it with scipy: solve_ivp with a terminal
event at the impact, Newton restitution at each impact, the tangent (variational) flow
integrated with the state and mapped through the saltation matrix at each impact, a QR
re-orthonormalisation once per forcing period (Benettin's method as Mueller extended it
to impacts).

    m x'' + c x' + k x = k a sin(omega t),  gap h = x - a sin(omega t) - d >= 0,
    at h = 0 with v_r = x' - a omega cos(omega t) < 0:  v_r+ = -r v_r-.

Usage: peer_scipy.py --omega 2,4,... [--transient N] [--periods N] [--rtol R] [--atol A]
Prints one JSON object: per omega the exponents, impacts, steps; and the CPU and wall time.
Needs /usr/bin/python3 with Debian's python3-scipy and python3-numpy.
"""
import argparse
import json
import math
import time

import numpy as np
from scipy.integrate import solve_ivp

M, K, C, A, D = 1.0, 1.0, 0.23, 0.0025, 0.0


class Oscillator:
    def __init__(self, omega, r, rtol, atol):
        self.omega, self.r, self.rtol, self.atol = omega, r, rtol, atol
        self.steps = 0
        self.impacts = 0

    def base(self, t):
        return A * math.sin(self.omega * t) + D

    def base_velocity(self, t):
        return A * self.omega * math.cos(self.omega * t)

    def acceleration(self, t, x, v):
        return (K * A * math.sin(self.omega * t) - C * v - K * x) / M

    def rhs(self, t, y):
        x, v = y[0], y[1]
        dy = np.empty_like(y)
        dy[0] = v
        dy[1] = self.acceleration(t, x, v)
        if y.size > 2:  # tangent columns, Phi' = J Phi, J = [[0, 1], [-k/m, -c/m]]
            phi = y[2:].reshape(2, 2)
            dphi = np.array([[0.0, 1.0], [-K / M, -C / M]]) @ phi
            dy[2:] = dphi.ravel()
        return dy

    def gap(self, t, y):
        return y[0] - self.base(t)

    def impact(self, t, y, tangent):
        """Restitution and, with the tangent, the saltation matrix at an impact at t."""
        x, v = y[0], y[1]
        w = self.base_velocity(t)
        v_plus = w - self.r * (v - w)
        if tangent:
            dg_dx = np.array([[1.0, 0.0], [0.0, -self.r]])
            dg_dt = np.array([0.0, -(1.0 + self.r) * A * self.omega ** 2 * math.sin(self.omega * t)])
            f_minus = np.array([v, self.acceleration(t, x, v)])
            f_plus = np.array([v_plus, self.acceleration(t, x, v_plus)])
            dh_dx = np.array([1.0, 0.0])
            dh_dt = -w
            s = dg_dx + np.outer(f_plus - dg_dx @ f_minus - dg_dt, dh_dx) / (dh_dx @ f_minus + dh_dt)
            phi = s @ y[2:].reshape(2, 2)
            y = np.concatenate(([x, v_plus], phi.ravel()))
        else:
            y = np.array([x, v_plus])
        self.impacts += 1
        return y

    def advance(self, t0, t1, y, tangent):
        """Integrates from t0 to t1 through every impact."""
        event = lambda t, yy: self.gap(t, yy)
        event.terminal = True
        event.direction = -1
        t = t0
        while t < t1:
            # A body resting on the base at the start with the base moving up into it
            # (the default start, x = x' = 0 at t = 0) is an impact at once.
            if self.gap(t, y) <= 0.0 and y[1] - self.base_velocity(t) < 0.0:
                y = self.impact(t, y, tangent)
            sol = solve_ivp(self.rhs, (t, t1), y, method="DOP853", events=event,
                            rtol=self.rtol, atol=self.atol)
            self.steps += sol.t.size - 1
            if sol.status == 1:  # stopped at the impact
                t = sol.t_events[0][0]
                y = self.impact(t, sol.y_events[0][0], tangent)
            elif sol.status == 0:
                t, y = t1, sol.y[:, -1]
            else:
                raise RuntimeError("solve_ivp failed at omega = %g: %s" % (self.omega, sol.message))
        return y


def lyapunov(omega, transient, periods, r, rtol, atol):
    o = Oscillator(omega, r, rtol, atol)
    period = 2.0 * math.pi / omega
    y = np.zeros(2)
    t = 0.0
    for _ in range(transient):
        y = o.advance(t, t + period, y, False)
        t += period
    y = np.concatenate((y, np.eye(2).ravel()))
    sums = np.zeros(2)
    for _ in range(periods):
        y = o.advance(t, t + period, y, True)
        t += period
        q, rr = np.linalg.qr(y[2:].reshape(2, 2))
        sums += np.log(np.abs(np.diag(rr)))
        y = np.concatenate((y[:2], q.ravel()))
    exponents = sorted(sums / (periods * period), reverse=True)
    return {"omega": omega, "exponents": exponents, "impacts": o.impacts, "steps": o.steps}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--omega", required=True, help="values of omega, separated by commas")
    parser.add_argument("--transient", type=int, default=1000)
    parser.add_argument("--periods", type=int, default=1000)
    parser.add_argument("--r", type=float, default=1.0)
    parser.add_argument("--rtol", type=float, default=1e-9)
    parser.add_argument("--atol", type=float, default=1e-12)
    args = parser.parse_args()
    wall, cpu = time.perf_counter(), time.process_time()
    points = [lyapunov(float(e), args.transient, args.periods, args.r, args.rtol, args.atol)
              for e in args.omega.split(",")]
    print(json.dumps({"points": points, "wall_seconds": time.perf_counter() - wall,
                      "cpu_seconds": time.process_time() - cpu,
                      "rtol": args.rtol, "atol": args.atol}))


if __name__ == "__main__":
    main()
