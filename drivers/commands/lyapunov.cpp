#include "commands/lyapunov.hpp"

#include "commands/system_command.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "exit_codes.hpp"
#include "fallback_report.hpp"
#include "output.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "run_inputs.hpp"
#include "system_report.hpp"
#include "trajectory_recorder.hpp"
#include "run_limits.hpp"

namespace vicont {

namespace {

// Forcing period, or the unit of time LyapunovSpectrum uses for an autonomous system.
double period_of(const libcont::HybridSystem& system) {
  return system.forcing_period() > 0.0 ? system.forcing_period()
                                       : libcont::LyapunovOptions{}.autonomous_period;
}

// "e1, e2 (batch means of B batches)", or why there are none.
std::string standard_errors_text(const libcont::LyapunovResult& r) {
  if (r.exponents.size() == 0) return "-";
  if (r.batches < 2) return "none (fewer than two batches averaged)";
  std::string text;
  for (Eigen::Index i = 0; i < r.exponent_errors.size(); ++i)
    text += (i ? ", " : "") + number_text(r.exponent_errors[i]);
  return text + " (batch means of " + std::to_string(r.batches) + " batches)";
}

// The motion after the averaging phase, long enough to show its shape: twice a periodic
// orbit, twenty periods of a non-periodic one.
int settled_periods(const libcont::LyapunovResult& result) {
  return result.n > 0 ? 2 * result.n : 20;
}

// Integrates the settled motion from the last state for the phase-portrait plot.
libcont::FlowReport record_settled_motion(const libcont::HybridSystem& system,
                                          const libcont::FlowOptions& options,
                                          const libcont::LyapunovResult& result,
                                          TrajectoryRecorder& trajectory) {
  libcont::Flow flow(system, options);
  libcont::FlowState state = flow.initial_state(result.final_state.t, result.final_state.x);
  state.mode = result.final_state.mode;
  trajectory.add_point(state);
  const double period = period_of(system);
  const auto report = flow.advance(state, state.t + settled_periods(result) * period, &trajectory,
                                   libcont::SampleGrid{result.final_state.t, period / 200.0});
  if (trajectory.points().back().t < state.t) trajectory.add_point(state);
  return report;
}

std::string z_text(const libcont::LyapunovResult& r) {
  return r.n > 0 ? std::to_string(r.p) + "/" + std::to_string(r.n) : "not periodic";
}

class LyapunovCommand : public SystemCommand {
 public:
  explicit LyapunovCommand(CLI::App& vicont)
      : SystemCommand(vicont, "lyapunov", "Lyapunov spectrum, z = p/n, a_i, a_e and impact velocities") {
    settings_.add_options(options_);
    settings_.integrator.add_option(options_);
    settings_.series.add_option(options_);
    finish_options();
  }

  int run() override {
    const auto system = prepare();
    const LyapunovRun result = run_lyapunov(*system, settings_, out_);
    return report(result.summary, result.text, result.health);
  }

