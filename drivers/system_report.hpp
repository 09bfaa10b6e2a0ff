#pragma once
// How a run describes the system it used, the same way in every command's summary and
// JSON: each parameter with the value in force, and the soft-contact damping cs with its
// origin (given by the user, or derived from r by which energy relation), since
// a soft result means little without knowing which relation produced its cs.
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "libcont/hybrid_system.hpp"

namespace vicont {

struct ContactDamping {
  bool used = false;       // false for a hard-impact model
  double value = 0.0;      // c_s in force
  bool derived = false;    // derived from r rather than given
  std::string relation;    // "exact" | "approximate" when derived
  double restitution = 0;  // the r it was derived from
  std::string explanation() const;
};

// Nothing for systems without a Kelvin-Voigt contact.
std::optional<ContactDamping> contact_damping(const libcont::HybridSystem& system);

// The catalogue's description, or a model file's own.
std::string system_description(const libcont::HybridSystem& system);

// The model file a system was read from (absolute), none for a catalogue system.
std::optional<std::string> model_file(const libcont::HybridSystem& system);
// Adds "model": FILE to a run's saved JSON for a system read from a model file, so that a
// restart reads the file again.
void add_model_file(nlohmann::ordered_json& summary, const libcont::HybridSystem& system);

// "moving-base, omega = 7.1, r = 0.8, model = soft": the name, the impact model, the forcing
// frequency omega and every parameter that differs from the catalogue default; short enough
// for a plot title.
std::string short_label(const libcont::HybridSystem& system);

// {"m": 1, "model": "hard", ...}; an optional parameter nobody set is left out (its value
// is then derived: see contact_damping_json).
nlohmann::ordered_json parameters_json(const libcont::HybridSystem& system);
nlohmann::ordered_json contact_damping_json(const libcont::HybridSystem& system);

// "system ...", "parameters ...", "contact ..." lines for the human summary. Parameters
// named in `varied` change from run to run and are shown as "(varies)".
void print_system(std::ostream& out, const libcont::HybridSystem& system,
                  const std::vector<std::string>& varied = {});

}  // namespace vicont
