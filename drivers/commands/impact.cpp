// vicont impact: one collinear Hertz impact with positional friction, in closed
// form through Ateb functions and by event-driven integration of the two-stage ODE, side
// by side: the characteristics x_c, P_c, P_c*, t_c, t_y and the restitution with their
// relative differences, and x(t), v(t), P(t) of both as CSV and PNG.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "atomic_file.hpp"
#include "commands/system_command.hpp"
#include "config_file.hpp"
#include "exit_codes.hpp"
#include "fallback_report.hpp"
#include "integrator_choice.hpp"
#include "libcont/ateb.hpp"
#include "libcont/input_error.hpp"
#include "output.hpp"
#include "plots.hpp"
#include "run_inputs.hpp"
#include "system_report.hpp"
#include "systems/hertz_friction.hpp"
#include "run_limits.hpp"

namespace vicont {

namespace {

// The only system this command knows; also its default.
constexpr const char* impact_system = "hertz-friction";

// One row of the side-by-side file: an ODE sample or the state at one of its events.
struct ImpactRow {
  double t = 0.0;
  int mode = 0;  // of the ODE: approach or separation
  libcont::Vector x;
};

// Keeps the ODE's samples and, at each event, the states just before and after it, so that
// the force's jump from P_c to P_c* at maximal compression shows in the file.
struct ImpactRowRecorder : libcont::FlowObserver {
  void on_sample(double t, libcont::ConstVectorRef x, int mode) override {
    rows.push_back({t, mode, x});
  }
  void on_event(const libcont::EventRecord& e) override {
    rows.push_back({e.t, e.mode_before, e.x_minus});
    if (e.mode_after != e.mode_before) rows.push_back({e.t, e.mode_after, e.x_plus});
  }
  std::vector<ImpactRow> rows;
};

// The characteristics as JSON, in the source's names.
nlohmann::ordered_json characteristics_json(const libcont::HertzFrictionImpactCharacteristics& r,
                                            double impact_velocity) {
  return {{"x_c", r.x_c},
          {"P_c", r.P_c},
          {"P_c_star", r.P_c_star},
          {"t_c", r.t_c},
          {"t_y", r.t_y},
          {"restitution", -r.rebound_velocity / impact_velocity},
          {"rebound_velocity", r.rebound_velocity}};
}

// Largest differences between the ODE's rows and the closed form, scaled by x_c, v0, P_c.
struct Profiles {
  double x = 0.0, v = 0.0, force = 0.0;
};

// The trigonometric approximation's constants and its largest error over a quarter.
struct AtebSummary {
  double b = 0.0, c = 0.0, sine_error = 0.0, cosine_error = 0.0;
};

// What vicont impact reports: the closed form and the ODE's run of the same impact side by
// side, how far apart their profiles are, and the Ateb approximation's accuracy.
struct ImpactSummary {
  const systems::HertzFrictionImpactSystem& system;
  const libcont::HertzFrictionImpact exact;
  std::filesystem::path out;
  systems::SimulatedImpact ode{};
  Profiles profiles{};
  AtebSummary ateb{};
  RunHealth health{};
  std::vector<std::string> files{};
};

// |ODE - closed form| / |closed form| of each characteristic, by its key in
// characteristics_json; null when the ODE gave none.
nlohmann::ordered_json relative_differences(const ImpactSummary& summary) {
  if (!summary.ode.ok()) return nullptr;
  const double v0 = summary.system.impact_velocity();
  const auto closed = characteristics_json(summary.exact.characteristics(), v0);
  nlohmann::ordered_json differences = nlohmann::ordered_json::object();
  const auto ode = characteristics_json(summary.ode.characteristics, v0);
  for (const auto& [key, value] : ode.items()) {
    const double exact_value = closed[key].get<double>();
    differences[key] = std::abs(value.get<double>() - exact_value) / std::abs(exact_value);
  }
  return differences;
}

nlohmann::ordered_json render_json(const ImpactSummary& summary) {
  const systems::HertzFrictionImpactSystem& system = summary.system;
  const libcont::HertzFrictionImpact& exact = summary.exact;
  const auto& contact = system.contact();
  const double v0 = system.impact_velocity();
  nlohmann::ordered_json s;
  s["command"] = "impact";
  s["system"] = system.name();
  s["parameters"] = parameters_json(system);
  s["contact"] = {{"origin", system.contact_origin()},
                  {"alpha", contact.exponent()},
                  {"c", contact.stiffness()},
                  {"dc", contact.stiffness_increment()},
                  {"c1", contact.approach_stiffness()},
                  {"c2", contact.separation_stiffness()},
                  {"Kr", contact.restitution()},
                  {"I", exact.ateb().quarter_integral()}};
  s["ateb"] = {{"alpha", exact.ateb().alpha()},
               {"I", exact.ateb().quarter_integral()},
               {"quarter_period", exact.ateb().quarter_period()},
               {"B", summary.ateb.b},
               {"C", summary.ateb.c},
               {"approximation_error_sine", summary.ateb.sine_error},
               {"approximation_error_cosine", summary.ateb.cosine_error}};
  s["M"] = system.mass();
  s["v0"] = v0;
  const nlohmann::ordered_json closed = characteristics_json(exact.characteristics(), v0);
  for (const auto& [key, value] : closed.items()) s[key] = value;
  const nlohmann::ordered_json differences = relative_differences(summary);
  double largest = 0.0;
  if (!differences.is_null())
    for (const auto& [key, d] : differences.items()) largest = std::max(largest, d.get<double>());
  s["ode"] = summary.ode.ok() ? characteristics_json(summary.ode.characteristics, v0)
                              : nlohmann::ordered_json(nullptr);
  s["relative_difference"] = differences;
  s["fallbacks"] = fallbacks_json(summary.ode.report);
  s["largest_relative_difference"] =
      summary.ode.ok() ? nlohmann::ordered_json(largest) : nlohmann::ordered_json(nullptr);
  s["profile_difference"] = {{"x_over_x_c", summary.profiles.x},
                             {"v_over_v0", summary.profiles.v},
                             {"P_over_P_c", summary.profiles.force}};
  return s;
}

std::string render_text(const ImpactSummary& summary) {
  const systems::HertzFrictionImpactSystem& system = summary.system;
  const libcont::HertzFrictionImpact& exact = summary.exact;
  const systems::SimulatedImpact& ode = summary.ode;
  const auto& contact = system.contact();
  const double v0 = system.impact_velocity();
  std::ostringstream text;
  text << "vicont impact\n";
  print_system(text, system);
  text << "contact     " << system.contact_origin() << "\n"
       << "            alpha = " << rounded_text(contact.exponent(), 10)
       << ", c = " << rounded_text(contact.stiffness(), 10)
       << ", c1 = " << rounded_text(contact.approach_stiffness(), 10)
       << ", c2 = " << rounded_text(contact.separation_stiffness(), 10)
       << ", I(alpha) = " << rounded_text(exact.ateb().quarter_integral(), 10) << "\n\n";
  const auto closed = characteristics_json(exact.characteristics(), v0);
  const auto numerical = ode.ok() ? characteristics_json(ode.characteristics, v0)
                                  : nlohmann::ordered_json(nullptr);
  const auto differences = relative_differences(summary);
  text << std::left << std::setw(18) << "" << std::setw(18) << "closed form" << std::setw(18)
       << "ODE" << "relative difference\n";
  const std::pair<const char*, const char*> rows[] = {
      {"x_c", "x_c (m)"},         {"P_c", "P_c (N)"},  {"P_c_star", "P_c* (N)"},
      {"t_c", "t_c (s)"},         {"t_y", "t_y (s)"},  {"rebound_velocity", "v_end (m/s)"},
      {"restitution", "restitution"}};
  for (const auto& [key, label] : rows) {
    text << std::setw(18) << label << std::setw(18)
         << rounded_text(closed[key].get<double>(), 10) << std::setw(18)
         << (ode.ok() ? rounded_text(numerical[key].get<double>(), 10) : std::string("-"))
         << (ode.ok() ? rounded_text(differences[key].get<double>(), 3) : std::string("-"))
         << '\n';
  }
  const AtebSummary& ateb = summary.ateb;
  const Profiles& profiles = summary.profiles;
  text << '\n' << fallbacks_text(ode.report) << "ateb        three-term approximation B = " << rounded_text(ateb.b, 8)
       << ", C = " << rounded_text(ateb.c, 8) << ", largest error over a quarter "
       << rounded_text(std::max(ateb.sine_error, ateb.cosine_error), 3) << " (ateb.csv)";
  text << "\nprofiles    largest |ODE - closed form|: x " << rounded_text(profiles.x, 3)
       << " x_c, v " << rounded_text(profiles.v, 3) << " v0, P "
       << rounded_text(profiles.force, 3) << " P_c\n"
       << "files       " << summary.out.string()
       << "/{impact.json, impact.csv, ateb.csv, " << figure_file_names("impact") << "}\n";
  return text.str();
}

class ImpactCommand : public SystemCommand {
 public:
  explicit ImpactCommand(CLI::App& vicont)
      : SystemCommand(vicont, "impact",
                      "Hertz impact with positional friction: closed form (Ateb) and ODE") {
    options_.add_count("samples", samples_, 10,
                       "time-grid rows over the impact in impact.csv (default 400)",
                       static_cast<int>(limits::samples));
    integrator_.add_option(options_);
    finish_options();
    // This command runs hertz-friction unless told otherwise (and then refuses).
    command_.get_option("--system")
        ->description(std::string("system to run: ") + impact_system +
                      " (the default and the only one this command knows)")
        ->run_callback_for_default()
        ->default_val(impact_system);
  }