 private:
  LyapunovSettings settings_;
};

}  // namespace

void LyapunovSettings::add_options(RunOptions& options) {
  options.add_count("transient", transient, 0,
                    "forcing periods integrated before averaging (default: 1000)", limits::periods);
  options.add_count("periods", periods, 1, "forcing periods averaged over (default: 1000)",
                    limits::periods);
  options.add_count("max-period", max_period, 1,
                    "largest n tried when detecting z = p/n (default: 16)",
                    limits::detected_period);
  options.add_count("batches", batches, 2,
                    "batches the averaged periods are cut into for the exponents' standard "
                    "errors (default: 20)",
                    limits::periods);
}

LyapunovRun run_lyapunov(const libcont::HybridSystem& system, const LyapunovSettings& settings,
                         const std::filesystem::path& out) {
  libcont::LyapunovOptions options;
  options.transient_periods = settings.transient;
  options.periods = settings.periods;
  options.max_detected_period = settings.max_period;
  options.batches = settings.batches;
  options.flow = settings.integrator.flow();
  const double t0 = 0.0;  // the Poincare section phase
  LyapunovRun run;
  {
    Progress progress("lyapunov", settings.transient + settings.periods, "periods");
    options.progress = [&](int done, int) { progress.update(done); };
    run.result =
        libcont::LyapunovSpectrum(system, options).compute(t0, system.default_initial_state());
  }
  const libcont::LyapunovResult& r = run.result;
  run.health.report = r.report;
  const double period = period_of(system);
  // The averaging phase starts where the transient ended.
  const double averaging_start = t0 + settings.transient * period;

  std::vector<std::string> files = {(out / "lyapunov.json").string()};
  nlohmann::ordered_json not_saved = nlohmann::ordered_json::object();
  const bool poincare_saved =
      settings.series.wanted("poincare", static_cast<std::size_t>(r.poincare_samples.cols()));
  if (poincare_saved) {
    write_poincare_csv(out / "poincare.csv", system, r.poincare_samples, averaging_start, period);
    files.push_back((out / "poincare.csv").string());
  } else {
    not_saved["poincare"] = r.poincare_samples.cols();
  }
  if (settings.series.wanted("impacts", r.impacts.impact_times.size())) {
    write_impacts_csv(out / "impacts.csv", r.impacts);
    files.push_back((out / "impacts.csv").string());
  } else {
    not_saved["impacts"] = r.impacts.impact_times.size();
  }
  // The spectrum's integration and the settled motion's, for the fallbacks they needed.
  libcont::FlowReport work = r.report;
  if (r.ok()) {
    TrajectoryRecorder settled;
    const auto settled_report = record_settled_motion(system, options.flow, r, settled);
    work.add_work(settled_report);
    write_time_series_csv(out / "settled.csv", system, settled.points());
    files.push_back((out / "settled.csv").string());
    if (!settled_report.ok()) {
      run.health.report = settled_report;
      run.health.report.message =
          "after the spectrum, integrating the settled motion for "
          "its plot: " +
          settled_report.message;
    }
    run.health.add_plot(files, [&] {
      std::ostringstream title;
      title << "settled motion: " << short_label(system) << "\nz = " << z_text(r);
      for (Eigen::Index i = 0; i < r.exponents.size(); ++i)
        title << (i ? ", " : ";  exponents ") << rounded_text(r.exponents[i]);
      return plot_phase_portrait(
          TrajectoryPlot{out, "settled.csv", system.state_names(), title.str()}, "settled_phase",
          "poincare.csv");
    });
  }

  const libcont::VelocitySummary v = libcont::summarize_velocities(r.impacts.impact_velocities);
  nlohmann::ordered_json notes = nlohmann::ordered_json::object();
  nlohmann::ordered_json& s = run.summary;
  s["command"] = "lyapunov";
  s["system"] = system.name();
  add_model_file(s, system);
  s["parameters"] = parameters_json(system);
  s["contact_damping"] = contact_damping_json(system);
  s["transient_periods"] = settings.transient;
  s["periods"] = settings.periods;
  s["period"] = period;
  // Whole periods were averaged; rounding only removes the division's last-bit noise.
  const long averaged_periods = std::lround(r.averaging_time / period);
  s["averaged_periods"] = averaged_periods;
  s["exponents"] = finite_or_null_list(r.exponents, "exponents", notes);
  s["exponent_sum"] =
      r.exponents.size() ? finite_or_null(r.exponent_sum, "exponent_sum", notes) : nullptr;
  s["batches"] = r.batches;
  s["exponent_errors"] = finite_or_null_list(r.exponent_errors, "exponent_errors", notes);
  s["exponent_sum_error"] =
      r.exponents.size() ? finite_or_null(r.exponent_sum_error, "exponent_sum_error", notes)
                         : nullptr;
  s["p"] = r.p;
  s["n"] = r.n;
  s["z"] = r.n > 0 ? nlohmann::ordered_json(z_text(r)) : nlohmann::ordered_json(nullptr);
  s["impacts_per_period"] = r.impacts_per_period;
  s["energy_per_period"] = r.energy_per_period;
  s["impact_velocity"] = {{"count", v.count}, {"mean", v.mean}, {"rms", v.rms},
                          {"min", v.min},     {"max", v.max},   {"slowest", v.slowest}};
  s["fallbacks"] = fallbacks_json(work);
  s["final_state"] = {{"t", r.final_state.t},
                      {"mode", system.mode_name(r.final_state.mode)},
                      {"state", state_json(system, r.final_state.x)}};
  if (!notes.empty()) {
    s["non_finite"] = notes;
    s["non_finite_note"] =
        "JSON has no infinity: these fields are null; -inf exponents mean that sticking "
        "collapsed the tangent space";
  }
  // Rows of the series that were not written (--save), so that nobody looks for them.
  s["not_saved"] = not_saved;
  write_summary(out / "lyapunov.json", s, run.health, files);

  std::ostringstream text;
  text << "vicont lyapunov\n";
  print_system(text, system);
  text << "periods     " << settings.transient << " transient + " << averaged_periods
       << " averaged (period " << number_text(period) << ")\n"
       << "exponents   ";
  for (Eigen::Index i = 0; i < r.exponents.size(); ++i)
    text << (i ? ", " : "") << number_text(r.exponents[i]);
  text << (r.exponents.size() ? "" : "none (no period averaged)") << '\n'
       << "sum         " << (r.exponents.size() ? number_text(r.exponent_sum) : "-") << '\n'
       << "std. error  " << standard_errors_text(r) << '\n'
       << "z = p/n     " << z_text(r) << '\n'
       << "a_i         " << number_text(r.impacts_per_period) << " impacts per period\n"
       << "a_e         " << number_text(r.energy_per_period)
       << " kinetic energy change at impacts per period\n"
       << "v_r         " << v.count << " impacts: mean " << number_text(v.mean) << ", rms "
       << number_text(v.rms) << ", min " << number_text(v.min) << ", max " << number_text(v.max)
       << ", slowest |v_r| " << number_text(v.slowest) << '\n'
       << fallbacks_text(work)
       << "status      " << libcont::to_string(run.health.report.status)
       << (run.health.report.message.empty() ? "" : ": " + run.health.report.message) << '\n'
       << "files       " << file_list_text(out, files) << '\n';
  for (const auto& [name, rows] : not_saved.items())
    text << "not saved   " << name << ".csv (" << rows.get<std::size_t>() << " rows; --save "
         << name << ")\n";
  run.text = text.str();
  return run;
}

std::unique_ptr<Command> make_lyapunov_command(CLI::App& vicont) {
  return std::make_unique<LyapunovCommand>(vicont);
}

}  // namespace vicont
