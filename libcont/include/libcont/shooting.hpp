#pragma once
// Periodic orbits of type z = p/n by shooting (doc/theory.md, 6), Newton damped by a
// backtracking line search on the residual norm, with saltation-corrected Jacobians:
// - single shooting: G(x) = P^n(x) - x, Jacobian D P^n - I;
// - multiple shooting over the n forcing periods: unknowns x_0..x_{n-1} on the section,
//   G_k = P(x_k) - x_{k+1 mod n}, a block-cyclic Jacobian; better conditioned for
//   unstable or long orbits.
// The result reports the residual history, the reason it stopped, the monodromy matrix
// and the impact signature p.
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
  bool multiple = false;  // multiple shooting over the n periods (single when false)
  FlowOptions flow;
  // Throws InputError naming the first field out of range (and the flow's, via
  // FlowOptions::validate).
  void validate() const;
};

// Why shooting stopped; ShootingResult::reason says it in words.
enum class ShootingStatus {
  Converged,
  FlowFailed,        // the map could not be evaluated at the guess (report says why)
  NoConvergence,     // max_iterations reached
  SingularJacobian,  // D P^n - I singular: a Floquet multiplier at +1
  NoDecrease         // the line search found no step that decreases the residual
};
std::string to_string(ShootingStatus status);

struct ShootingResult {
  ShootingStatus status = ShootingStatus::NoConvergence;
  bool converged = false;  // status == Converged
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
  // guess: a point on the section; for multiple shooting the other segment starts are
  // taken from iterating the map from it.
  ShootingResult solve(ConstVectorRef guess);
  StroboscopicMap& map() { return map_; }

 private:
  // Residual and Jacobian of the chosen formulation at the unknowns X; the monodromy and
  // impacts of the orbit through X's first point go to `orbit`.
  struct Evaluation {
    Vector residual;
    Matrix jacobian;
    Matrix monodromy;
    int impacts = 0;
    FlowReport report;
  };
  bool evaluate(const Vector& unknowns, Evaluation& out);

  int period_;
  ShootingOptions options_;
  StroboscopicMap map_;
};

}  // namespace libcont
