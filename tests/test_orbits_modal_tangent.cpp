// The tangent of large systems on the exact path (libcont/src/modal_tangent.hpp): from 24
// state dimensions Flow carries it across each stretch of an affine mode in one step,
// T expm(D tau) T^-1 from the mode's real block-diagonal decomposition (or expm(A tau)
// where that is ill-conditioned), instead of scan step by scan step. Checked on the chain
// of N oscillators: the saltation-corrected Jacobian of a map with impacts against CVODE's
// (the general path, an independent integration of the tangent), and the map of a
// critically damped chain, whose A is defective (the fallback), against Eigen's matrix
// exponential (Pade, unsupported/MatrixFunctions) of the free flight's A. The
// non-impacting orbits' multipliers against the closed form: test_orbits_chain_closed_form.
// Also: a new load of a large system rescales the exact path's cached exponentials
// (exact_linear_flow.cpp), against maps computed afresh.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <unsupported/Eigen/MatrixFunctions>

#include "libcont/affine_modes.hpp"
#include "libcont/poincare_map.hpp"
#include "systems/oscillator_chain.hpp"
#include "test_support.hpp"

using libcont::FlowOptions;
using libcont::Matrix;
using libcont::StroboscopicMap;
using libcont::Vector;
using systems::OscillatorChain;
using namespace test_support;

namespace {

double relative(const Matrix& a, const Matrix& b) { return (a - b).norm() / b.norm(); }

}  // namespace

TEST_CASE("Modal tangent: a map of the 15-mass chain with impacts against CVODE's",
          "[orbits][modal-tangent]") {
  // n = 30: the modal tangent. F0 = 2, omega = 0.3, d = 0.5: the last mass hits the stop
  // every period.
  auto chain = make_system<OscillatorChain>(
      {{"N", "15"}, {"F0", "2"}, {"omega", "0.3"}, {"d", "0.5"}});
  const Vector start = settle(chain, 0.0, Vector::Zero(30), 100).x;
  FlowOptions exact;
  FlowOptions general;
  general.exact_linear_modes = false;
  general.relative_tolerance = 1e-12;
  general.absolute_tolerance = 1e-14;
  general.tangent_absolute_tolerance = 1e-13;
  const auto modal = StroboscopicMap(chain, exact).iterate(start, 1, true);
  const auto cvode = StroboscopicMap(chain, general).iterate(start, 1, true);
  REQUIRE(modal.ok());
  REQUIRE(cvode.ok());
  CHECK(modal.impacts >= 1);
  CHECK(modal.impacts == cvode.impacts);
  INFO("impacts " << modal.impacts << "; x " << relative(modal.x, cvode.x) << ", jacobian "
                  << relative(modal.jacobian, cvode.jacobian));
  CHECK(relative(modal.x, cvode.x) <= 1e-9);
  CHECK(relative(modal.jacobian, cvode.jacobian) <= 1e-8);  // measured: 1.5e-10
  // One tangent column (the matrix-free products of leading_multipliers.hpp): the same.
  StroboscopicMap narrow(chain);
  const Vector v = Vector::Unit(30, 3) - 0.5 * Vector::Unit(30, 17);
  Vector product;
  libcont::FlowReport report;
  REQUIRE(narrow.apply_jacobian(start, 1, v, product, report));
  CHECK(relative(product, modal.jacobian * v) <= 1e-12);
}

TEST_CASE("Modal tangent: a critically damped chain (defective A) against Eigen's expm",
          "[orbits][modal-tangent]") {
  // c = 2 sqrt(k kappa_1 m) makes the softest mode critically damped: a double eigenvalue
  // with one eigenvector, where the decomposition is refused and expm(A tau) taken. The
  // stop far away: the map is expm(A T) on the tangent.
  const int masses = 12;
  const double pi = std::acos(-1.0);
  const double s = std::sin(pi / (4 * masses + 2));
  const double critical = 2.0 * std::sqrt(4.0 * s * s);
  auto chain = make_system<OscillatorChain>({{"N", std::to_string(masses)}, {"d", "100"}});
  chain.set_parameter("c", critical);
  const int n = chain.dimension();
  libcont::AffineMode free;
  free.A = Matrix::Zero(n, n);
  free.b0 = free.b_cos = free.b_sin = Vector::Zero(n);
  REQUIRE(chain.affine_mode(OscillatorChain::Free, free));
  const Matrix expected = (free.A * chain.forcing_period()).exp();
  const auto map = StroboscopicMap(chain).iterate(Vector::Zero(n), 1, true);
  REQUIRE(map.ok());
  CHECK(map.impacts == 0);
  INFO("relative difference " << relative(map.jacobian, expected));
  CHECK(relative(map.jacobian, expected) <= 1e-12);
}

TEST_CASE("Exact path of a large system: a new load rescales the cached exponentials",
          "[orbits][modal-tangent]") {
  // ExactLinearFlow::set_mode keeps the exponentials of a system of 24 or more states when
  // the forcing only changed by a factor, their forcing columns scaled. The same map at the
  // new F0 after maps at the old one (the caches filled, then rescaled) against a fresh
  // map (computed anew), with and without impacts.
  for (const std::string stop : {"0.5", "100"}) {
    auto chain = make_system<OscillatorChain>(
        {{"N", "15"}, {"F0", "2"}, {"omega", "0.3"}, {"d", stop}});
    const Vector start = settle(chain, 0.0, Vector::Zero(30), 20).x;
    StroboscopicMap kept(chain);
    for (int k = 0; k < 3; ++k) REQUIRE(kept.iterate(start, 1, true).ok());
    chain.set_parameter("F0", 2.7);
    const auto rescaled = kept.iterate(start, 1, true);
    const auto fresh = StroboscopicMap(chain).iterate(start, 1, true);
    REQUIRE(rescaled.ok());
    REQUIRE(fresh.ok());
    CHECK(rescaled.impacts == fresh.impacts);
    CHECK((stop == "100" ? fresh.impacts == 0 : fresh.impacts >= 1));
    INFO("d = " << stop << ": x " << relative(rescaled.x, fresh.x) << ", jacobian "
                << relative(rescaled.jacobian, fresh.jacobian));
    CHECK(relative(rescaled.x, fresh.x) <= 1e-13);
    CHECK(relative(rescaled.jacobian, fresh.jacobian) <= 1e-12);
  }
}
