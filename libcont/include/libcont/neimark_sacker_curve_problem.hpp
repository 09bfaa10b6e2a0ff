#pragma once
// The Neimark-Sacker curve of periodic orbits in two parameters (orbit_curve_problem.hpp):
// a complex pair of Floquet multipliers e^{+-i theta} on the unit circle. The auxiliary
// unknown is kappa = cos theta, u = (x, p2, kappa), and the conditions are two entries of
// the 2 x 2 minimally augmented test function G of
//
//     A = M^2 - 2 kappa M + I = (M - e^{i theta} I)(M - e^{-i theta} I),
//
// which has a two-dimensional null space (the real and imaginary parts of the critical
// eigenvector) exactly where e^{+-i theta} are multipliers (bordered_test_function.hpp
// with k = 2; Govaerts, "Numerical methods for bifurcations of dynamical equilibria", 2000,
// and Kuznetsov, "Elements of applied bifurcation theory", on this bialternate-free
// formulation). Near the curve G is, to first order, -W^T A V restricted to the critical
// plane, a matrix of the algebra spanned by I and M's rotation there: its four entries are
// combinations of two numbers (real and imaginary part of (mu - e^{i theta})(mu -
// e^{-i theta}) for the nearby multiplier mu), so two of them suffice and the extended
// Jacobian stays square, of size n + 2 in (x, p2, kappa) with p1 the engine's lambda. Which
// two is chosen at each refit of the borders: the pair whose changes along kappa (2 W^T M V)
// and along a change of the multipliers' modulus (M -> (1 + e) M: -2 W^T (M^2 - kappa M) V)
// are the least dependent. A fixed pair can fail: with W ~ V and M a rotation on the plane,
// G ~ -[[a, -b], [b, a]] and G11, G22 both measure a alone.
// Derivatives: dG = -W^T dA V with dA = M dM + dM M - 2 kappa dM along x, p2 and p1 (dM from
// the base's central differences), and dA = -2 M along kappa (analytic).
// Codimension-two tests along the curve (sign changes located by the engine):
//   resonance-1:1  kappa - 1     (theta -> 0: the pair meets at +1)
//   resonance-1:2  kappa + 1     (theta -> pi: the pair meets at -1)
//   resonance-1:3  kappa + 1/2   (theta = 2 pi / 3)
//   resonance-1:4  kappa         (theta = pi / 2)
// and, from the base, the grazing where the curve runs into one of its hard impacts.
// Beyond a 1:1 or 1:2 resonance (|kappa| > 1) the same equations hold for a real pair mu,
// 1/mu, a neutral saddle, which is no bifurcation: the curve ends there (beyond_range;
// orbit_curve.hpp puts its last row on the resonance).
#include <optional>
#include <string>

#include "libcont/bordered_test_function.hpp"
#include "libcont/orbit_curve_problem.hpp"

namespace libcont {

class NeimarkSackerCurveProblem : public OrbitCurveProblem {
 public:
  enum Test { Resonance11 = 0, Resonance12 = 1, Resonance13 = 2, Resonance14 = 3 };
  NeimarkSackerCurveProblem(HybridSystem& system, std::string first, std::string second,
                            int period, FlowOptions flow = {}, double phase = 0.0);

  // kappa = cos theta of the complex multiplier pair nearest to the unit circle of the orbit
  // through x at (p1, p2), from one map with the tangent flow: the start's auxiliary
  // unknown. False (failure() says why) if the map fails or M has no complex pair.
  bool critical_kappa(ConstVectorRef x, double p1, double p2, double& kappa);
  // True where p2 leaves its range (the base's) or |kappa| > 1 (the pair is real).
  bool beyond_range(ConstVectorRef u, double lambda, std::string& why) override;
  // The resonance a point with |kappa| > 1 lies beyond: its ratio ("1:1", "1:2"), the name
  // of its test, and kappa there.
  struct Resonance {
    std::string ratio;
    double kappa;
    std::string test_name() const { return "resonance-" + ratio; }
  };
  static std::optional<Resonance> resonance_beyond(ConstVectorRef u);
  // Of the last evaluation: the bordered solution (G, V, W).
  const BorderedTestFunction& test_function() const { return test_; }
  // The entries (row, column) of G that are the conditions, as last chosen.
  std::pair<int, int> first_entry() const { return entries_[0]; }
  std::pair<int, int> second_entry() const { return entries_[1]; }

 protected:
  int auxiliary_count() const override { return 1; }
  bool conditions(const Matrix& m, ConstVectorRef auxiliary, VectorRef values) override;
  void condition_change(const Matrix& m, const Matrix& dm, ConstVectorRef auxiliary,
                        VectorRef change) const override;
  void auxiliary_derivatives(const Matrix& m, ConstVectorRef auxiliary,
                             MatrixRef derivatives) const override;
  void refit(const Matrix& m, ConstVectorRef auxiliary) override;
  double fit() const override { return test_.fit(); }
  std::vector<TestFunction> own_tests() const override;
  Vector own_test_values(ConstVectorRef u, double lambda) override;

 private:
  // The two chosen entries of a 2 x 2 matrix.
  void pick(const Matrix& g, VectorRef values) const;
  BorderedTestFunction test_;
  std::pair<int, int> entries_[2] = {{0, 0}, {1, 0}};
};

}  // namespace libcont
