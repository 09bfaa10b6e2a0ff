#include "systems/hertz_friction.hpp"

#include <cmath>
#include <optional>

// One impact of HertzFrictionImpactSystem integrated event-driven: the measurement that
// `vicont impact` and the tests compare with the closed form.
namespace systems {

using libcont::EventKind;

namespace {

// Keeps the two events of the impact and passes everything on to the caller's observer.
struct ImpactEvents : libcont::FlowObserver {
  explicit ImpactEvents(libcont::FlowObserver* next) : next(next) {}
  void on_event(const libcont::EventRecord& e) override {
    if (e.mode_before == HertzFrictionImpactSystem::Approach) turn = e;
    if (e.kind == EventKind::ContactEnd) end = e;
    if (next) next->on_event(e);
  }
  void on_sample(double t, libcont::ConstVectorRef x, int mode) override {
    if (next) next->on_sample(t, x, mode);
  }
  libcont::FlowObserver* next;
  std::optional<libcont::EventRecord> turn, end;
};

}  // namespace

SimulatedImpact simulate_impact(const HertzFrictionImpactSystem& system,
                                const libcont::FlowOptions& options,
                                libcont::FlowObserver* observer, libcont::SampleGrid samples) {
  libcont::Flow flow(system, options);
  libcont::FlowState state = flow.initial_state(0.0, system.default_initial_state());
  ImpactEvents events(observer);
  // The impact ends by its terminal event long before this bound (t_y from the closed
  // form); reaching the bound means it did not end, which is reported.
  const double bound = 4.0 * system.closed_form().characteristics().t_y;
  SimulatedImpact result;
  result.report = flow.advance(state, bound, &events, samples);
  if (!result.report.ok()) {
    result.failure = libcont::to_string(result.report.status) + ": " + result.report.message;
    return result;
  }
  if (!events.turn || !events.end) {
    result.failure = "the impact did not end within 4 t_y of the closed form";
    return result;
  }
  const auto& contact = system.contact();
  auto& r = result.characteristics;
  r.x_c = events.turn->x_minus[0];
  r.t_c = events.turn->t;
  r.P_c = contact.approach_stiffness() * std::pow(r.x_c, contact.exponent());
  r.P_c_star = contact.separation_stiffness() * std::pow(r.x_c, contact.exponent());
  r.t_y = events.end->t;
  r.rebound_velocity = events.end->x_minus[1];
  return result;
}

}  // namespace systems
