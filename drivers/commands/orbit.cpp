// vicont orbit: one periodic orbit of type z = p/n by shooting, its Floquet
// multipliers and stability, the residual and the amplitudes of the displacement
// coordinates; one pass of the orbit as a time series with plots.
#include <CLI/CLI.hpp>
#include <sstream>

#include "commands/system_command.hpp"
#include "exit_codes.hpp"
#include "libcont/floquet.hpp"
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

// Above this state dimension only the leading multipliers are computed, matrix-free
// (Arnoldi on the monodromy operator); below it all of them, from the monodromy matrix.
constexpr int full_spectrum_limit = 40;
constexpr int leading_count = 6;

struct Multipliers {
  Eigen::VectorXcd values;  // by decreasing modulus
  bool all = true;          // every multiplier, or only the leading ones
  std::string failure;      // empty unless the Arnoldi iteration failed
};

Multipliers multipliers_of(const libcont::HybridSystem& system, const libcont::ShootingResult& orbit,
                           int period, double phase) {
  Multipliers m;
  if (system.dimension() <= full_spectrum_limit) {
    m.values = libcont::floquet_multipliers(orbit.monodromy).multipliers;
    return m;
  }
  m.all = false;
  libcont::StroboscopicMap map(system, libcont::FlowOptions{}, phase);
  const auto leading = libcont::leading_multipliers(map, orbit.x, period, leading_count);
  m.values = leading.multipliers;
  if (!leading.converged) m.failure = "leading multipliers: " + leading.message;
  return m;
}

