#include "libcont/neimark_sacker_curve_problem.hpp"

#include <cmath>
#include <complex>

#include "libcont/floquet.hpp"

namespace libcont {

namespace {

// A = M^2 - 2 kappa M + I.
Matrix critical_product(const Matrix& m, double kappa) {
  return m * m - 2.0 * kappa * m + Matrix::Identity(m.rows(), m.cols());
}

}  // namespace

NeimarkSackerCurveProblem::NeimarkSackerCurveProblem(HybridSystem& system, std::string first,
                                                     std::string second, int period,
                                                     FlowOptions flow, double phase)
    : OrbitCurveProblem(system, std::move(first), std::move(second), period, flow, phase),
      test_(system.dimension(), 2) {}

bool NeimarkSackerCurveProblem::critical_kappa(ConstVectorRef x, double p1, double p2,
                                               double& kappa) {
  Vector u(dimension());
  u << x, p2, 0.0;
  MapEvaluation e;
  if (!map_at(u, p1, true, e)) return false;
  double nearest = INFINITY;
  for (const auto& mu : floquet_multipliers(e.jacobian).multipliers) {
    // Of a conjugate pair, the member above the real axis; a real multiplier is no pair.
    if (!(mu.imag() > 1e-12 * std::abs(mu))) continue;
    const double distance = std::abs(std::abs(mu) - 1.0);
    if (distance < nearest) {
      nearest = distance;
      kappa = std::cos(std::arg(mu));
    }
  }
  return std::isfinite(nearest);
}

void NeimarkSackerCurveProblem::pick(const Matrix& g, VectorRef values) const {
  values[0] = g(entries_[0].first, entries_[0].second);
  values[1] = g(entries_[1].first, entries_[1].second);
}

bool NeimarkSackerCurveProblem::conditions(const Matrix& m, ConstVectorRef auxiliary,
                                           VectorRef values) {
  if (!test_.evaluate(critical_product(m, auxiliary[0]))) return false;
  pick(test_.value(), values);
  return true;
}

void NeimarkSackerCurveProblem::condition_change(const Matrix& m, const Matrix& dm,
                                                 ConstVectorRef auxiliary,
                                                 VectorRef change) const {
  const Matrix da = m * dm + dm * m - 2.0 * auxiliary[0] * dm;
  pick(test_.derivative(da), change);
}

void NeimarkSackerCurveProblem::auxiliary_derivatives(const Matrix& m, ConstVectorRef,
                                                      MatrixRef derivatives) const {
  pick(test_.derivative(-2.0 * m), derivatives.col(0));
}

void NeimarkSackerCurveProblem::refit(const Matrix& m, ConstVectorRef auxiliary) {
  const double kappa = auxiliary[0];
  const Matrix a = critical_product(m, kappa);
  test_.set_borders(a);
  if (!test_.evaluate(a)) return;  // the conditions will say so
  // G's changes along kappa and along a change of the multipliers' modulus (dM = M): to
  // first order they span the plane of G's values near the curve. Of the six pairs of
  // entries, the one on which they are least dependent.
  const Matrix along_kappa = test_.derivative(-2.0 * m);
  const Matrix along_modulus = test_.derivative(2.0 * (m * m - kappa * m));
  const std::pair<int, int> all[4] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  double best = -1.0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      const auto [r1, c1] = all[i];
      const auto [r2, c2] = all[j];
      const double det = std::abs(along_kappa(r1, c1) * along_modulus(r2, c2) -
                                  along_kappa(r2, c2) * along_modulus(r1, c1));
      if (det > best) {
        best = det;
        entries_[0] = all[i];
        entries_[1] = all[j];
      }
    }
}

std::vector<TestFunction> NeimarkSackerCurveProblem::own_tests() const {
  return {{"resonance-1:1", TestFunction::Kind::SignChange, SpecialPointType::Custom},
          {"resonance-1:2", TestFunction::Kind::SignChange, SpecialPointType::Custom},
          {"resonance-1:3", TestFunction::Kind::SignChange, SpecialPointType::Custom},
          {"resonance-1:4", TestFunction::Kind::SignChange, SpecialPointType::Custom}};
}

bool NeimarkSackerCurveProblem::beyond_range(ConstVectorRef u, double lambda, std::string& why) {
  if (OrbitCurveProblem::beyond_range(u, lambda, why)) return true;
  const auto resonance = resonance_beyond(u);
  if (!resonance) return false;
  why = "the Neimark-Sacker curve ends at a " + resonance->ratio +
        " resonance: beyond it the pair is real (mu and 1/mu: a neutral saddle, no bifurcation)";
  return true;
}

std::optional<NeimarkSackerCurveProblem::Resonance> NeimarkSackerCurveProblem::resonance_beyond(
    ConstVectorRef u) {
  const double kappa = u[u.size() - 1];
  if (std::abs(kappa) <= 1.0) return std::nullopt;
  return kappa > 0.0 ? Resonance{"1:1", 1.0} : Resonance{"1:2", -1.0};
}

Vector NeimarkSackerCurveProblem::own_test_values(ConstVectorRef u, double) {
  const double kappa = u[u.size() - 1];
  Vector values(4);
  values << kappa - 1.0, kappa + 1.0, kappa + 0.5, kappa;
  return values;
}

}  // namespace libcont
