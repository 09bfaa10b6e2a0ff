#pragma once
// Periodic orbits of type z = p/n by single shooting (SPEC 1.3): Newton on
// G(x) = P^n(x) - x with the saltation-corrected Jacobian D P^n - I, damped by a
// backtracking line search on |G|. The result reports the residual history, the reason
// it stopped, the monodromy matrix and the impact signature p.
#include <string>
#include <vector>

#include "libcont/poincare_map.hpp"

namespace libcont {

struct ShootingOptions {
  int max_iterations = 40;
  // Converged when |P^n(x) - x| <= absolute_tolerance + relative_tolerance * |x|.
  // Not below the flow's global error: about 1e-9 relative at the default rtol 1e-11.
  double absolute_tolerance = 1e-13;
  double relative_tolerance = 1e-9;
  int max_halvings = 12;  // line-search step halvings per iteration
  FlowOptions flow;
};

struct ShootingResult {
  bool converged = false;
  std::string reason;  // why it stopped
  Vector x;            // point of the orbit on the section (last iterate if not converged)
  Matrix monodromy;    // D P^n at x
  int p = 0;           // impacts along the orbit
  int n = 0;           // forcing periods of the orbit
  int iterations = 0;
  std::vector<double> residual_history;
  FlowReport report;  // of the last map evaluation
};

class Shooting {
 public:
  Shooting(const HybridSystem& system, int period, ShootingOptions options = {},
           double phase = 0.0);
  ShootingResult solve(ConstVectorRef guess);
  StroboscopicMap& map() { return map_; }

 private:
  int period_;
  ShootingOptions options_;
  StroboscopicMap map_;
};

}  // namespace libcont