  int run() override {
    reject_other_systems();
    const auto resolved = resolve_inputs();
    const auto* system = dynamic_cast<const systems::HertzFrictionImpactSystem*>(resolved.get());
    if (!system) throw libcont::InputError(not_this_system(resolved->name()));
    prepare_output_directory(out_);
    ImpactSummary summary{*system, system->closed_form(), out_};
    ImpactRowRecorder recorder;
    // Flow samples only after the start: the first row is the start itself.
    recorder.rows.push_back({0.0, systems::HertzFrictionImpactSystem::Approach,
                             system->default_initial_state()});
    summary.ode = systems::simulate_impact(
        *system, integrator_.flow(), &recorder,
        libcont::SampleGrid{0.0, summary.exact.characteristics().t_y / samples_});
    summary.health.report = summary.ode.report;
    if (summary.ode.report.ok()) summary.health.numerical_failure = summary.ode.failure;
    summary.profiles = write_profiles(*system, summary.exact, recorder.rows);
    summary.ateb = write_ateb_table(summary.exact.ateb());
    summary.files = {(out_ / "impact.json").string(), (out_ / "impact.csv").string(),
                     (out_ / "ateb.csv").string()};
    summary.health.add_plot(summary.files, [&] { return plot_profiles(*system); });
    nlohmann::ordered_json json = render_json(summary);
    write_summary(out_ / "impact.json", json, summary.health, summary.files);
    return report(json, render_text(summary), summary.health);
  }

