/* The peer of benchmark 1 (doc/performance.md): the Lyapunov spectrum of the hard
 * moving-base oscillator written by hand for this one model, the way a careful researcher
 * writes it in C without a library:
 *
 *   m x'' + c x' + k x = k a sin(w t),   base b(t) = d + a sin(w t),   gap h = x - b >= 0,
 *   impact at h = 0 with h' < 0:  v+ = b' - r (v- - b'),  x+ = b.
 *
 * Closed-form flight: the deviation y = (x - x_p, v - x_p') from the periodic particular
 * solution x_p = P cos(w t) + Q sin(w t) obeys y' = A y, whose exponential is
 * e^{-mu s} (cos(nu s) I + sin(nu s)/nu (A + mu I)) (underdamped A). The gap is scanned
 * in steps of half a radian of the fastest rate (the natural frequency or w) with the
 * step's exponential and the forcing's rotation cached; a crossing is bracketed by a change
 * of sign, a grazing double crossing inside one step by a turning point of the gap screened
 * by its cubic Hermite interpolant; the impact time is solved by Newton's method on the
 * closed-form gap, safeguarded by the bracket, to 4 eps |t|. The tangent (2 x 2) follows
 * the segment's exponential and the saltation matrix at each impact
 * S = [[-r, 0], [(a_r+ + r a_r-)/v_r-, -r]]; Gram-Schmidt after each forcing period.
 *
 * Plain C (C99), no library but libm; compiled with the project's flags (-O2 or -O3) into
 * bench_lyapunov_peer, which times it beside libcont in the same run. */
#include "closed_form_peer.h"

#include <math.h>

typedef struct {
  double m, k, c, a, d, w, r;
  double a10, a11, mu, nu, P, Q, step;
  double E_step[4], cos_step, sin_step;
} Model;

/* Column-major 2 x 2: (0,0), (1,0), (0,1), (1,1). */
static void exponential(const Model* M, double s, double* E) {
  const double e = exp(-M->mu * s), cs = cos(M->nu * s), sn = sin(M->nu * s) / M->nu;
  E[0] = e * (cs + sn * M->mu);
  E[1] = e * sn * M->a10;
  E[2] = e * sn;
  E[3] = e * (cs + sn * (M->a11 + M->mu));
}

static void multiply(const double* L, double* phi) { /* phi <- L phi */
  const double p0 = L[0] * phi[0] + L[2] * phi[1], p1 = L[1] * phi[0] + L[3] * phi[1];
  const double q0 = L[0] * phi[2] + L[2] * phi[3], q1 = L[1] * phi[2] + L[3] * phi[3];
  phi[0] = p0, phi[1] = p1, phi[2] = q0, phi[3] = q1;
}

/* Gap and its rate from the deviation and (cos, sin) of the forcing phase. */
static double gap(const Model* M, double y0, double ca, double sa) {
  return y0 + M->P * ca + M->Q * sa - M->d - M->a * sa;
}
static double gap_rate(const Model* M, double y1, double ca, double sa) {
  return y1 + M->w * (M->Q * ca - M->P * sa) - M->a * M->w * ca;
}

/* Gap and rate a time u after a point where the deviation is (y0, y1), at phase t0 + u. */
static void gap_at(const Model* M, double t0, double y0, double y1, double u, double* g,
                   double* rate) {
  double E[4];
  exponential(M, u, E);
  const double ca = cos(M->w * (t0 + u)), sa = sin(M->w * (t0 + u));
  *g = gap(M, E[0] * y0 + E[2] * y1, ca, sa);
  *rate = gap_rate(M, E[1] * y0 + E[3] * y1, ca, sa);
}

/* The impact time in (lo, hi] after t0: Newton on the gap kept inside the bracket (lo not
 * crossed, hi crossed), bisection when a step leaves it or does not halve |g|; ends on the
 * crossed side. */
static double solve(const Model* M, double t0, double y0, double y1, double lo, double hi) {
  const double tolerance = 4.0 * 2.220446049250313e-16 * (fabs(t0) + hi);
  double u = hi, g, rate, last = INFINITY;
  gap_at(M, t0, y0, y1, u, &g, &rate);
  for (int i = 0; i < 200 && hi - lo > tolerance; ++i) {
    double next = 0.5 * (lo + hi);
    if (fabs(g) <= 0.5 * last && rate != 0.0) {
      const double newton = g / rate;
      next = fabs(newton) < tolerance ? u - copysign(tolerance, newton) : u - newton;
      if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    }
    if (next < lo + 0.25 * tolerance) next = lo + 0.25 * tolerance;
    if (next > hi - 0.25 * tolerance) next = hi - 0.25 * tolerance;
    last = fabs(g);
    u = next;
    gap_at(M, t0, y0, y1, u, &g, &rate);
    if (g < 0.0) hi = u; else lo = u;
  }
  return hi;
}

