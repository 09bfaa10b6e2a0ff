"""Independent reference values for the two-body Hertz loading curve (bench/loading_curve_vs_auto.sh).

Nothing of libcont is used: the model is written out again from its definition
(doc/reproduction.md, "Two-body system with a rigid stop"), integrated by scipy's solve_ivp
(DOP853) at tight tolerances with the variational equations, and
- the grazing point is the closed form of the linear response: below contact the system is
  linear, its steady state X = Re(Z e^{i omega t}) with (K - omega^2 M + i omega C) Z = b,
  and the largest overlap |Z1 - Z2| lambda - D vanishes at lambda_g = D / |Z1 - Z2|(lambda = 1);
- the branch of T-periodic orbits is followed from just past grazing by pseudo-arclength
  continuation of single shooting on the period map (Newton with the monodromy and
  dP/dlambda from the variational equations);
- folds are located as zeros of det(M - I), Neimark-Sacker points as zeros of the
  bialternate product prod_{i<j} (mu_i mu_j - 1) of the Floquet multipliers at which a
  complex pair lies on the unit circle, by the Illinois secant on the branch between two
  points where the test changes sign (each trial point a Newton solve on the hyperplane
  across the chord);
- A_max(x1) = (max x1 - min x1) / 2 over the orbit at lambda = 1, 2, 3 (extrema located as
  events v1 = 0 on the dense output).

The Hertz force K max(0, z)^(3/2) is C^1, so the tangent flow needs no saltation; the
integration is restarted at every contact start and end (z = 0), where the field is not C^2.

    /usr/bin/python3 bench/loading_curve_reference.py > bench/loading_curve_reference.json

(Debian's python3 with python3-scipy) takes about 20 minutes on one core, most of it in
the shallow contacts next to grazing; the progress goes to stderr. A Neimark-Sacker test
zero whose multipliers are all real (a neutral saddle, two of them on this branch) is
reported and left out. bench/loading_curve_compare.py and tests/test_loading_curve_reference.cpp
check both codes against the stored values.
"""
import json
import math
import sys

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

# The model (doc/reproduction.md): masses, natural frequencies, damping ratios, gap,
# force amplitude and frequency; Hertz stiffness of two steel spheres' contact.
M1, M2 = 1000.0, 100.0
W1, W2 = 6.283, 4.727
XI1, XI2 = 0.036, 0.20
GAP, F0, OMEGA = 0.05, 400.0, 6.0
E_MOD, POISSON, A_CURV, B_CURV, Q_HERTZ = 2.1e11, 0.3, 0.5, 0.5, 0.318
COMPLIANCE = (1.0 - POISSON**2) / (math.pi * E_MOD)
K_HERTZ = (4.0 / 3.0) * Q_HERTZ / (2.0 * COMPLIANCE * math.sqrt(A_CURV + B_CURV))
CHI = M2 / M1
K1, K2 = W1**2, W2**2
C1, C2 = 2.0 * XI1 * W1, 2.0 * XI2 * W2
PERIOD = 2.0 * math.pi / OMEGA

RTOL, ATOL_STATE, ATOL_TANGENT = 1e-13, 1e-14, 1e-12
NEWTON_TOLERANCE = 1e-12   # on |P(x) - x|
LOCATE_TOLERANCE = 1e-13   # bracket width in lambda


def grazing_lambda():
    """Closed form: lambda at which the linear response's largest overlap reaches zero."""
    # X = (x1, x2 - D): X'' + C X' + K X = (F0 lambda / m1, 0) cos(omega t), per unit mass.
    stiffness = np.array([[K1 + K2 * CHI, -K2 * CHI], [-K2, K2]])
    damping = np.array([[C1 + C2 * CHI, -C2 * CHI], [-C2, C2]])
    a = stiffness - OMEGA**2 * np.eye(2) + 1j * OMEGA * damping
    z = np.linalg.solve(a, np.array([F0 / M1, 0.0]))
    # overlap x1 - x2 = X1 - X2 - D, amplitude |Z1 - Z2| lambda
    return GAP / abs(z[0] - z[1]), z