 private:
  static std::string not_this_system(const std::string& name) {
    return "vicont impact works on --system " + std::string(impact_system) + " only (got '" +
           name + "'); use 'vicont simulate' for other systems";
  }

  // Another system named on the command line or in the config file is refused before its
  // parameters are applied, so that the message is about the system, not a parameter.
  void reject_other_systems() const {
    const CLI::Option* system = command_.get_option("--system");
    if (system->count() > 0) {
      const std::string name = system->results().front();
      if (name != impact_system) throw libcont::InputError(not_this_system(name));
      return;
    }
    const CLI::Option* config = command_.get_option("--config");
    if (config->count() == 0) return;
    for (const auto& entry : read_config_file(config->results().front()).options)
      if (entry.key == "system" && entry.value != impact_system)
        throw libcont::InputError(entry.where() + ": " + not_this_system(entry.value));
  }

  // impact.csv: t, stage, then x, v, P of the closed form and of the ODE side by side.
  Profiles write_profiles(const systems::HertzFrictionImpactSystem& system,
                          const libcont::HertzFrictionImpact& exact,
                          const std::vector<ImpactRow>& rows) const {
    const auto& contact = system.contact();
    const auto& closed = exact.characteristics();
    Profiles largest;
    write_file_atomically(out_ / "impact.csv", [&](std::ostream& out) {
      out << "t,stage,x_closed,x_ode,v_closed,v_ode,P_closed,P_ode\n";
      for (const ImpactRow& row : rows) {
        const bool approach = row.mode == systems::HertzFrictionImpactSystem::Approach;
        // The row's stage decides the stiffness of both forces (at t_c the closed form
        // has two, P_c before and P_c* after).
        const double rate = approach ? 1.0 : -1.0;
        const double x = exact.penetration(row.t), v = exact.velocity(row.t);
        const double force = contact.force(x, rate), force_ode = contact.force(row.x[0], rate);
        largest.x = std::max(largest.x, std::abs(row.x[0] - x) / closed.x_c);
        largest.v = std::max(largest.v, std::abs(row.x[1] - v) / system.impact_velocity());
        largest.force = std::max(largest.force, std::abs(force_ode - force) / closed.P_c);
        out << number_text(row.t) << ',' << system.mode_name(row.mode) << ',' << number_text(x)
            << ',' << number_text(row.x[0]) << ',' << number_text(v) << ','
            << number_text(row.x[1]) << ',' << number_text(force) << ','
            << number_text(force_ode) << '\n';
      }
    });
    return largest;
  }