/* A turning point of the gap towards the base between scan points (g0 > 0, rate r0 < 0
 * at the start, r1 > 0 at the end s later): screened by the cubic Hermite interpolant,
 * else located by Newton on the rate (its derivative is the relative acceleration, from the
 * rate at two points: a secant); returns the time of the minimum if the gap dips below
 * zero there, else -1. */
static double dip(const Model* M, double t0, double y0, double y1, double g0, double r0,
                  double g1, double r1, double s) {
  double lowest = g0 < g1 ? g0 : g1;
  for (int i = 1; i < 16; ++i) {
    const double q = i / 16.0, q2 = q * q, q3 = q2 * q;
    const double h = (2 * q3 - 3 * q2 + 1) * g0 + (q3 - 2 * q2 + q) * s * r0 +
                     (-2 * q3 + 3 * q2) * g1 + (q3 - q2) * s * r1;
    if (h < lowest) lowest = h;
  }
  if (lowest > 0.1 * (g0 + g1 + s * (fabs(r0) + fabs(r1)))) return -1.0;
  double lo = 0.0, hi = s, f_lo = r0, f_hi = r1, g = g0, rate;
  int side = 0;
  const double resolution = 1e-9 * s;
  double at = hi;
  for (int i = 0; i < 200 && hi - lo > resolution; ++i) { /* Illinois on the rate */
    double u = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
    if (!(u > lo && u < hi)) u = 0.5 * (lo + hi);
    gap_at(M, t0, y0, y1, u, &g, &rate);
    if (rate < 0.0) {
      lo = u, f_lo = rate;
      if (side < 0) f_hi *= 0.5;
      side = -1;
    } else {
      hi = u, f_hi = rate;
      if (side > 0) f_lo *= 0.5;
      side = 1;
    }
    at = u;
  }
  return g < 0.0 ? at : -1.0;
}

/* One forcing period: (t, x, v) to t_end, tangent phi (NULL: none). Returns the impacts,
 * or -1 on a chatter (more than 1000 impacts in the period). */
static int advance(const Model* M, double* t, double* x, double* v, double* phi, double t_end) {
  int impacts = 0;
  while (*t < t_end) {
    const double t_start = *t, ca = cos(M->w * t_start), sa = sin(M->w * t_start);
    const double y0 = *x - (M->P * ca + M->Q * sa);
    const double y1 = *v - M->w * (M->Q * ca - M->P * sa);
    double g = gap(M, y0, ca, sa), rate = gap_rate(M, y1, ca, sa);
    double hit = -1.0;
    if (g <= 1e-10 * M->a + 1e-300 && rate < 0.0) {
      hit = 0.0; /* on the base and moving into it: the impact is due now */
    } else {
      if (g <= 1e-10 * M->a) g = 1e-300; /* just reset onto the base, leaving it */
      double tau = 0.0, s0 = y0, s1 = y1, cs = ca, ss = sa;
      for (;;) {
        const int last = t_end - (t_start + tau) <= M->step;
        const double s = last ? t_end - (t_start + tau) : M->step;
        double n0, n1, cn, sn;
        if (last) {
          double E[4];
          exponential(M, s, E);
          n0 = E[0] * s0 + E[2] * s1, n1 = E[1] * s0 + E[3] * s1;
          cn = cos(M->w * t_end), sn = sin(M->w * t_end);
        } else {
          n0 = M->E_step[0] * s0 + M->E_step[2] * s1, n1 = M->E_step[1] * s0 + M->E_step[3] * s1;
          cn = cs * M->cos_step - ss * M->sin_step, sn = ss * M->cos_step + cs * M->sin_step;
        }
        const double gn = gap(M, n0, cn, sn), rn = gap_rate(M, n1, cn, sn);
        const double t_scan = t_start + tau;
        if (g > 0.0 && gn < 0.0) {
          hit = tau + solve(M, t_scan, s0, s1, 0.0, s);
        } else if (g > 0.0 && rate < 0.0 && rn > 0.0) {
          const double at = dip(M, t_scan, s0, s1, g, rate, gn, rn, s);
          if (at >= 0.0) hit = tau + solve(M, t_scan, s0, s1, 0.0, at);
        }
        if (hit >= 0.0 || last) break;
        tau += s;
        s0 = n0, s1 = n1, cs = cn, ss = sn, g = gn, rate = rn;
      }
    }
    /* State and tangent at the segment's end, from its start by one exponential. */
    const double span = hit >= 0.0 ? hit : t_end - t_start;
    const double te = hit >= 0.0 ? t_start + hit : t_end;
    double E[4];
    exponential(M, span, E);
    const double ce = cos(M->w * te), se = sin(M->w * te);
    *x = E[0] * y0 + E[2] * y1 + M->P * ce + M->Q * se;
    *v = E[1] * y0 + E[3] * y1 + M->w * (M->Q * ce - M->P * se);
    if (phi) multiply(E, phi);
    *t = te;
    if (hit < 0.0) break;
    /* The impact. */
    const double b = M->d + M->a * se, bv = M->a * M->w * ce, ba = -M->a * M->w * M->w * se;
    const double force = M->k * M->a * se;
    const double vr_minus = *v - bv, v_plus = bv - M->r * vr_minus;
    if (phi) {
      const double ar_minus = (force - M->c * *v - M->k * *x) / M->m - ba;
      const double ar_plus = (force - M->c * v_plus - M->k * b) / M->m - ba;
      const double S[4] = {-M->r, (ar_plus + M->r * ar_minus) / vr_minus, 0.0, -M->r};
      multiply(S, phi);
    }
    *x = b, *v = v_plus;
    if (++impacts > 1000) return -1;
  }
  return impacts;
}

