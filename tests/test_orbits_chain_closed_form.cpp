// All Floquet multipliers of the chain of N oscillators ("chain") on an orbit that never
// reaches the stop, from the orbit search and libcont::orbit_multipliers (the path of
// vicont orbit), against the closed form OscillatorChain::free_flight_multipliers
// (oscillator_chain.hpp; derivation in doc/performance.md, "Large systems"). Such an
// orbit's monodromy is exp(A T): with mass and damping multiples of the identity, the
// underdamped modes all have multipliers of modulus exp(-c T / 2m), a cluster of 2N equal
// moduli (N = 10, 30) in which Arnoldi iteration does not converge. N = 100 also has one
// overdamped mode (two real multipliers off that circle). The stop is put at d = 3:
// at the default d = 1 the 10-mass chain's last mass reaches it (linear response 1.54).
// The closed form itself is checked against the eigenvalues of the model's own free-flight
// matrix (Eigen), including the overdamped modes.
#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "libcont/affine_modes.hpp"
#include "libcont/leading_multipliers.hpp"
#include "libcont/orbit_branch.hpp"
#include "libcont/periodic_orbit_search.hpp"
#include "libcont/shooting.hpp"
#include "systems/oscillator_chain.hpp"
#include "test_support.hpp"

using libcont::Matrix;
using systems::OscillatorChain;
using namespace test_support;

