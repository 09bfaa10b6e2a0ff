#include "clear_impact_loop.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "finite_sum.hpp"
#include "gap_closure.hpp"
#include "grid_times.hpp"
#include "hermite_crossing.hpp"
#include "libcont/affine_modes.hpp"
#include "root_in_bracket.hpp"
#include "rounding_margin.hpp"

namespace libcont::detail {

ClearImpactLoop::ClearImpactLoop(const HybridSystem& system, const FlowOptions& options,
                                 bool tangent)
    : system_(system), affine_(system.affine_modes()), options_(options), tangent_(tangent),
      coefficients_(5), reset_(2, 5) {
  data_.resize(2);
  record_.x_minus.resize(2);
  sample_.resize(2);
  record_.x_plus.resize(2);
}

bool ClearImpactLoop::serves(int mode) {
  if (m_.mode != mode || m_.revision != system_.revision()) m_.served = prepare(mode);
  return m_.served;
}

bool ClearImpactLoop::prepare(int mode) {
  m_ = ModeData{};
  phase_t_ = std::numeric_limits<double>::quiet_NaN();
  m_.mode = mode;
  m_.revision = system_.revision();
  if (!affine_ || system_.dimension() != 2 || !options_.extremum_coordinates.empty() ||
      options_.gap_minima)
    return false;
  if (!affine_->affine_mode(mode, data_) || !data_.finite()) return false;
  flow_.set_mode(data_);
  // A real pair of rates is left to the general path, which guards its cosh against
  // cancellation (ExactLinearFlow::closed_form_fits).
  if (!flow_.has_closed_form() || flow_.discriminant() > 0.0) return false;
  if (system_.event_count(mode) != 1) return false;
  const EventSpec spec = system_.event_spec(mode, 0);
  if (spec.kind != EventKind::Impact || spec.direction != EventDirection::Falling ||
      spec.guard_turning_points)
    return false;
  if (!affine_->affine_event(mode, 0, coefficients_) || !coefficients_.allFinite()) return false;
  reset_.setZero();
  if (!affine_->affine_reset(mode, 0, EventKind::Impact, reset_) || !reset_.allFinite())
    return false;
  m_.step = flow_.scan_step();
  if (options_.max_step > 0.0) m_.step = std::min(m_.step, options_.max_step);
  if (!(m_.step > 0.0 && std::isfinite(m_.step))) return false;
  m_.w = data_.frequency;
  m_.forcing_scale = flow_.forcing_scale();
  const double* A = data_.A.data();
  for (int i = 0; i < 4; ++i) m_.A[i] = A[i];
  for (int i = 0; i < 2; ++i) {
    m_.B[i] = data_.b0[i];
    m_.B[2 + i] = data_.b_cos[i];
    m_.B[4 + i] = data_.b_sin[i];
  }
  const double* Pi = flow_.particular().data();  // in the lifted scale: times s for q
  for (int i = 0; i < 6; ++i) m_.P[i] = Pi[i] * m_.forcing_scale;
  const double* c = coefficients_.data();
  m_.cx[0] = c[0], m_.cx[1] = c[1];
  for (int k = 0; k < 3; ++k) {
    m_.cq[k] = c[2 + k];
    m_.gamma[k] = m_.P[2 * k] * c[0] + m_.P[2 * k + 1] * c[1] + c[2 + k];
  }
  m_.rc[0] = A[0] * c[0] + A[1] * c[1];
  m_.rc[1] = A[2] * c[0] + A[3] * c[1];
  for (int i = 0; i < 10; ++i) m_.R[i] = reset_.data()[i];
  m_.lifted_c[0] = c[0], m_.lifted_c[1] = c[1];
  for (int k = 0; k < 3; ++k) m_.lifted_c[2 + k] = c[2 + k] / m_.forcing_scale;
  flow_.closed_form_exponential(m_.step, m_.E_step);
  m_.cos_step = std::cos(m_.w * m_.step);
  m_.sin_step = std::sin(m_.w * m_.step);
  // Jumps: from a scan point's deviation u, E(s) = e^{-mu s} (cos(nu s) I + sin(nu s) / nu
  // (A + mu I)), so the deviation's part of the gap's rate, rc . E(s) u, is at most
  // |rc . u| + |rs . u| for every s >= 0 where mu >= 0, and the forcing's part at most
  // w (|gamma_1| + |gamma_2|).
  const double mu = -flow_.half_trace();
  const double nu = std::sqrt(-flow_.discriminant());
  if (mu >= 0.0 && nu > 0.0) {
    m_.rs[0] = (m_.rc[0] * (A[0] + mu) + m_.rc[1] * A[1]) / nu;
    m_.rs[1] = (m_.rc[0] * A[2] + m_.rc[1] * (A[3] + mu)) / nu;
    m_.rate_forcing = m_.w * (std::abs(m_.gamma[1]) + std::abs(m_.gamma[2]));
    flow_.closed_form_exponential(kJumpSteps * m_.step, m_.E_jump);
    m_.cos_jump = std::cos(m_.w * kJumpSteps * m_.step);
    m_.sin_jump = std::sin(m_.w * kJumpSteps * m_.step);
    m_.jumps = std::isfinite(m_.rs[0] + m_.rs[1] + m_.rate_forcing + m_.E_jump[0] +
                             m_.E_jump[1] + m_.E_jump[2] + m_.E_jump[3]);
  }
  const double check = m_.E_step[0] + m_.E_step[1] + m_.E_step[2] + m_.E_step[3] +
                       m_.gamma[0] + m_.gamma[1] + m_.gamma[2] + m_.P[0] + m_.P[1] + m_.P[2] +
                       m_.P[3] + m_.P[4] + m_.P[5];
  return std::isfinite(check);
}

ClearImpactLoop::Stop ClearImpactLoop::run(FlowState& state, double t_end,
                                           FlowObserver* observer, const SampleGrid& grid,
                                           FlowReport& report) {
  // Events too close in time hand over to the general path, which counts a storm within
  // one call of Flow::advance: the loop compares within one run (a map's next evaluation
  // starts again at an earlier time).
  double last_event_time = -std::numeric_limits<double>::infinity();
  while (state.t < t_end) {
    if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) break;
    const Flight flight = fly(state, t_end, observer, grid, report, last_event_time);
    if (flight == Flight::End) return Stop::ReachedEnd;
    if (flight == Flight::HandOver) break;
  }
  if (state.t >= t_end) return Stop::ReachedEnd;
  ++hand_overs_;
  return Stop::HandOver;
}

