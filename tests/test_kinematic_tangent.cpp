// The tangent flow's product where the Jacobian's first rows are [0, I, 0] (a mechanical
// structure, AnalyticJacobians::kinematic_rows): those rows copied instead of multiplied
// out. Against the general product (the same model declaring no such rows): the tangent,
// dx/dlambda and the state the same to the bit, on the sizes the product has fixed at
// compile time (two-body: 4 states, 2 rows; Duffing: 2 and 1) and on the general size
// (the rheological drop: 3 states with the damper's internal coordinate, 1 row).
#include <catch2/catch.hpp>

#include <random>

#include "libcont/flow.hpp"
#include "systems/duffing.hpp"
#include "systems/rheological.hpp"
#include "systems/two_body.hpp"
#include "test_support.hpp"

using libcont::Flow;
using libcont::FlowOptions;
using libcont::FlowState;
using libcont::Vector;

namespace {

// The same model without the declaration: the tangent product multiplies every row.
template <class System>
class WithoutKinematicRows : public System {
 public:
  int kinematic_rows() const override { return 0; }
};

// Integrates the tangent (and dx/dp where `parameter` is given) from x over `duration`
// with both models and requires the same numbers.
template <class System>
void check_same_tangent(System& model, WithoutKinematicRows<System>& general,
                        const Vector& x, double duration, const std::string& parameter) {
  REQUIRE(model.kinematic_rows() > 0);
  FlowOptions options;
  options.tangent = true;
  options.parameter_column = parameter;
  Flow fast(model, options), slow(general, options);
  FlowState a = fast.initial_state(0.0, x), b = slow.initial_state(0.0, x);
  REQUIRE(fast.advance(a, duration).ok());
  REQUIRE(slow.advance(b, duration).ok());
  REQUIRE(a.mode == b.mode);
  for (Eigen::Index i = 0; i < x.size(); ++i) REQUIRE(a.x[i] == b.x[i]);
  for (Eigen::Index j = 0; j < a.tangent.cols(); ++j)
    for (Eigen::Index i = 0; i < a.tangent.rows(); ++i) REQUIRE(a.tangent(i, j) == b.tangent(i, j));
}

}  // namespace

TEST_CASE("the kinematic rows' tangent product equals the general one", "[kinematic_tangent]") {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  SECTION("two-body Hertz: 4 states, 2 kinematic rows, through contacts, with dx/dlambda") {
    for (const double lambda : {0.5, 1.0, 3.0}) {
      CAPTURE(lambda);
      systems::TwoBodySystem model;
      WithoutKinematicRows<systems::TwoBodySystem> general;
      for (libcont::HybridSystem* s : {static_cast<libcont::HybridSystem*>(&model),
                                       static_cast<libcont::HybridSystem*>(&general)}) {
        s->set_parameter_text("contact", "hertz");
        s->set_parameter("lambda", lambda);
      }
      for (int k = 0; k < 3; ++k) {
        Vector x = model.default_initial_state();
        for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += 0.05 * lambda * unit(random);
        check_same_tangent(model, general, x, 3.0 * model.forcing_period(), "lambda");
      }
    }
  }
  SECTION("Duffing: 2 states, 1 kinematic row") {
    systems::DuffingOscillator model;
    WithoutKinematicRows<systems::DuffingOscillator> general;
    for (int k = 0; k < 3; ++k)
      check_same_tangent(model, general, test_support::vec2(unit(random), unit(random)),
                         2.0 * model.forcing_period(), "");
  }
  SECTION("rheological drop: 3 states with an internal coordinate, the general size") {
    systems::RheologicalDamperDrop model;
    WithoutKinematicRows<systems::RheologicalDamperDrop> general;
    REQUIRE(model.dimension() == 3);
    check_same_tangent(model, general, model.default_initial_state(), 1.0, "");
  }
}
