// Saltation-corrected Jacobians of the stroboscopic maps of the moving-base oscillator
// against finite differences of the maps themselves: P: x(t0) -> x(t0 + T)
// and, for the z = 1/2 orbit at eta = 4, P^2 over 2T. A monodromy matrix that skips the
// saltation matrix must be far off.
//
// How the check is made honest and sharp:
// - The section point comes from a settled motion (200 transient periods); the maps are
//   then evaluated from t0 = 0, which is the same Poincare section because the forcing is
//   T-periodic. (CVODE locates events to ~100 eps max(|t|, |h|) in time: from t0 = 200 T
//   that is ~1e-11 s, enough to spoil finite differences; from t0 = 0 it is ~1e-14 s.)
// - The mapped interval must contain at least one event, or the check would not involve a
//   saltation matrix at all; we step forward period by period until it does.
// - A monodromy matrix without the event-time correction (S = D_x g, or S = I) is checked
//   against the same differences and must fail where the correction is not zero.
// - Fourth-order central differences with a step of 3e-4 a (a = 0.0025 m is the motion
//   scale) at rtol 1e-13: truncation and the amplified integration error stay below
//   ~5e-8 relative in every case (measured); the tolerance 1e-6 leaves a margin of 20.
//   (Second-order differences with a step of 1e-6 a, as first planned, scatter by up to
//   1e-5 in the soft cases: the integration error of ~1e-13 m divided by h = 2.5e-9 m.)
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "systems/moving_base.hpp"
#include "test_support.hpp"

using libcont::Matrix;
using libcont::Vector;
using systems::MovingBaseOscillator;
using namespace test_support;

namespace {

constexpr double a = 0.0025;
constexpr double kJacobianTolerance = 1e-6;

struct SectionPoint {
  Vector x;
  long events;  // in the mapped interval
};

// A settled state at the section t0 = 0 whose next `periods` forcing periods contain an
// event.
SectionPoint section_point(const MovingBaseOscillator& system, int periods) {
  const double duration = periods * system.forcing_period();
  Vector x = settle(system, 0.0, vec2(0.0, 0.0), 200).x;
  for (int attempt = 0; attempt < 20; ++attempt) {
    const MapResult next = flow_map(system, tight_options(), 0.0, x, duration, false);
    if (!next.report.ok()) break;
    // At eta = 7.1 the settled motion is chaotic: a map where the difference steps of
    // check_map change the number of events (an event, or a near-grazing, at the map's
    // ends) is passed over, since P is not smooth there; so is a map with an impact slower
    // than a quarter of the base's speed a omega, near which P is curved on the
    // differences' scale (measured: an impact at 0.054 a omega left fourth-order
    // differences at 3e-4 a off by 4.5e-5, falling as h^4 to 1.7e-7 at h / 4, against the
    // same saltation Jacobian; which chaotic map the settling reaches depends on rounding).
    const auto& events = next.events.events;
    const double slowest = 0.25 * a * 2.0 * M_PI / system.forcing_period();
    bool clear = !events.empty();
    for (const auto& e : events) clear = clear && !(std::abs(e.rate) < slowest);
    for (int j = 0; j < 2 && clear; ++j)
      for (double step : {-2.0, -1.0, 1.0, 2.0}) {
        Vector y = x;
        y[j] += step * 3e-4 * a;
        const MapResult m = flow_map(system, tight_options(), 0.0, y, duration, false);
        clear = clear && m.report.ok() && m.events.events.size() == events.size();
      }
    if (clear) return {x, static_cast<long>(events.size())};
    x = next.x;
  }
  FAIL("no map with events clear of its ends within 20 maps of the settled motion");
  return {};
}

struct JacobianCheck {
  double error;            // saltation-corrected Jacobian vs differences
  double error_naive;      // S = D_x g only (event-time shift ignored)
  double error_identity;   // S = I (events ignored in the tangent)
  long events;
};

JacobianCheck check_map(const MovingBaseOscillator& system, int periods) {
  const SectionPoint p = section_point(system, periods);
  const double duration = periods * system.forcing_period();
  const FlowOptions options = tight_options();
  const MapResult with_tangent = flow_map(system, options, 0.0, p.x, duration, true);
  REQUIRE(with_tangent.report.ok());
  const auto map = [&](const Vector& x) {
    const MapResult m = flow_map(system, options, 0.0, x, duration, false);
    REQUIRE(m.report.ok());
    // A perturbation must not change which events happen, or P is not smooth there.
    REQUIRE(m.events.events.size() == with_tangent.events.events.size());
    return m.x;
  };
  const Matrix differences = fourth_order_differences(map, p.x, Vector::Constant(2, 3e-4 * a));

  const WithoutSaltation naive(system, false), identity(system, true);
  const Matrix naive_jacobian = flow_map(naive, options, 0.0, p.x, duration, true).jacobian;
  const Matrix identity_jacobian = flow_map(identity, options, 0.0, p.x, duration, true).jacobian;
  return {relative_error(with_tangent.jacobian, differences),
          relative_error(naive_jacobian, differences),
          relative_error(identity_jacobian, differences), p.events};
}

// Whether dropping the event-time correction must change the Jacobian: not for a soft
// contact with c_s = 0, whose field is continuous at h = 0 (S = I = D_x g exactly).
bool saltation_matters(const MovingBaseOscillator& system) {
  return system.hard() || system.contact_damping() > 0.0;
}

// The corrected Jacobian passes; the uncorrected one fails the same test by a wide margin
// where the correction matters (measured: 0.7 to 2.2 for hard impacts, 8e-5 to 0.8 with
// soft damped contacts, whose entry and exit shears nearly cancel over a short contact),
// and passes where it does not (which also shows the wrapper leaves the trajectory alone).
void check_uncorrected(const MovingBaseOscillator& system, const JacobianCheck& check) {
  if (saltation_matters(system)) {
    CHECK(check.error_naive > 10 * kJacobianTolerance);
    CHECK(check.error_identity > 10 * kJacobianTolerance);
  } else {
    CHECK(check.error_naive < kJacobianTolerance);
  }
}

}  // namespace

