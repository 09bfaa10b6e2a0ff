#include "libcont/leading_multipliers.hpp"

#include <Spectra/GenEigsSolver.h>

#include <algorithm>

#include "libcont/floquet.hpp"
#include "libcont/input_error.hpp"

namespace libcont {

namespace {

// Spectra's operator concept: rows(), cols(), perform_op(in, out) (const).
class MonodromyOperator {
 public:
  using Scalar = double;
  MonodromyOperator(StroboscopicMap& map, ConstVectorRef point, int period)
      : map_(map), point_(point), period_(period), size_(point.size()) {}
  Eigen::Index rows() const { return size_; }
  Eigen::Index cols() const { return size_; }
  void perform_op(const double* in, double* out) const {
    Eigen::Map<const Vector> v(in, size_);
    Eigen::Map<Vector> result(out, size_);
    ++products_;
    if (failed_ || !map_.apply_jacobian(point_, period_, v, product_, report_)) {
      failed_ = true;  // Spectra has no error channel: finish with zeros, report after
      result.setZero();
      return;
    }
    result = product_;
  }
  bool failed() const { return failed_; }
  int products() const { return products_; }
  const FlowReport& report() const { return report_; }

 private:
  StroboscopicMap& map_;
  Vector point_;
  int period_;
  Eigen::Index size_;
  mutable Vector product_;
  mutable FlowReport report_;
  mutable bool failed_ = false;
  mutable int products_ = 0;
};

}  // namespace

LeadingMultipliers leading_multipliers(StroboscopicMap& map, ConstVectorRef orbit_point,
                                       int period, int count) {
  const auto n = static_cast<int>(orbit_point.size());
  if (count < 1 || count > n - 2)
    throw InputError("number of leading multipliers must lie in [1, n - 2] (n = " +
                     std::to_string(n) + ")");
  MonodromyOperator op(map, orbit_point, period);
  const int subspace = std::min(n, std::max(2 * count + 1, 20));
  Spectra::GenEigsSolver<MonodromyOperator> solver(op, count, subspace);
  solver.init();
  solver.compute(Spectra::SortRule::LargestMagn, 1000, 1e-10);
  LeadingMultipliers result;
  result.products = op.products();
  if (op.failed()) {
    result.message = "tangent-flow product failed: " + op.report().message;
    return result;
  }
  result.converged = solver.info() == Spectra::CompInfo::Successful;
  if (!result.converged) result.message = "Arnoldi iteration did not converge";
  result.multipliers = solver.eigenvalues();
  return result;
}

OrbitMultipliers orbit_multipliers(const HybridSystem& system, const ShootingResult& orbit,
                                   int period, double phase, const FlowOptions& flow, int count) {
  OrbitMultipliers m;
  const int n = system.dimension();
  if (n <= OrbitMultipliers::full_spectrum_limit && orbit.monodromy.rows() == n &&
      orbit.monodromy.cols() == n) {
    m.values = floquet_multipliers(orbit.monodromy).multipliers;
    return m;
  }
  m.all = false;
  StroboscopicMap map(system, flow, phase);
  const LeadingMultipliers leading = leading_multipliers(map, orbit.x, period, count);
  m.values = leading.multipliers;
  if (!leading.converged) m.failure = "leading multipliers: " + leading.message;
  return m;
}

}  // namespace libcont