std::string complex_text(std::complex<double> z) {
  if (z.imag() == 0.0) return rounded_text(z.real(), 10);
  return rounded_text(z.real(), 10) + (z.imag() < 0 ? " - " : " + ") +
         rounded_text(std::abs(z.imag()), 10) + "i";
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
    RunHealth health;
    libcont::OrbitSearchResult found;
    {
      ProgressIndicator progress("orbit: transient and shooting");
      found = libcont::find_periodic_orbit(*system, search_.options());
    }
    health.report = found.transient;
    const libcont::ShootingResult& orbit = found.shooting;
    if (health.report.ok() && !orbit.converged)
      health.numerical_failure = "shooting did not converge: " + orbit.reason;
    const int n = found.period;
    const double period = system->forcing_period();

    Multipliers multipliers;
    libcont::OrbitMeasures measures;
    std::vector<std::string> files = {(out_ / "orbit.json").string()};
    if (orbit.converged) {
      multipliers = multipliers_of(*system, orbit, n, found.phase);
      if (!multipliers.failure.empty()) health.numerical_failure = multipliers.failure;
      // One pass of the orbit, for its amplitudes and its time series.
      libcont::Flow flow(*system, measuring_options(*system));
      libcont::FlowState state = flow.initial_state(found.phase, orbit.x);
      TrajectoryRecorder trajectory;
      libcont::OrbitMeasurer measurer(*system, system->displacement_coordinates());
      measurer.start(orbit.x);
      RecorderPair observers(trajectory, measurer);
      trajectory.add_point(state);
      const auto report =
          flow.advance(state, found.phase + n * period, &observers,
                       libcont::SampleGrid{found.phase, period / 200.0});
      if (trajectory.points().back().t < state.t) trajectory.add_point(state);
      if (!report.ok()) health.report = report;
      measures = measurer.measures();
      write_time_series_csv(out_ / "orbit.csv", *system, trajectory.points());
      files.push_back((out_ / "orbit.csv").string());
      const std::string title = "periodic orbit z = " + std::to_string(orbit.p) + "/" +
                                std::to_string(n) + ": " + short_label(*system);
      const TrajectoryPlot plot{out_, "orbit.csv", system->state_names(), title};
      for (const auto& [stem, draw] :
           {std::pair<std::string, bool>{"orbit_timeseries", true}, {"orbit_phase", false}}) {
        health.add_plot(files, [&] {
          return draw ? plot_time_series(plot, stem) : plot_phase_portrait(plot, stem);
        });
      }
    }

    const double radius = multipliers.values.size() ? std::abs(multipliers.values[0]) : 0.0;
    const bool stable = orbit.converged && multipliers.failure.empty() && radius < 1.0;
    nlohmann::ordered_json s;
    s["command"] = "orbit";
    s["system"] = system->name();
    s["parameters"] = parameters_json(*system);
    s["contact_damping"] = contact_damping_json(*system);
    s["transient_periods"] = search_.transient;
    s["period"] = period;
    s["p"] = orbit.p;
    s["n"] = n;
    s["period_choice"] = found.period_note;
    s["section_phase"] = found.phase;
    s["converged"] = orbit.converged;
    s["shooting"] = search_.multiple ? "multiple" : "single";
    s["iterations"] = orbit.iterations;
    s["reason"] = orbit.reason;
    s["residual"] = orbit.residual_history.empty() ? nlohmann::ordered_json(nullptr)
                                                   : nlohmann::ordered_json(orbit.residual_history.back());
    s["residual_history"] = orbit.residual_history;
    nlohmann::ordered_json mu = nlohmann::ordered_json::array();
    for (const auto& z : multipliers.values) mu.push_back({z.real(), z.imag()});
    s["multipliers"] = mu;
    s["multipliers_computed"] =
        multipliers.all ? "all (eigenvalues of the monodromy matrix)"
                        : "the " + std::to_string(multipliers.values.size()) +
                              " of largest modulus (Arnoldi, matrix-free)";
    s["spectral_radius"] = radius;
    s["stable"] = stable;
    s["state"] = std::vector<double>(orbit.x.data(), orbit.x.data() + orbit.x.size());
    s["state_names"] = system->state_names();
    nlohmann::ordered_json amplitudes = nlohmann::ordered_json::object();
    const auto names = system->state_names();
    for (size_t k = 0; k < measures.coordinates.size(); ++k)
      amplitudes[names[static_cast<size_t>(measures.coordinates[k])]] = measures.semi_amplitude(k);
    s["amplitudes"] = amplitudes;
    s["impacts"] = measures.impacts;
    write_summary(out_ / "orbit.json", s, health, files);

    std::ostringstream text;
    text << "vicont orbit\n";
    print_system(text, *system);
    text << "orbit       z = " << orbit.p << "/" << n << " (" << found.period_note << "), section t = "
         << rounded_text(found.phase) << " mod T, "
         << (search_.multiple ? "multiple" : "single") << " shooting: "
         << (orbit.converged ? "converged" : "NOT converged") << " in " << orbit.iterations
         << " iterations, residual "
         << (orbit.residual_history.empty() ? "-" : rounded_text(orbit.residual_history.back()))
         << " (" << orbit.reason << ")\n"
         << "state       ";
    for (Eigen::Index i = 0; i < orbit.x.size() && i < 8; ++i)
      text << (i ? ", " : "") << names[static_cast<size_t>(i)] << " = " << number_text(orbit.x[i]);
    text << (orbit.x.size() > 8 ? ", ... (all in orbit.json)" : "") << '\n';
    text << "multipliers ";
    for (Eigen::Index i = 0; i < multipliers.values.size(); ++i)
      text << (i ? "; " : "") << complex_text(multipliers.values[i]) << " (|mu| "
           << rounded_text(std::abs(multipliers.values[i]), 10) << ")";
    text << '\n'
         << "stability   " << (orbit.converged ? (stable ? "stable" : "unstable") : "-") << '\n'
         << "amplitudes  ";
    for (size_t k = 0; k < measures.coordinates.size(); ++k)
      text << (k ? ", " : "") << "A_max(" << names[static_cast<size_t>(measures.coordinates[k])]
           << ") = " << number_text(measures.semi_amplitude(k));
    text << '\n' << "files       " << out_.string() << "/{orbit.json, orbit.csv, orbit_*.png, *.gp}\n";
    return report(s, text.str(), health);
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
  static libcont::FlowOptions measuring_options(const libcont::HybridSystem& system) {
    libcont::FlowOptions options;
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
