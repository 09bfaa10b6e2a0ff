// vicont orbit: one periodic orbit of type z = p/n by shooting, its Floquet
// multipliers and stability, the residual and the amplitudes of the displacement
// coordinates; one pass of the orbit as a time series with plots.
#include <algorithm>
#include <sstream>
#include <vector>

#include "commands/system_command.hpp"
#include "drawn_variables.hpp"
#include "exit_codes.hpp"
#include "fallback_report.hpp"
#include "libcont/leading_multipliers.hpp"
#include "orbit_search.hpp"
#include "output.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "run_inputs.hpp"
#include "system_report.hpp"
#include "trajectory_recorder.hpp"

namespace vicont {

namespace {

std::string complex_text(std::complex<double> z) {
  if (z.imag() == 0.0) return rounded_text(z.real(), 10);
  return rounded_text(z.real(), 10) + (z.imag() < 0 ? " - " : " + ") +
         rounded_text(std::abs(z.imag()), 10) + "i";
}

// What vicont orbit reports: the orbit found, its multipliers and one pass's measures.
struct OrbitSummary {
  const libcont::HybridSystem& system;
  int transient = 0;      // --transient
  bool multiple = false;  // multiple shooting
  std::filesystem::path out;
  libcont::OrbitSearchResult found{};
  libcont::OrbitMultipliers multipliers{};
  libcont::OrbitMeasures measures{};
  RunHealth health{};
  libcont::FlowReport work{};  // every integration of the run, for its fallbacks
  std::vector<std::string> files{};