def field(t, y, lam, tangent):
    x1, x2, v1, v2 = y[0], y[1], y[2], y[3]   # x2: displacement of body 2 from rest
    z = x1 - x2 - GAP
    if z > 0.0:
        root = math.sqrt(z)
        force, slope = K_HERTZ * z * root, 1.5 * K_HERTZ * root
    else:
        force, slope = 0.0, 0.0
    load = F0 * math.cos(OMEGA * t)
    a1 = (-C1 * v1 - K1 * x1 - C2 * CHI * (v1 - v2) - K2 * CHI * (x1 - x2)
          + (lam * load - force) / M1)
    a2 = -C2 * (v2 - v1) - K2 * (x2 - x1) + force / M2
    if not tangent:
        return np.array([v1, v2, a1, a2])
    jac = np.array([[0.0, 0.0, 1.0, 0.0],
                    [0.0, 0.0, 0.0, 1.0],
                    [-K1 - K2 * CHI - slope / M1, K2 * CHI + slope / M1, -C1 - C2 * CHI, C2 * CHI],
                    [K2 + slope / M2, -K2 - slope / M2, C2, -C2]])
    phi = y[4:].reshape(4, 5)          # columns: d/dx0 (4), d/dlambda
    dphi = jac @ phi
    dphi[2, 4] += load / M1
    return np.concatenate(([v1, v2, a1, a2], dphi.ravel()))


def overlap(t, y, lam, tangent):
    return y[0] - y[1] - GAP


def overlap_rate(t, y, lam, tangent):
    return y[2] - y[3]


def velocity1(t, y, lam, tangent):
    return y[2]


def contact_start(sol, t0, t1):
    """The time in (t0, t1] at which the overlap last rises through zero, from the dense
    output: the free flight's overlap between two of its maxima rises once."""
    times = np.linspace(t0, t1, 201)
    z = np.array([overlap(t, sol(t), 0, 0) for t in times])
    k = max(i for i in range(len(times) - 1) if z[i] <= 0.0)
    return brentq(lambda t: overlap(t, sol(t), 0, 0), times[k], times[k + 1], xtol=1e-15,
                  rtol=4 * np.finfo(float).eps)


def period_map(x, lam, tangent=True, extrema=False):
    """The state after one forcing period from x at t = 0; with tangent, also the 4 x 5
    matrix (monodromy | dP/dlambda); with extrema, the values of x1 where v1 = 0.

    Out of contact the integration stops at every maximum of the overlap as well as at a
    contact start: a contact too shallow for the steps to see a sign change of the overlap
    at their ends is then found from the maximum (located to rounding), and the free
    flight is taken up again at its start."""
    y = np.array(x, dtype=float)
    if tangent:
        y = np.concatenate((y, np.hstack((np.eye(4), np.zeros((4, 1)))).ravel()))
    t, values = 0.0, []
    atol = np.full(y.size, ATOL_STATE)
    atol[4:] = ATOL_TANGENT
    in_contact = overlap(t, y, lam, tangent) > 0.0 or (
        overlap(t, y, lam, tangent) == 0.0 and overlap_rate(t, y, lam, tangent) > 0.0)
    while t < PERIOD:
        if PERIOD - t < 1e-12:  # an event this close to the end: one Euler step, O(1e-24)
            y = y + (PERIOD - t) * field(t, y, lam, tangent)
            break
        crossing = lambda t_, y_, *a: overlap(t_, y_, *a)
        crossing.terminal = True
        crossing.direction = -1.0 if in_contact else 1.0
        events = [crossing]
        if not in_contact:
            peak = lambda t_, y_, *a: overlap_rate(t_, y_, *a)
            peak.terminal = True
            peak.direction = -1.0
            events.append(peak)
        if extrema:
            extremum = lambda t_, y_, *a: velocity1(t_, y_, *a)
            events.append(extremum)
        try:
            sol = solve_ivp(field, (t, PERIOD), y, method="DOP853", rtol=RTOL, atol=atol,
                            events=events, args=(lam, tangent), dense_output=True)
        except ValueError:  # an event at the very start: scipy's dense output fails on it
            sol = solve_ivp(field, (t, PERIOD), y, method="DOP853", rtol=RTOL, atol=atol,
                            events=events, args=(lam, tangent))
        if sol.status < 0:
            raise RuntimeError(sol.message)
        t_end, y_end = sol.t[-1], sol.y[:, -1]
        hit = [i for i in range(len(events) - (1 if extrema else 0)) if len(sol.t_events[i])]
        if sol.status == 1 and hit:
            i = hit[0]
            t_end, y_end = sol.t_events[i][0], sol.y_events[i][0]
            if i == 0:
                in_contact = not in_contact
            elif overlap(t_end, y_end, lam, tangent) > 0.0:  # a shallow contact stepped over
                t_start = contact_start(sol.sol, t, t_end)
                t_end, y_end = t_start, sol.sol(t_start)
                in_contact = True
        if extrema:
            values.extend(v[0] for v, te in zip(sol.y_events[-1], sol.t_events[-1]) if te <= t_end)
        t, y = t_end, y_end
    x_end = y[:4]
    if extrema:
        return x_end, values
    return (x_end, y[4:].reshape(4, 5)) if tangent else x_end