namespace {

struct Deviation {
  double modulus = 0.0;  // largest relative difference of the moduli, both sorted
  double value = 0.0;    // largest distance to the nearest closed-form value, relative
};

Deviation deviation(const Eigen::VectorXcd& computed, const Eigen::VectorXcd& exact) {
  REQUIRE(computed.size() == exact.size());
  std::vector<double> a(static_cast<size_t>(computed.size())), b(a.size());
  for (Eigen::Index i = 0; i < computed.size(); ++i) {
    a[static_cast<size_t>(i)] = std::abs(computed[i]);
    b[static_cast<size_t>(i)] = std::abs(exact[i]);
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  Deviation d;
  for (size_t i = 0; i < a.size(); ++i) d.modulus = std::max(d.modulus, std::abs(a[i] - b[i]) / b[i]);
  for (Eigen::Index i = 0; i < computed.size(); ++i) {
    double nearest = 1e300;
    for (Eigen::Index j = 0; j < exact.size(); ++j)
      nearest = std::min(nearest, std::abs(computed[i] - exact[j]) / std::abs(exact[j]));
    d.value = std::max(d.value, nearest);
  }
  return d;
}

// The orbit as vicont orbit finds it, and all its multipliers; returns the deviations
// from the closed form.
Deviation orbit_against_closed_form(int masses) {
  auto chain = make_system<OscillatorChain>({{"N", std::to_string(masses)}, {"d", "3"}});
  const libcont::OrbitSearchOptions options;
  const libcont::OrbitSearchResult found = libcont::find_periodic_orbit(chain, options);
  INFO("N = " << masses << ": " << found.message);
  REQUIRE(found.found());
  CHECK(found.period == 1);
  CHECK(found.shooting.p == 0);  // never at the stop: the closed form holds
  const libcont::OrbitMultipliers multipliers = libcont::orbit_multipliers(
      chain, found.shooting, found.period, found.phase, options.shooting.flow);
  REQUIRE(multipliers.failure.empty());
  REQUIRE(multipliers.all);
  REQUIRE(multipliers.values.size() == 2 * masses);
  return deviation(multipliers.values, chain.free_flight_multipliers());
}

}  // namespace

TEST_CASE("Chain: the closed-form multipliers are exp(lambda T) of the free flight's matrix",
          "[orbits][chain]") {
  // N = 100 at c = 0.05 has one overdamped mode, N = 300 two (k kappa_1 / m below
  // (c / 2m)^2); c = 0.5 makes many overdamped at N = 30.
  for (const auto& [masses, damping] : std::vector<std::pair<int, std::string>>{
           {1, "0.05"}, {10, "0.05"}, {30, "0.5"}, {100, "0.05"}, {300, "0.05"}}) {
    auto chain = make_system<OscillatorChain>({{"N", std::to_string(masses)}, {"c", damping}});
    const int n = chain.dimension();
    libcont::AffineMode free;  // filled in place, as the exact path does
    free.A = Matrix::Zero(n, n);
    free.b0 = free.b_cos = free.b_sin = libcont::Vector::Zero(n);
    REQUIRE(chain.affine_mode(OscillatorChain::Free, free));
    const Eigen::VectorXcd lambda = Eigen::EigenSolver<Matrix>(free.A, false).eigenvalues();
    const Eigen::VectorXcd from_matrix = (lambda * chain.forcing_period()).array().exp();
    const Eigen::VectorXcd closed = chain.free_flight_multipliers();
    REQUIRE(closed.size() == n);
    const Deviation d = deviation(from_matrix, closed);
    INFO("N = " << masses << ", c = " << damping << ": moduli " << d.modulus << ", values "
                << d.value);
    CHECK(d.modulus <= 1e-9);
    CHECK(d.value <= 1e-9);
    // The overdamped modes: real multipliers off the circle |mu| = exp(-c T / 2m).
    const double circle = std::exp(-std::stod(damping) * chain.forcing_period() / 2.0);
    int off = 0;
    for (const auto& mu : closed) off += std::abs(std::abs(mu) - circle) > 1e-9 * circle;
    if (masses == 100 && damping == "0.05") CHECK(off == 2);
    if (masses == 300) CHECK(off == 4);
    if (masses <= 10) CHECK(off == 0);
  }
}

TEST_CASE("Chain N = 10: all multipliers of the orbit on exp(-c T / 2m), to 1e-9",
          "[orbits][chain]") {
  const Deviation d = orbit_against_closed_form(10);
  INFO("moduli " << d.modulus << ", values " << d.value);
  CHECK(d.modulus <= 1e-9);  // measured: 7e-15
  CHECK(d.value <= 1e-9);    // measured: 4e-14
  auto chain = make_system<OscillatorChain>({{"N", "10"}, {"d", "3"}});
  const double circle = std::exp(-0.05 * chain.forcing_period() / 2.0);
  for (const auto& mu : chain.free_flight_multipliers())
    CHECK(std::abs(std::abs(mu) / circle - 1.0) <= 1e-12);
}

TEST_CASE("Chain N = 30: all multipliers of the orbit on exp(-c T / 2m), to 1e-9",
          "[orbits][chain]") {
  const Deviation d = orbit_against_closed_form(30);
  INFO("moduli " << d.modulus << ", values " << d.value);
  CHECK(d.modulus <= 1e-9);  // measured: 2e-14
  CHECK(d.value <= 1e-9);    // measured: 3e-14
}

TEST_CASE("Chain N = 100: the orbit converges, its 200 multipliers the closed form's",
          "[orbits][chain]") {
  const Deviation d = orbit_against_closed_form(100);
  INFO("moduli " << d.modulus << ", values " << d.value);
  CHECK(d.modulus <= 1e-9);  // measured: 8e-14
  CHECK(d.value <= 1e-9);
}

TEST_CASE("Chain N = 300: the orbit converges, its 600 multipliers the closed form's",
          "[orbits][chain][long]") {
  const Deviation d = orbit_against_closed_form(300);
  INFO("moduli " << d.modulus << ", values " << d.value);
  CHECK(d.modulus <= 1e-9);  // measured: 3e-14
  CHECK(d.value <= 1e-9);
}

namespace {

// The column `name` of the branch's point data.
double data_of(const libcont::OrbitBranch& branch, const libcont::BranchPoint& point,
               const std::string& name) {
  const auto at = std::find(branch.data_names.begin(), branch.data_names.end(), name);
  REQUIRE(at != branch.data_names.end());
  return point.data[at - branch.data_names.begin()];
}

// The semi-amplitude of the last mass per unit F0 on the linear (stop-free) steady state:
// the free flight x' = A x + b_cos cos(wt) + b_sin sin(wt) (+ b0) has the response
// x0 + Re(X e^{iwt}) with (iw - A) X = b_cos - i b_sin and A x0 = -b0.
double linear_amplitude_per_force(const OscillatorChain& chain, double& offset) {
  const int n = chain.dimension(), last = chain.count() - 1;
  libcont::AffineMode free;
  free.A = Matrix::Zero(n, n);
  free.b0 = free.b_cos = free.b_sin = libcont::Vector::Zero(n);
  REQUIRE(chain.affine_mode(OscillatorChain::Free, free));
  const double w = 2.0 * M_PI / chain.forcing_period(), force = chain.parameters()["F0"];
  const Eigen::MatrixXcd system = std::complex<double>(0.0, w) * Eigen::MatrixXcd::Identity(n, n) -
                                  free.A.cast<std::complex<double>>();
  const Eigen::VectorXcd rhs = free.b_cos.cast<std::complex<double>>() -
                               std::complex<double>(0.0, 1.0) * free.b_sin.cast<std::complex<double>>();
  const Eigen::VectorXcd response = system.partialPivLu().solve(rhs);
  offset = (-free.A.partialPivLu().solve(free.b0))[last];
  return std::abs(response[last]) / force;
}

// The loading curve in F0 of a chain whose last mass reaches the stop (d = 1) as the load
// grows: the stop-free branch is the linear response (closed form above), the grazing lies
// where its largest displacement is d, and from there a family of one-impact orbits goes on
// (unstable near the grazing, the saltation growing like 1 / speed). Two failures seen
// before: at N = 30 the passage's first guess of that family landed on the non-impacting
// side (the grazing is located from far on a linear family) and the branch ended there
// with an empty reason; at N = 50 the hand-over to arclength continuation went back the
// way the passage came, through the same grazing, down to the start. Each side is checked
// against an independent computation: the linear branch and the grazing against the closed
// form, an impacting row against shooting on CVODE from it.
void loading_curve_through_the_stop(int masses) {
  auto chain = make_system<OscillatorChain>({{"N", std::to_string(masses)}});
  double offset = 0.0;
  const double per_force = linear_amplitude_per_force(chain, offset);
  CHECK(std::abs(offset) <= 1e-14);  // a load without a constant part
  const double grazing = chain.parameters()["d"] / per_force;
  const double to = grazing + 0.6;

  const libcont::OrbitSearchResult start = libcont::find_periodic_orbit(chain);
  REQUIRE(start.found());
  const libcont::OrbitBranch branch =
      libcont::trace_orbit_branch(chain, start, libcont::OrbitBranchOptions("F0", 1.0, to));
  INFO("N = " << masses << ": " << branch.stop_reason);
  REQUIRE(branch.ok());
  CHECK(branch.points.back().lambda == to);

  int grazings = 0;
  for (const auto& s : branch.special_points)
    if (s.type == libcont::SpecialPointType::Grazing) {
      ++grazings;
      CHECK(std::abs(s.lambda - grazing) <= 1e-9 * grazing);
    }
  CHECK(grazings == 1);

  const std::string amplitude = "A_max:x" + std::to_string(masses);
  int impacting = 0;
  const libcont::BranchPoint* probe = nullptr;
  double previous = 0.0;
  for (const auto& p : branch.points) {
    const int impacts = static_cast<int>(data_of(branch, p, "impacts"));
    CHECK(p.lambda > previous);  // no turning back
    previous = p.lambda;
    if (p.lambda < grazing) {
      CHECK(impacts == 0);
      CHECK(std::abs(data_of(branch, p, amplitude) - per_force * p.lambda) <= 1e-9);
    } else {
      CHECK(impacts == 1);
      ++impacting;
      if (probe == nullptr && p.lambda > grazing + 0.2) probe = &p;
    }
  }
  CHECK(impacting >= 5);
  REQUIRE(probe != nullptr);

  // The probe's orbit shot again on CVODE (not the exact path the branch ran on), from the
  // branch's point on its own section: the same orbit, and the same multipliers from
  // CVODE's variational equations and the saltation matrix.
  chain.set_parameter("F0", probe->lambda);
  libcont::ShootingOptions cvode;
  cvode.flow.exact_linear_modes = false;
  const libcont::ShootingResult again = libcont::Shooting(chain, 1, cvode, probe->chart).solve(probe->u);
  INFO("F0 = " << probe->lambda << ": " << again.reason);
  REQUIRE(again.converged);
  CHECK(again.p == 1);
  CHECK((again.x - probe->u).norm() <= 1e-7 * probe->u.norm());
  const double radius = Eigen::EigenSolver<Matrix>(again.monodromy, false).eigenvalues().cwiseAbs().maxCoeff();
  CHECK(std::abs(radius - data_of(branch, *probe, "spectral_radius")) <= 1e-6 * radius);
  CHECK(radius > 1.0);  // unstable near the grazing
}

}  // namespace

TEST_CASE("Chain N = 30: the loading curve passes the grazing with the stop", "[orbits][chain][grazing]") {
  loading_curve_through_the_stop(30);  // the grazing at F0 = 1.3398115...
}

TEST_CASE("Chain N = 50: the loading curve passes the grazing with the stop",
          "[orbits][chain][grazing][long]") {
  loading_curve_through_the_stop(50);  // the grazing at F0 = 1.9960410...
}