  const libcont::ShootingResult& orbit() const { return found.shooting; }
  double spectral_radius() const {
    return multipliers.values.size() ? std::abs(multipliers.values[0]) : 0.0;
  }
  bool stable() const {
    return orbit().converged && multipliers.failure.empty() && spectral_radius() < 1.0;
  }
};

nlohmann::ordered_json render_json(const OrbitSummary& summary) {
  const libcont::HybridSystem& system = summary.system;
  const libcont::ShootingResult& orbit = summary.orbit();
  nlohmann::ordered_json s;
  s["command"] = "orbit";
  s["system"] = system.name();
  add_model_file(s, system);
  s["parameters"] = parameters_json(system);
  s["contact_damping"] = contact_damping_json(system);
  s["transient_periods"] = summary.transient;
  s["period"] = system.forcing_period();
  s["p"] = orbit.p;
  s["n"] = summary.found.period;
  s["period_choice"] = summary.found.period_note;
  s["section_phase"] = summary.found.phase;
  s["converged"] = orbit.converged;
  s["shooting"] = summary.multiple ? "multiple" : "single";
  s["iterations"] = orbit.iterations;
  s["reason"] = orbit.reason;
  s["residual"] = orbit.residual_history.empty() ? nlohmann::ordered_json(nullptr)
                                                 : nlohmann::ordered_json(orbit.residual_history.back());
  s["residual_history"] = orbit.residual_history;
  s["fallbacks"] = fallbacks_json(summary.work);
  const libcont::OrbitMultipliers& multipliers = summary.multipliers;
  nlohmann::ordered_json mu = nlohmann::ordered_json::array();
  for (const auto& z : multipliers.values) mu.push_back({z.real(), z.imag()});
  s["multipliers"] = mu;
  s["multipliers_computed"] =
      multipliers.all ? "all (eigenvalues of the monodromy matrix)"
                      : "the " + std::to_string(multipliers.values.size()) +
                            " of largest modulus (Arnoldi, matrix-free)";
  s["spectral_radius"] = summary.spectral_radius();
  s["stable"] = summary.stable();
  s["state"] = std::vector<double>(orbit.x.data(), orbit.x.data() + orbit.x.size());
  s["state_names"] = system.state_names();
  const libcont::OrbitMeasures& measures = summary.measures;
  nlohmann::ordered_json amplitudes = nlohmann::ordered_json::object();
  const auto names = system.state_names();
  for (size_t k = 0; k < measures.coordinates.size(); ++k)
    amplitudes[names[static_cast<size_t>(measures.coordinates[k])]] = measures.semi_amplitude(k);
  s["amplitudes"] = amplitudes;
  s["impacts"] = measures.impacts;
  return s;
}

std::string render_text(const OrbitSummary& summary) {
  const libcont::ShootingResult& orbit = summary.orbit();
  const auto names = summary.system.state_names();
  std::ostringstream text;
  text << "vicont orbit\n";
  print_system(text, summary.system);
  text << "orbit       z = " << orbit.p << "/" << summary.found.period << " ("
       << summary.found.period_note << "), section t = " << rounded_text(summary.found.phase)
       << " mod T, " << (summary.multiple ? "multiple" : "single") << " shooting: "
       << (orbit.converged ? "converged" : "NOT converged") << " in " << orbit.iterations
       << " iterations, residual "
       << (orbit.residual_history.empty() ? "-" : rounded_text(orbit.residual_history.back()))
       << " (" << orbit.reason << ")\n"
       << fallbacks_text(summary.work) << "state       ";
  for (Eigen::Index i = 0; i < orbit.x.size() && i < 8; ++i)
    text << (i ? ", " : "") << names[static_cast<size_t>(i)] << " = " << number_text(orbit.x[i]);
  text << (orbit.x.size() > 8 ? ", ... (all in orbit.json)" : "") << '\n';
  text << "multipliers ";
  const Eigen::VectorXcd& mu = summary.multipliers.values;
  for (Eigen::Index i = 0; i < mu.size() && i < 8; ++i)
    text << (i ? "; " : "") << complex_text(mu[i]) << " (|mu| " << rounded_text(std::abs(mu[i]), 10)
         << ")";
  text << (mu.size() > 8 ? "; ... (" + std::to_string(mu.size()) + " in orbit.json)" : "") << '\n'
       << "stability   " << (orbit.converged ? (summary.stable() ? "stable" : "unstable") : "-")
       << '\n'
       << "amplitudes  ";
  const libcont::OrbitMeasures& measures = summary.measures;
  for (size_t k = 0; k < measures.coordinates.size(); ++k)
    text << (k ? ", " : "") << "A_max(" << names[static_cast<size_t>(measures.coordinates[k])]
         << ") = " << number_text(measures.semi_amplitude(k));
  text << '\n'
       << "files       " << summary.out.string() << "/{orbit.json, orbit.csv, "
       << figure_file_names("orbit_*") << "}\n";
  return text.str();
}

class OrbitCommand : public SystemCommand {
 public:
  explicit OrbitCommand(CLI::App& vicont)
      : SystemCommand(vicont, "orbit",
                      "periodic orbit z = p/n by shooting: multipliers, stability, amplitudes") {
    search_.add_options(options_);
    finish_options();
  }

  int run() override {
    const auto system = prepare();
    OrbitSummary summary{*system, search_.transient, search_.multiple, out_};
    {
      Progress progress("orbit: transient and shooting", 0);
      summary.found = libcont::find_periodic_orbit(*system, search_.options());
    }
    summary.health.report = summary.found.transient;
    summary.work = search_work(summary.found);
    const libcont::ShootingResult& orbit = summary.orbit();
    if (summary.health.report.ok() && !orbit.converged)
      summary.health.numerical_failure = "shooting did not converge: " + orbit.reason;
    summary.files = {(out_ / "orbit.json").string()};
    if (orbit.converged) {
      // The multipliers and one pass of a large or stiff system take time of their own.
      Progress progress("orbit: multipliers and one pass of the orbit", 0);
      summary.multipliers = libcont::orbit_multipliers(*system, orbit, summary.found.period,
                                           summary.found.phase, search_.integrator.flow());
      if (!summary.multipliers.failure.empty())
        summary.health.numerical_failure = summary.multipliers.failure;
      trace_one_pass(summary);
    }
    nlohmann::ordered_json json = render_json(summary);
    write_summary(out_ / "orbit.json", json, summary.health, summary.files);
    return report(json, render_text(summary), summary.health);
  }

