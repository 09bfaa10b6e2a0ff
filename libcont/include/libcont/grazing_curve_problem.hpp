#pragma once
// The grazing curve of a periodic orbit in two parameters (doc/theory.md, 6.4): the orbit
// touches a hard-impact surface with zero normal speed, a tangency h = 0, h' = 0 at a time
// s after its section. The unknown is u = (x, p2, s / time_unit), x the orbit's point on the
// section t = phase (mod T); lambda is p1; the equations are
//     Q^n(x) - x = 0,   h(t0 + s, Q_s(x)) = 0,   h'(t0 + s, Q_s(x)) = 0,
// with Q the flow without the touching contact: for an orbit without impacts, the flow
// without events (event_free_view.hpp); for an impacting orbit whose gap minimum closes
// (an interior tangency) or one of whose impacts slows to zero among others, the model's
// flow with its events except within `window` of the touching time, where it runs without
// them. The grazing orbit is an orbit of Q, and Q is smooth where the real flow is not (an
// impact speed like the square root of the penetration). D_x Q^n - I from its tangent flow
// (with the saltation of the other impacts); everything else from central differences of
// flows. On the moving-base oscillator the curve of the orbit without impacts is
// |a - H(eta)| = -d, and the z = 1/2 orbit's interior tangencies are those of its closed
// form (test_orbit_curves). For an impacting orbit of a single impact per period whose
// impact's speed goes to zero (n = 1, the z = 1/1 family at its grazing) the grazing orbit
// is the orbit without impacts that touches, so this curve is that family's grazing curve
// too.
//
// Codimension-two tests along it: the resonant grazings, where a fold or a period-doubling
// curve of the impacting orbit issues from the grazing curve (doc/theory.md 6.4). Near the
// grazing the impacting orbit's monodromy (just before its impact) is E S, E the flow's
// from the touching point once round, S = R + q g^T / h' its saltation matrix (R the
// reset's Jacobian, q its jump term, g the surface's gradient, h' -> 0 the crossing rate),
// so det(E S - mu I) = det(E R - mu I) + g^T adj(E R - mu I) E q / h': a multiplier mu can
// sit on the impacting orbit arbitrarily close to the grazing only where the coefficient of
// 1 / h' vanishes. The tests are that coefficient, made dimensionless, for mu = +1
// ("resonant-grazing-fold") and mu = -1 ("resonant-grazing-flip"). On the moving-base
// oscillator both are -mu E01 (times positive factors), zero at eta = 2 w_d / j.
#include <string>

#include "libcont/event_free_view.hpp"
#include "libcont/flow.hpp"
#include "libcont/zero_problem.hpp"

namespace libcont {

class GrazingCurveProblem : public ZeroProblem {
 public:
  // `event`: the model's event of the surface in the orbit's mode; -1: its first event of
  // kind Impact.
  GrazingCurveProblem(HybridSystem& system, std::string first, std::string second, int period,
                      FlowOptions flow = {}, double phase = 0.0, int event = -1);

  int dimension() const override { return system_.dimension() + 2; }
  bool evaluate(ConstVectorRef u, double lambda, Vector& residual, Matrix& du,
                Vector& dlambda) override;
  bool residual(ConstVectorRef u, double lambda, Vector& residual) override;
  // "tangency_time" (s), then the Floquet multipliers of the touching
  // orbit by decreasing modulus "mu<k>:re", "mu<k>:im".
  std::vector<std::string> point_data_names() const override;
  enum Test { ResonantGrazingFold = 0, ResonantGrazingFlip = 1 };
  std::vector<TestFunction> test_functions() const override;
  // Right after evaluate() at (u, lambda): its monodromy is reused.
  Vector test_values(ConstVectorRef u, double lambda) override;
  Vector point_data(ConstVectorRef u, double lambda) override;
  double chart() const override { return phase_; }
  void set_chart(double chart) override { phase_ = chart; }
  // True where p2 lies outside [second_min, second_max] (as OrbitCurveProblem).
  bool beyond_range(ConstVectorRef u, double lambda, std::string& why) override;

  // Where the orbit through x (on the section, at the parameters set) comes nearest to
  // grazing, to start the curve from (u's last entry is s / time_unit), and how the touch
  // is flown: an orbit without impacts by the flow without events, s its smallest gap (of
  // 256 samples over the n periods); an impacting orbit by the model's flow except within
  // `window` of s, s its approach nearest to grazing (its slowest impact or smallest gap
  // minimum, grazing.hpp) and the window half the time to its nearest other event, at most
  // an eighth of a forcing period. False if the flow fails.
  bool find_tangency(ConstVectorRef x, double& s);
  // Half the width of the stretch around the touching time flown without events; 0: the
  // whole orbit (an orbit without impacts).
  double window = 0.0;
  double second_min = -1e300, second_max = 1e300;
  double difference_step = 1e-6;  // as OrbitCurveProblem's
  double first_scale = 1.0, second_scale = 1.0;
  // The unit of s in u: the arclength weighs s / time_unit like the state and p2
  // (trace_orbit_curve sets it to n T / |to - from|, so that s spans what p2 does).
  double time_unit = 1.0;
  const std::string& failure() const { return failure_; }

 private:
  bool set_point(ConstVectorRef u, double lambda);
  // The flow Q from the section over `duration`, the touch at s (its window flown without
  // events), with its tangent if asked.
  bool flow_for(ConstVectorRef x, double duration, double s, Vector& end, int& mode,
                Matrix* tangent);
  // One stretch of it, from the section's time + `from` to + `to`, on `system`.
  bool flow_stretch(const HybridSystem& system, double from, double to, Vector& x, int& mode,
                    Matrix* tangent);
  bool smallest_gap_time(ConstVectorRef x, double& s);
  // F at (u, lambda) with the parameters set.
  bool equations(ConstVectorRef u, VectorRef f, Matrix* monodromy);
  // The reset's Jacobian R and jump term q of the impact at the touching point (time t,
  // state x, mode), as h' -> 0: the hard impact is applied to states approaching the
  // surface at two small speeds, and R, q extrapolated linearly to speed zero (applied at
  // the touch itself, a restitution law may stick instead of bounce). False where the
  // impact does not bounce there or the crossing rate does not depend on the state.
  bool grazing_impact(double t, ConstVectorRef x, int mode, Matrix& reset, Vector& jump);

  HybridSystem& system_;
  EventFreeView view_;
  std::string first_, second_;
  int period_;
  FlowOptions flow_;
  double phase_;
  int event_;
  Matrix monodromy_;
  std::string failure_;
};

}  // namespace libcont