def multipliers(jacobian):
    return np.linalg.eigvals(jacobian[:, :4])


def fold_test(jacobian):
    return float(np.linalg.det(jacobian[:, :4] - np.eye(4)))


def torus_test(jacobian):
    """The bialternate product prod_{i<j} (mu_i mu_j - 1): real, continuous, zero where a
    complex pair crosses the unit circle (and at neutral saddles, mu_i mu_j = 1 with both
    real, which the located point's multipliers tell apart)."""
    mu = multipliers(jacobian)
    product = 1.0 + 0.0j
    for i in range(4):
        for j in range(i + 1, 4):
            product *= mu[i] * mu[j] - 1.0
    return float(product.real)


def is_torus(jacobian):
    mu = multipliers(jacobian)
    return any(abs(m.imag) > 1e-8 and abs(abs(m) - 1.0) < 1e-6 for m in mu)


def correct(u, normal, target):
    """Newton on P(x, lambda) - x = 0, normal . u = target; returns (u, jacobian)."""
    u = np.array(u, dtype=float)
    for _ in range(30):
        x_end, jac = period_map(u[:4], u[4])
        residual = np.concatenate((x_end - u[:4], [normal @ u - target]))
        a = np.vstack((jac - np.hstack((np.eye(4), np.zeros((4, 1)))), normal))
        du = np.linalg.solve(a, -residual)
        u = u + du
        if np.linalg.norm(residual[:4]) < NEWTON_TOLERANCE and np.linalg.norm(du) < 1e-11:
            x_end, jac = period_map(u[:4], u[4])
            return u, jac
    raise RuntimeError(f"no convergence at lambda = {u[4]}")


def tangent_of(jac, previous):
    a = np.hstack((jac[:, :4] - np.eye(4), jac[:, 4:5]))
    _, _, vt = np.linalg.svd(a)
    t = vt[-1]
    return t if t @ previous >= 0.0 else -t


def locate(ua, ub, ga, gb, test):
    """A zero of test between branch points ua and ub: points on the branch at
    d . (u - ua) = s, d the chord's direction, s by the Illinois secant."""
    d = (ub - ua) / np.linalg.norm(ub - ua)
    lo, hi = 0.0, float(d @ (ub - ua))
    glo, ghi = ga, gb
    side = 0
    u = ua
    for _ in range(200):
        s = hi - ghi * (hi - lo) / (ghi - glo)
        if not lo < s < hi:
            s = 0.5 * (lo + hi)
        guess = ua + (s / float(d @ (ub - ua))) * (ub - ua)
        u, jac = correct(guess, d, d @ ua + s)
        g = test(jac)
        if (g > 0) == (glo > 0):
            lo, glo = s, g
            if side == -1:
                ghi *= 0.5
            side = -1
        else:
            hi, ghi = s, g
            if side == 1:
                glo *= 0.5
            side = 1
        ulo = ua + (lo / float(d @ (ub - ua))) * (ub - ua)
        uhi = ua + (hi / float(d @ (ub - ua))) * (ub - ua)
        if abs(uhi[4] - ulo[4]) < LOCATE_TOLERANCE and hi - lo < 1e-10:
            break
    return u, jac


