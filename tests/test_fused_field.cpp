// The field, D_x f and D_p f in one call (AnalyticJacobians::field_and_derivatives), which
// the tangent flow's right-hand side takes where a model gives it: the same numbers as
// vector_field, state_jacobian and field_parameter_derivative one by one, to the bit, in
// every mode of the structures that give it, at random states (both sides of each
// contact) and times; not given where a law with regimes or an additional force enters.
// And the tangent flow with it against the same model without it, to the bit.
#include <catch2/catch.hpp>

#include <random>

#include "libcont/flow.hpp"
#include "libcont/jacobians.hpp"
#include "libcont/parameter_derivatives.hpp"
#include "systems/duffing.hpp"
#include "systems/moving_base.hpp"
#include "systems/rheological.hpp"
#include "systems/two_body.hpp"

using libcont::Matrix;
using libcont::Vector;

namespace {

// Every mode, `samples` random states around x0 (spread: each component's scale) and
// times in [0, 2 pi]; each parameter the model gives derivatives in, and none. Returns how
// many points the fused call was given at.
int check_fused_against_separate(const libcont::ImpactingStructure& model, const Vector& x0,
                                 const Vector& spread, const std::vector<int>& parameters,
                                 int samples) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const int n = model.dimension();
  int given = 0;
  for (int mode = 0; mode < model.mode_count(); ++mode)
    for (int k = 0; k < samples; ++k) {
      Vector x = x0;
      for (int i = 0; i < n; ++i) x[i] += spread[i] * unit(random);
      const double t = 3.2 * (1.0 + unit(random));
      for (const int parameter : parameters) {
        CAPTURE(mode, k, t, parameter);
        Vector f(n), f_fused(n), dp = Vector::Constant(n, 7.0), dp_fused = dp;
        Matrix jac(n, n), jac_fused = Matrix::Constant(n, n, 7.0);
        if (!model.field_and_derivatives(mode, t, x, f_fused, jac_fused, parameter, dp_fused))
          continue;
        ++given;
        model.vector_field(mode, t, x, f);
        REQUIRE(model.state_jacobian(mode, t, x, jac));
        if (parameter >= 0) model.field_parameter_derivative(parameter, mode, t, x, dp);
        for (int i = 0; i < n; ++i) {
          REQUIRE(f_fused[i] == f[i]);
          REQUIRE(dp_fused[i] == dp[i]);  // untouched by either without a parameter
          for (int j = 0; j < n; ++j) REQUIRE(jac_fused(i, j) == jac(i, j));
        }
      }
    }
  return given;
}

// The same model without the fused call: the flow asks for the three one by one.
template <class System>
class WithoutFusedCall : public System {
 public:
  bool field_and_derivatives(int, double, libcont::ConstVectorRef, libcont::VectorRef,
                             libcont::MatrixRef, int, libcont::VectorRef) const override {
    return false;
  }
};

}  // namespace

TEST_CASE("the fused field and derivatives equal the separate calls", "[fused_field]") {
  SECTION("two-body Hertz: contact open and closed, dx/dlambda harmonic") {
    for (const double lambda : {0.5, 2.0}) {
      systems::TwoBodySystem model;
      model.set_parameter_text("contact", "hertz");
      model.set_parameter("lambda", lambda);
      const int p = libcont::derivative_parameter(model, "lambda");
      REQUIRE(p >= 0);
      const Vector x0 = model.default_initial_state();
      // Gap x2 - x1 from well open to a deep contact: spreads beyond the clearance.
      const Vector spread = Vector::Constant(4, 0.05 * lambda);
      REQUIRE(check_fused_against_separate(model, x0, spread, {-1, p}, 40) == 2 * 2 * 40);
    }
  }
  SECTION("moving base, soft contact: the surface's motion in the field and D_x f") {
    systems::MovingBaseOscillator model;
    model.set_parameter_text("model", "soft");
    model.set_parameter("omega", 2.7);
    REQUIRE(model.mode_count() == 2);
    const Vector spread = Vector::Constant(2, 0.01);
    REQUIRE(check_fused_against_separate(model, Vector::Zero(2), spread, {-1}, 40) == 2 * 40);
  }
  SECTION("Duffing without its cubic force: a harmonic parameter, one mode") {
    systems::DuffingOscillator model;
    model.set_parameter("k3", 0.0);
    const int p = libcont::derivative_parameter(model, "a");
    REQUIRE(p >= 0);
    REQUIRE(check_fused_against_separate(model, Vector::Zero(2), Vector::Ones(2), {-1, p}, 20) ==
            2 * 20);
  }
  SECTION("not given with an additional force or a law with regimes") {
    systems::TwoBodySystem random_load;
    random_load.set_parameter_text("contact", "hertz");
    random_load.set_parameter_text("loading", "random");
    const int p = libcont::derivative_parameter(random_load, "lambda");
    REQUIRE(check_fused_against_separate(random_load, random_load.default_initial_state(),
                                         Vector::Constant(4, 0.01), {-1, p}, 5) == 0);
    systems::DuffingOscillator cubic;  // its cubic stiffness: an additional force
    REQUIRE(check_fused_against_separate(cubic, Vector::Zero(2), Vector::Ones(2), {-1}, 5) == 0);
    systems::RheologicalDamperDrop drop;
    REQUIRE(check_fused_against_separate(drop, drop.default_initial_state(),
                                         Vector::Constant(3, 0.01), {-1}, 5) == 0);
  }
}

TEST_CASE("the tangent flow with the fused call equals the flow without it", "[fused_field]") {
  for (const double lambda : {0.6, 1.5, 3.0}) {
    CAPTURE(lambda);
    systems::TwoBodySystem model;
    WithoutFusedCall<systems::TwoBodySystem> general;
    for (libcont::HybridSystem* s : {static_cast<libcont::HybridSystem*>(&model),
                                     static_cast<libcont::HybridSystem*>(&general)}) {
      s->set_parameter_text("contact", "hertz");
      s->set_parameter("lambda", lambda);
    }
    libcont::FlowOptions options;
    options.tangent = true;
    options.parameter_column = "lambda";
    libcont::Flow fast(model, options), slow(general, options);
    const Vector x = model.default_initial_state();
    libcont::FlowState a = fast.initial_state(0.0, x), b = slow.initial_state(0.0, x);
    const double duration = 5.0 * model.forcing_period();
    const auto ra = fast.advance(a, duration), rb = slow.advance(b, duration);
    REQUIRE(ra.ok());
    REQUIRE(rb.ok());
    REQUIRE(ra.events > 0);  // through contacts
    REQUIRE(ra.steps == rb.steps);
    for (Eigen::Index i = 0; i < x.size(); ++i) REQUIRE(a.x[i] == b.x[i]);
    for (Eigen::Index j = 0; j < a.tangent.cols(); ++j)
      for (Eigen::Index i = 0; i < a.tangent.rows(); ++i)
        REQUIRE(a.tangent(i, j) == b.tangent(i, j));
  }
}