TEST_CASE("Period map Jacobian with saltation matches finite differences", "[period-map]") {
  const std::vector<Settings> cases = {
      {{"model", "hard"}, {"r", "1"}},
      {{"model", "hard"}, {"r", "0.8"}},
      {{"model", "soft"}, {"ks", "200000"}, {"r", "1"}},    // c_s = 0
      {{"model", "soft"}, {"ks", "200000"}, {"r", "0.8"}},  // c_s derived from r: > 0
  };
  for (const char* eta : {"4", "7.1"}) {
    for (Settings settings : cases) {
      settings.push_back({"omega", eta});
      const auto system = make_system<MovingBaseOscillator>(settings);
      std::string label = "eta = " + std::string(eta);
      for (const auto& [name, value] : settings) label += ", " + name + " = " + value;
      INFO(label);
      const JacobianCheck check = check_map(system, 1);
      INFO("events " << check.events << ", error " << check.error << ", without saltation "
                     << check.error_naive << ", identity " << check.error_identity);
      CHECK(check.events >= 1);
      CHECK(check.error < kJacobianTolerance);
      check_uncorrected(system, check);
    }
  }
}

TEST_CASE("Twice-period map of the z = 1/2 orbit at eta = 4 matches finite differences",
          "[period-map]") {
  for (const char* model : {"hard", "soft"}) {
    INFO("model " << model);
    const auto system = make_system<MovingBaseOscillator>({{"model", model}, {"omega", "4"}});
    const JacobianCheck check = check_map(system, 2);
    INFO("events " << check.events << ", error " << check.error << ", without saltation "
                   << check.error_naive);
    // z = 1/2: one impact (hard) or one contact (soft: start and end) per 2T.
    CHECK(check.events == (std::string(model) == "hard" ? 1 : 2));
    CHECK(check.error < kJacobianTolerance);
    check_uncorrected(system, check);
  }
}
