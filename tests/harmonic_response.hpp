#pragma once
// Steady state of a linear forced system M q'' + C q' + K q = Re(F e^{i w t}) (complex
// amplitude F): q(t) = Re(Q e^{i w t}) with (K - w^2 M + i w C) Q = F. The analytic
// reference for models that are linear while away from (or always in) contact.
#include <Eigen/Dense>
#include <complex>

namespace test_support {

struct HarmonicResponse {
  Eigen::VectorXcd amplitude;  // Q
  double frequency = 0.0;      // w

  Eigen::VectorXd position(double t) const {
    return (amplitude * std::exp(std::complex<double>(0.0, frequency * t))).real();
  }
  Eigen::VectorXd velocity(double t) const {
    return (amplitude * std::complex<double>(0.0, frequency) *
            std::exp(std::complex<double>(0.0, frequency * t)))
        .real();
  }
  // (q, q') stacked: the state of a model whose state is (positions, velocities).
  Eigen::VectorXd state(double t) const {
    Eigen::VectorXd x(2 * amplitude.size());
    x << position(t), velocity(t);
    return x;
  }
};

inline HarmonicResponse harmonic_response(const Eigen::MatrixXd& mass, const Eigen::MatrixXd& damping,
                                          const Eigen::MatrixXd& stiffness,
                                          const Eigen::VectorXcd& force, double w) {
  const Eigen::MatrixXcd dynamic = stiffness.cast<std::complex<double>>() -
                                   (w * w) * mass.cast<std::complex<double>>() +
                                   std::complex<double>(0.0, w) * damping.cast<std::complex<double>>();
  return {dynamic.partialPivLu().solve(force), w};
}

}  // namespace test_support
