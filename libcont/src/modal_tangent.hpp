#pragma once
// The tangent of a large system across a stretch of an affine mode in one step (Flow's
// exact path, flow.cpp). The exact path (exact_segment.cpp) moves its block of lifted
// columns scan step by scan step, about 50 steps a forcing period, and with the full
// tangent each step is a product of the (n + 3)-square exponential with n + 1 columns: the
// tangent's cost grows as 50 n^3 a period. The tangent needs only the stretch's length:
// Phi(t0 + tau) = expm(A tau) Phi(t0). With A = T D T^-1, D real block-diagonal
// (Eigen's pseudo-eigenvalue form: eigenvalues a, blocks [[a, b], [-b, a]] for the pairs
// a +- ib), expm(A tau) Phi = T expm(D tau) (T^-1 Phi): two products whatever tau. A mode
// whose A has no well-conditioned decomposition (defective, or cond(T) beyond
// kConditionLimit, where rounding would cost more than about four digits) takes
// expm(A tau) (exact_linear_flow.hpp) instead.
#include <array>
#include <limits>
#include <memory>
#include <vector>

#include "libcont/affine_modes.hpp"
#include "libcont/hybrid_system.hpp"

namespace libcont::detail {

class ModalTangent {
 public:
  // State dimensions from which Flow carries the tangent this way: smaller systems keep
  // the exact path's own tangent, whose cost is small there.
  static constexpr int kFromDimension = 24;
  static constexpr double kConditionLimit = 1e4;

  explicit ModalTangent(const HybridSystem& system);

  // tangent <- expm(A tau) tangent for the mode's A (any number of columns).
  void advance(int mode, double tau, MatrixRef tangent);

  // A = T D T^-1 with D real block-diagonal, as Eigen's pseudo-eigenvalue form gives it.
  // The decompositions made last are shared by the flows of a thread (a continuation
  // makes new flows at every point, mostly with the same A); the exact path's event-free
  // bound (event_free_bound.hpp) uses them too, with a condition limit of its own.
  struct Decomposition {
    Matrix A;             // the data it was made from
    bool exact = false;   // finite, and T D T^-1 reproduces A to rounding
    double condition = std::numeric_limits<double>::infinity();  // of T, 1-norm
    bool ok = false;      // exact, and condition <= kConditionLimit
    Matrix T, T_inverse;
    Matrix D;             // block-diagonal
  };
  static std::shared_ptr<const Decomposition> decompose(const Matrix& A);

 private:
  // The decomposition of the mode's current A. Those made last are shared by the flows of
  // a thread (a continuation makes new flows at every point, mostly with the same A).
  std::shared_ptr<const Decomposition> refresh(int mode);

  const HybridSystem& system_;
  const AffineModes* affine_;
  AffineMode data_;
  std::vector<std::shared_ptr<const Decomposition>> modes_;
  Matrix modal_, exponential_;
  std::array<Matrix, 3> work_;
};

}  // namespace libcont::detail