def amplitude(x, lam):
    _, values = period_map(x, lam, tangent=False, extrema=True)
    return 0.5 * (max(values) - min(values))


def linear_orbit(lam, z):
    """The linear steady state at t = 0: X = Re(lambda Z), V = Re(i omega lambda Z)."""
    return np.array([lam * z[0].real, lam * z[1].real,
                     -OMEGA * lam * z[0].imag, -OMEGA * lam * z[1].imag])


def follow(u, jac, direction, ds, max_step, stop, result, log):
    """Pseudo-arclength continuation from the branch point u (its 4 x 5 Jacobian jac) along
    direction, locating folds and Neimark-Sacker points into result, until stop(u, folds)."""
    tests = {"fold": fold_test, "neimark-sacker": torus_test}
    values = {k: f(jac) for k, f in tests.items()}
    points = folds = 0
    while not stop(u, folds):
        points += 1
        try:
            un, jn = correct(u + ds * direction, direction, direction @ u + ds)
        except (RuntimeError, np.linalg.LinAlgError):
            ds *= 0.5
            if ds < 1e-12:
                raise
            continue
        if np.linalg.norm(un - u) > 4 * ds:  # jumped: shorter step
            ds *= 0.5
            continue
        new = {k: f(jn) for k, f in tests.items()}
        print(f"  point {points}: lambda = {un[4]:.12f}, step {ds:.1e}, |mu| = "
              + ", ".join(f"{abs(m):.5f}" for m in multipliers(jn)), file=log, flush=True)
        for kind, test in tests.items():
            a, b = values[kind], new[kind]
            if a == a and b == b and (a > 0) != (b > 0):
                ul, jl = locate(u, un, a, b, test)
                print(f"{kind} lambda = {ul[4]:.12f}  |mu| = "
                      + ", ".join(f"{abs(m):.6f}" for m in multipliers(jl)), file=log, flush=True)
                if kind == "neimark-sacker" and not is_torus(jl):
                    print("  (a neutral saddle, not a Neimark-Sacker point)", file=log)
                else:
                    result[kind].append(float(ul[4]))
                folds += kind == "fold"
        u, values = un, new
        direction = tangent_of(jn, direction)
        ds = min(ds * 1.5, max_step)
    return u


def trace(result, log):
    """From just past grazing (the linear orbit as the guess) along the branch: up to the
    fold beside grazing, down the middle branch to the second fold and up again past the
    second Neimark-Sacker point (lambda 0.5668); then A_max at lambda = 1, 2, 3 by
    natural-parameter steps up from there."""
    lam_g, z = grazing_lambda()
    lam0 = lam_g + 1e-9
    normal = np.array([0, 0, 0, 0, 1.0])
    u, jac = correct(np.concatenate((linear_orbit(lam0, z), [lam0])), normal, lam0)
    u = follow(u, jac, tangent_of(jac, normal), 1e-7, 2e-4,
               lambda u, folds: folds >= 2 and u[4] > 0.5668, result, log)
    x, lam = u[:4], u[4]
    for target in (1.0, 2.0, 3.0):
        while lam < target:
            lam_next = lam + min(0.05, target - lam)
            v, _ = correct(np.concatenate((x, [lam_next])), normal, lam_next)
            x, lam = v[:4], v[4]
        result["amax"][str(int(target))] = amplitude(x, lam)
        print(f"A_max(x1) at lambda = {target:g}: {result['amax'][str(int(target))]:.10f}",
              file=log, flush=True)


def main():
    log = sys.stderr
    lam_g, _ = grazing_lambda()
    print(f"grazing (closed form) lambda = {lam_g:.12f}", file=log)
    result = {"grazing": lam_g, "fold": [], "neimark-sacker": [], "amax": {}}
    trace(result, log)
    result["settings"] = {"rtol": RTOL, "atol": [ATOL_STATE, ATOL_TANGENT],
                          "newton": NEWTON_TOLERANCE, "locate": LOCATE_TOLERANCE,
                          "hertz_stiffness": K_HERTZ}
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