 private:
  // One pass of the converged orbit: its amplitudes, and its time series with plots.
  void trace_one_pass(OrbitSummary& summary) const {
    const libcont::HybridSystem& system = summary.system;
    const libcont::ShootingResult& orbit = summary.orbit();
    const int n = summary.found.period;
    const double period = system.forcing_period();
    libcont::Flow flow(system, measuring_options(system, search_.integrator));
    libcont::FlowState state = flow.initial_state(summary.found.phase, orbit.x);
    TrajectoryRecorder trajectory;
    libcont::OrbitMeasurer measurer(system, system.displacement_coordinates());
    measurer.start(orbit.x);
    RecorderPair observers(trajectory, measurer);
    trajectory.add_point(state);
    const auto report = flow.advance(state, summary.found.phase + n * period, &observers,
                                     libcont::SampleGrid{summary.found.phase, period / 200.0});
    if (trajectory.points().back().t < state.t) trajectory.add_point(state);
    summary.work.add_work(report);
    if (!report.ok()) summary.health.report = report;
    measurer.finish();
    summary.measures = measurer.measures();
    write_time_series_csv(out_ / "orbit.csv", system, trajectory.points());
    summary.files.push_back((out_ / "orbit.csv").string());
    const std::string title = "periodic orbit z = " + std::to_string(orbit.p) + "/" +
                              std::to_string(n) + ": " + short_label(system);
    const std::vector<std::string> drawn = drawn_variables(system);
    const size_t size = static_cast<size_t>(system.dimension());
    const TrajectoryPlot series{
        out_, "orbit.csv", drawn,
        drawn.size() < size ? title + " (" + std::to_string(drawn.size()) + " of " +
                                  std::to_string(size) + " variables)"
                            : title};
    const TrajectoryPlot phase{out_, "orbit.csv", system.state_names(), title};
    summary.health.add_plot(summary.files, [&] { return plot_time_series(series, "orbit_timeseries"); });
    summary.health.add_plot(summary.files, [&] { return plot_phase_portrait(phase, "orbit_phase"); });
  }

 private:
  // Both observers see the same pass.
  struct RecorderPair : libcont::FlowObserver {
    RecorderPair(libcont::FlowObserver& a, libcont::FlowObserver& b) : first(a), second(b) {}
    void on_event(const libcont::EventRecord& e) override {
      first.on_event(e);
      second.on_event(e);
    }
    void on_sample(double t, libcont::ConstVectorRef x, int mode) override {
      first.on_sample(t, x, mode);
      second.on_sample(t, x, mode);
    }
    void on_extremum(int i, double t, libcont::ConstVectorRef x, int mode) override {
      first.on_extremum(i, t, x, mode);
      second.on_extremum(i, t, x, mode);
    }
    void on_gap_minimum(int j, double t, double gap, libcont::ConstVectorRef x, int mode) override {
      first.on_gap_minimum(j, t, gap, x, mode);
      second.on_gap_minimum(j, t, gap, x, mode);
    }
    libcont::FlowObserver& first;
    libcont::FlowObserver& second;
  };

  // The flow monitors extrema of the displacement coordinates and gap minima, so that the
  // amplitudes are exact rather than read off the sample grid.
  static libcont::FlowOptions measuring_options(const libcont::HybridSystem& system,
                                                const IntegratorChoice& integrator) {
    libcont::FlowOptions options = integrator.flow();
    options.extremum_coordinates = system.displacement_coordinates();
    options.gap_minima = true;
    return options;
  }

  OrbitSearchSettings search_;
};

}  // namespace

std::unique_ptr<Command> make_orbit_command(CLI::App& vicont) {
  return std::make_unique<OrbitCommand>(vicont);
}

}  // namespace vicont