void ClearImpactLoop::emit_samples(double t0, double y0, double y1, double t1,
                                   const SampleGrid& grid, FlowObserver& observer) {
  const ModeData& m = m_;
  for_each_grid_time(grid, t0, t1, [&](double ts) {
    double E[4];
    flow_.closed_form_exponential(ts - t0, E);
    const double c = std::cos(m.w * ts), s = std::sin(m.w * ts);
    sample_[0] = E[0] * y0 + E[2] * y1 + m.P[0] + m.P[2] * c + m.P[4] * s;
    sample_[1] = E[1] * y0 + E[3] * y1 + m.P[1] + m.P[3] * c + m.P[5] * s;
    observer.on_sample(ts, sample_, m.mode);
    return true;
  });
}

ClearImpactLoop::Flight ClearImpactLoop::fly(FlowState& state, double t_end,
                                             FlowObserver* observer, const SampleGrid& grid,
                                             FlowReport& report, double& last_event_time) {
  const ModeData& m = m_;
  const double w = m.w;
  const double t0 = state.t;
  const double x0 = state.x[0], x1 = state.x[1];
  double c0, s0;
  phase(t0, c0, s0);
  // The deviation from the periodic particular solution, and the gap and its rate.
  const double y0 = x0 - (m.P[0] + m.P[2] * c0 + m.P[4] * s0);
  const double y1 = x1 - (m.P[1] + m.P[3] * c0 + m.P[5] * s0);
  const auto gap = [&](double u0, double u1, double c, double s) {
    return m.cx[0] * u0 + m.cx[1] * u1 + m.gamma[0] + m.gamma[1] * c + m.gamma[2] * s;
  };
  const auto gap_terms = [&](double u0, double u1, double c, double s) {
    return std::abs(m.cx[0] * u0) + std::abs(m.cx[1] * u1) + std::abs(m.gamma[0]) +
           std::abs(m.gamma[1] * c) + std::abs(m.gamma[2] * s);
  };
  const auto gap_rate = [&](double u0, double u1, double c, double s) {
    return m.rc[0] * u0 + m.rc[1] * u1 + w * (m.gamma[2] * c - m.gamma[1] * s);
  };
  const auto rate_terms = [&](double u0, double u1, double c, double s) {
    return std::abs(m.rc[0] * u0) + std::abs(m.rc[1] * u1) +
           w * (std::abs(m.gamma[2] * c) + std::abs(m.gamma[1] * s));
  };
  const double h0 = gap(y0, y1, c0, s0), r0 = gap_rate(y0, y1, c0, s0);
  const double surface =
      100.0 * options_.absolute_tolerance + kRoundingMargin * gap_terms(y0, y1, c0, s0);
  // Clearly off the surface, or on it (a rebound) and clearly leaving: else the general
  // path decides (an event due at the start, a touch, sticking).
  bool leaving = false;
  if (!(h0 > surface)) {
    if (!(std::abs(h0) <= surface && r0 > kRoundingMargin * rate_terms(y0, y1, c0, s0)))
      return Flight::HandOver;
    leaving = true;
  }

  // The scan: the deviation by the step's E, the forcing by its rotation, the step's
  // numbers in locals; the last step from the flight's start to t_end (the state there
  // takes its E too). A value that is not finite needs no test per step: it fails every
  // comparison below (a hand-over), and the flight's end and crossing are formed again
  // from its start and checked.
  const double e00 = m.E_step[0], e10 = m.E_step[1], e01 = m.E_step[2], e11 = m.E_step[3];
  const double cw = m.cos_step, sw = m.sin_step, step = m.step;
  const double k0 = m.cx[0], k1 = m.cx[1], g0 = m.gamma[0], g1 = m.gamma[1], g2 = m.gamma[2];
  const double p0 = m.rc[0], p1 = m.rc[1], pc = w * m.gamma[2], ps = -w * m.gamma[1];
  const double span = t_end - t0;
  const long budget = options_.max_steps - report.steps;
  double u0 = y0, u1 = y1, cs = c0, ss = s0, g = h0, rate = r0, tau = 0.0;
  long steps = 0;
  bool found = false;
  RootBracket bracket{};
  double E_end[4];
  // A jump where the gap cannot reach the surface within it: the gap above the bound's
  // fastest fall over the jump and a quarter step more (a margin far above the rounding of
  // the gap and the bound). It skips the crossing and turn checks of the steps it covers,
  // which a gap that cannot fall to zero does not need; the crossing itself is solved from
  // the flight's start, whatever steps bracketed it.
  const double jump_span = (kJumpSteps + 0.25) * step;
  const double jump_gate = m.jumps ? m.rate_forcing * jump_span
                                   : std::numeric_limits<double>::infinity();
  while (true) {
    if (g > jump_gate && span - tau > jump_span) {
      const double bound = std::abs(p0 * u0 + p1 * u1) + std::abs(m.rs[0] * u0 + m.rs[1] * u1) +
                           m.rate_forcing;
      if (g > bound * jump_span) {
        const double j0 = m.E_jump[0] * u0 + m.E_jump[2] * u1;
        const double j1 = m.E_jump[1] * u0 + m.E_jump[3] * u1;
        const double jc = cs * m.cos_jump - ss * m.sin_jump;
        ss = ss * m.cos_jump + cs * m.sin_jump;
        cs = jc, u0 = j0, u1 = j1;
        tau += kJumpSteps * step;
        g = k0 * u0 + k1 * u1 + g0 + g1 * cs + g2 * ss;
        rate = p0 * u0 + p1 * u1 + pc * cs + ps * ss;
        if (++steps > budget) return Flight::HandOver;
        continue;
      }
    }
    const bool last = span - tau <= step;
    double n0, n1, cn, sn;
    if (last) {
      flow_.closed_form_exponential(span, E_end);
      n0 = E_end[0] * y0 + E_end[2] * y1;
      n1 = E_end[1] * y0 + E_end[3] * y1;
      phase(t_end, cn, sn);
    } else {
      n0 = e00 * u0 + e01 * u1;
      n1 = e10 * u0 + e11 * u1;
      cn = cs * cw - ss * sw;
      sn = ss * cw + cs * sw;
    }
    ++steps;
    const double gn = k0 * n0 + k1 * n1 + g0 + g1 * cn + g2 * sn;
    const double rn = p0 * n0 + p1 * n1 + pc * cn + ps * sn;
    const double end = last ? span : tau + step;
    if (!(gn > 0.0)) {
      // A hop back within the first step after a rebound, or the surface met exactly: the
      // general path's start on the surface and its touches.
      if ((leaving && steps == 1) || !(gn < 0.0 && g > 0.0)) return Flight::HandOver;
      bracket = {tau, end, g, rate, gn, rn};
      found = true;
      break;
    }
    // A turn towards the surface that may dip through it: the general path locates it.
    if (rate < 0.0 && rn > 0.0 && !hermite_keeps_clear(end - tau, g, rate, gn, rn))
      return Flight::HandOver;
    u0 = n0, u1 = n1;
    if (last) break;
    if (steps > budget) return Flight::HandOver;
    tau = end;
    cs = cn, ss = sn, g = gn, rate = rn;
  }

  double* tangent = tangent_ ? state.tangent.data() : nullptr;
  const auto advance_tangent = [&](const double* L) {  // Phi <- L Phi
    const double p00 = tangent[0], p10 = tangent[1], p01 = tangent[2], p11 = tangent[3];
    tangent[0] = L[0] * p00 + L[2] * p10;
    tangent[1] = L[1] * p00 + L[3] * p10;
    tangent[2] = L[0] * p01 + L[2] * p11;
    tangent[3] = L[1] * p01 + L[3] * p11;
  };
  if (!found) {  // the flight reaches t_end: its last step formed the deviation there
    double ce, se;
    phase(t_end, ce, se);
    const double e0 = u0 + m.P[0] + m.P[2] * ce + m.P[4] * se;
    const double e1 = u1 + m.P[1] + m.P[3] * ce + m.P[5] * se;
    if (!std::isfinite(e0 + e1) || (tangent && !sum_is_finite<4>(E_end, 4)))
      return Flight::HandOver;
    if (observer && grid.step > 0.0) emit_samples(t0, y0, y1, t_end, grid, *observer);
    state.t = t_end;
    state.x[0] = e0, state.x[1] = e1;
    if (tangent) advance_tangent(E_end);
    report.steps += steps;
    return Flight::End;
  }

  // The crossing: the general path's root search on the closed form of the gap from the
  // flight's start.
  const double s_scale = m.forcing_scale;
  const double z0[5] = {x0, x1, s_scale, s_scale * c0, s_scale * s0};
  ExactLinearFlow::ClosedFormFunction form = flow_.closed_form_function(m.lifted_c, z0);
  const double at = newton_in_bracket(EventDirection::Falling, t0, bracket,
                                      [&](double tau_at, double& h, double& r) {
                                        form.evaluate(tau_at, h, r);
                                      });
  const double te = std::min(t0 + at, t_end);
  if (te - last_event_time <= options_.storm_time * (1.0 + std::abs(te)) ||
      report.events >= options_.max_events)
    return Flight::HandOver;
  double E[4];
  flow_.closed_form_exponential(at, E);
  double ce, se;
  phase(te, ce, se);
  const double v0 = E[0] * y0 + E[2] * y1, v1 = E[1] * y0 + E[3] * y1;
  const double xm0 = v0 + (m.P[0] + m.P[2] * ce + m.P[4] * se);
  const double xm1 = v1 + (m.P[1] + m.P[3] * ce + m.P[5] * se);
  const double rm = gap_rate(v0, v1, ce, se);
  if (!(rm < -kRoundingMargin * rate_terms(v0, v1, ce, se))) return Flight::HandOver;
  Vector& x_minus = record_.x_minus;
  x_minus[0] = xm0, x_minus[1] = xm1;
  EventOutcome outcome;
  if (!affine_->affine_outcome(m.mode, 0, rm, x_minus, outcome) ||
      outcome.kind != EventKind::Impact || outcome.next_mode != m.mode || outcome.terminal)
    return Flight::HandOver;

  // The reset, then the gap closed exactly on the surface by the coordinate with the
  // largest coefficient (as the general path closes it on its lifted state).
  const double* R = m.R;
  const double q1 = ce, q2 = se;
  double xp[2] = {R[0] * xm0 + R[2] * xm1 + R[4] + R[6] * q1 + R[8] * q2,
                  R[1] * xm0 + R[3] * xm1 + R[5] + R[7] * q1 + R[9] * q2};
  const double forcing[3] = {1.0, q1, q2};
  close_gap_on_surface(coefficients_.data(), forcing, 2, xp);
  // The rebound's rate: clearly leaving, else the general path's due-event checks decide.
  const double* A = m.A;
  const double* B = m.B;
  const double fp0 = A[0] * xp[0] + A[2] * xp[1] + B[0] + B[2] * q1 + B[4] * q2;
  const double fp1 = A[1] * xp[0] + A[3] * xp[1] + B[1] + B[3] * q1 + B[5] * q2;
  const double dq1 = -w * q2, dq2 = w * q1;  // q'
  const double rebound = m.cx[0] * fp0 + m.cx[1] * fp1 + m.cq[1] * dq1 + m.cq[2] * dq2;
  const double rebound_terms = std::abs(m.cx[0] * fp0) + std::abs(m.cx[1] * fp1) +
                               std::abs(m.cq[1] * dq1) + std::abs(m.cq[2] * dq2);
  if (!(rebound > kRoundingMargin * rebound_terms) || !std::isfinite(xp[0] + xp[1]))
    return Flight::HandOver;
  if (tangent) {
    // S = R_x + (f+ - R M z) c_x^T / h', R M z = R_x f- + D_t r.
    const double fm0 = A[0] * xm0 + A[2] * xm1 + B[0] + B[2] * q1 + B[4] * q2;
    const double fm1 = A[1] * xm0 + A[3] * xm1 + B[1] + B[3] * q1 + B[5] * q2;
    const double rmz0 = R[0] * fm0 + R[2] * fm1 + R[6] * dq1 + R[8] * dq2;
    const double rmz1 = R[1] * fm0 + R[3] * fm1 + R[7] * dq1 + R[9] * dq2;
    const double k0 = (fp0 - rmz0) / rm, k1 = (fp1 - rmz1) / rm;
    const double S[4] = {R[0] + k0 * m.cx[0], R[1] + k1 * m.cx[0], R[2] + k0 * m.cx[1],
                         R[3] + k1 * m.cx[1]};
    if (!sum_is_finite<4>(S, 4) || !sum_is_finite<4>(E, 4)) return Flight::HandOver;
    advance_tangent(E);
    advance_tangent(S);
  }
  if (observer && grid.step > 0.0) emit_samples(t0, y0, y1, te, grid, *observer);
  state.t = te;
  state.x[0] = xp[0], state.x[1] = xp[1];
  report.steps += steps;
  ++report.events;
  last_event_time = te;
  record_.t = te;
  record_.event = 0;
  record_.mode_before = record_.mode_after = m.mode;
  record_.kind = EventKind::Impact;
  record_.x_plus[0] = xp[0], record_.x_plus[1] = xp[1];
  record_.rate = rm;
  if (observer) observer->on_event(record_);
  return Flight::Impact;
}

}  // namespace libcont::detail
