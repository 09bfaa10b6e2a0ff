#include "start_contact.hpp"

#include <iostream>

#include "libcont/impacting_structure.hpp"
#include "output.hpp"

namespace vicont {

namespace {

// The contact an impact event belongs to: a structure's events are named "impact" when it
// has one contact and "impact:NAME" when it has several.
std::string contact_name(const libcont::HybridSystem& system, const std::string& event) {
  const auto* structure = dynamic_cast<const libcont::ImpactingStructure*>(&system);
  if (structure && structure->contacts().size() == 1) return structure->contacts().front().name;
  const auto colon = event.find(':');
  return colon == std::string::npos ? event : event.substr(colon + 1);
}

}  // namespace

std::optional<ContactViolation> violated_contact(const libcont::HybridSystem& system, double t,
                                                 libcont::ConstVectorRef x) {
  const int mode = system.mode_of(t, x);
  for (int event = 0; event < system.event_count(mode); ++event) {
    const libcont::EventSpec spec = system.event_spec(mode, event);
    if (spec.kind != libcont::EventKind::Impact || spec.direction != libcont::EventDirection::Falling)
      continue;
    const double gap = system.event_function(mode, event, t, x);
    if (gap < 0.0) return ContactViolation{contact_name(system, spec.name), gap};
  }
  return std::nullopt;
}

std::string state_text(const libcont::HybridSystem& system, libcont::ConstVectorRef x) {
  const auto names = system.state_names();
  std::string text;
  for (Eigen::Index i = 0; i < x.size(); ++i)
    text += (i ? ", " : "") +
            (static_cast<size_t>(i) < names.size() ? names[static_cast<size_t>(i)]
                                                   : "x" + std::to_string(i)) +
            " = " + number_text(x[i]);
  return text;
}

void warn_start_inside_contact(const libcont::HybridSystem& system, const std::string& source) {
  const libcont::Vector x = system.default_initial_state();
  const auto violation = violated_contact(system, 0.0, x);
  if (!violation) return;
  std::cerr << "vicont: warning: the initial state (" << state_text(system, x)
            << " at t = 0) lies inside the contact '" << violation->contact << "' (gap "
            << number_text(violation->gap) << ") with " << source
            << "; the motion passes through it until the gap opens\n";
}

}  // namespace vicont