int closed_form_peer_lyapunov(const ClosedFormPeerParameters* p, ClosedFormPeerResult* out) {
  Model M;
  M.m = p->m, M.k = p->k, M.c = p->c, M.a = p->a, M.d = p->d, M.w = p->w, M.r = p->r;
  M.a10 = -M.k / M.m, M.a11 = -M.c / M.m, M.mu = M.c / (2 * M.m);
  const double nu2 = M.k / M.m - M.mu * M.mu;
  if (!(nu2 > 0.0)) return -2; /* the closed form here is the underdamped one */
  M.nu = sqrt(nu2);
  const double detuning = M.k - M.m * M.w * M.w;
  const double det = detuning * detuning + M.c * M.c * M.w * M.w;
  M.P = -M.c * M.w * M.k * M.a / det;
  M.Q = detuning * M.k * M.a / det;
  const double natural = sqrt(M.k / M.m);
  M.step = 0.5 / (M.w > natural ? M.w : natural);
  exponential(&M, M.step, M.E_step);
  M.cos_step = cos(M.w * M.step), M.sin_step = sin(M.w * M.step);

  const double T = 2.0 * M_PI / M.w;
  double t = p->t0, x = p->x0, v = p->v0;
  for (int k = 1; k <= p->transient; ++k)
    if (advance(&M, &t, &x, &v, 0, p->t0 + k * T) < 0) return -1;
  const double t_average = t;
  double phi[4] = {1, 0, 0, 1}, log0 = 0.0, log1 = 0.0;
  long impacts = 0;
  for (int k = 1; k <= p->periods; ++k) {
    const int count = advance(&M, &t, &x, &v, phi, t_average + k * T);
    if (count < 0) return -1;
    impacts += count;
    const double n0 = hypot(phi[0], phi[1]);
    phi[0] /= n0, phi[1] /= n0;
    const double dot = phi[0] * phi[2] + phi[1] * phi[3];
    phi[2] -= dot * phi[0], phi[3] -= dot * phi[1];
    const double n1 = hypot(phi[2], phi[3]);
    phi[2] /= n1, phi[3] /= n1;
    log0 += log(n0), log1 += log(n1);
  }
  const double time = p->periods * T;
  out->exponents[0] = log0 / time;
  out->exponents[1] = log1 / time;
  if (out->exponents[1] > out->exponents[0]) {
    const double swap = out->exponents[0];
    out->exponents[0] = out->exponents[1], out->exponents[1] = swap;
  }
  out->impacts_per_period = (double)impacts / p->periods;
  out->x = x, out->v = v, out->t = t;
  return 0;
}