  // ateb.csv: Sa and Ca of the run's alpha over the first quarter period, exact and by
  // the three-term approximation, at eta/I = 0, 0.01, ..., 1.
  AtebSummary write_ateb_table(const libcont::AtebFunctions& exact) const {
    const libcont::AtebTrigApproximation approximation(exact);
    AtebSummary summary{approximation.b(), approximation.c()};
    // The error's maximum, on a grid fine enough to resolve it (20000 points a quarter).
    constexpr int fine = 20000;
    for (int i = 0; i <= fine; ++i) {
      const double phi = exact.quarter_period() * i / fine;
      summary.sine_error =
          std::max(summary.sine_error, std::abs(approximation.sine(phi) - exact.sine(phi)));
      summary.cosine_error =
          std::max(summary.cosine_error, std::abs(approximation.cosine(phi) - exact.cosine(phi)));
    }
    write_file_atomically(out_ / "ateb.csv", [&](std::ostream& out) {
      out << "eta_over_I,phi,Sa,Ca,Sa_approximation,Ca_approximation\n";
      for (int k = 0; k <= 100; ++k) {
        const double fraction = k / 100.0;
        const double phi = fraction * exact.quarter_period();
        out << number_text(fraction) << ',' << number_text(phi) << ','
            << number_text(exact.sine(phi)) << ',' << number_text(exact.cosine(phi)) << ','
            << number_text(approximation.sine(phi)) << ','
            << number_text(approximation.cosine(phi)) << '\n';
      }
    });
    return summary;
  }

  PlotFiles plot_profiles(const systems::HertzFrictionImpactSystem& system) const {
    const int every = std::max(1, samples_ / 40);  // about 40 ODE marks per curve
    CurvesPlot plot;
    plot.directory = out_;
    plot.csv = "impact.csv";
    plot.x_column = "t";
    plot.x_scale = 1e3;
    plot.xlabel = "t (ms)";
    const auto& contact = system.contact();
    plot.title = "Hertz impact with positional friction: alpha = " +
                 rounded_text(contact.exponent()) + ", c = " + rounded_text(contact.stiffness()) +
                 ", M = " + rounded_text(system.mass()) + ", K_r = " +
                 rounded_text(contact.restitution()) + ", v0 = " +
                 rounded_text(system.impact_velocity());
    plot.panels = {
        {"x (mm)", {{"x_closed", "closed form (Ateb)", false, 1, 1e3},
                    {"x_ode", "ODE", true, every, 1e3}}},
        {"P (N)", {{"P_closed", "closed form (Ateb)", false, 1, 1.0},
                   {"P_ode", "ODE", true, every, 1.0}}},
    };
    return plot_curves(plot, "impact");
  }

  int samples_ = 400;
  IntegratorChoice integrator_;
};

}  // namespace

std::unique_ptr<Command> make_impact_command(CLI::App& vicont) {
  return std::make_unique<ImpactCommand>(vicont);
}

}  // namespace vicont
