// Plain `vicont`: the project's main job on built-in defaults. The moving-base oscillator
// (hard impacts, m = 1, k = 1, c = 0.23, a = 0.0025, d = 0, r = 1) at omega = 4 and at
// omega = 7.1: for each a simulation (time series, phase portrait) and a Lyapunov run, in
// OUT/omega-4 and OUT/omega-7.1, then one table of the results.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "commands/command.hpp"
#include "commands/lyapunov.hpp"
#include "commands/simulate.hpp"
#include "exit_codes.hpp"
#include "figure_options.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "run_inputs.hpp"
#include "system_report.hpp"

namespace vicont {

namespace {

// The two forcing frequencies of the main job.
constexpr double main_job_omegas[] = {4.0, 7.1};

std::string table_row(const std::vector<std::string>& cells) {
  std::string row;
  for (const auto& cell : cells) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%-13s", cell.c_str());
    row += buffer;
  }
  while (!row.empty() && row.back() == ' ') row.pop_back();
  return row + '\n';
}

class MainJob : public Command {
 public:
  explicit MainJob(CLI::App& vicont) : inputs_(vicont, options_, RunInputs::SystemChoice::Fixed) {
    simulation_.add_options(options_);
    lyapunov_.add_options(options_);
    simulation_.integrator.add_option(options_);
    series_.add_option(options_);
    options_.add_path("out", out_, "directory for the result files (default: out)");
    add_format_option(options_, formats_);
    options_.add_flag("json", json_, "print the results as one JSON object on stdout");
    add_stderr_options(options_);
    options_.attach_to(vicont);
  }

  int run() override {
    const auto system = inputs_.resolve();
    use_figure_settings(formats_, *system);
    if (inputs_.assigned("omega"))
      throw libcont::InputError(
          "parameter 'omega' is fixed by the main job (4 and 7.1); use 'vicont simulate' or "
          "'vicont lyapunov' with --set omega=... for other values");
    lyapunov_.integrator = simulation_.integrator;  // one --integrator for both
    simulation_.series = series_;                   // and one --save
    lyapunov_.series = series_;
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    std::ostringstream table;
    table << "vicont main job: " << system->name() << " at omega = 4 and 7.1\n";
    print_system(table, *system, {"omega"});
    table << '\n' << table_row({"omega", "lambda_1", "lambda_2", "std_error", "sum", "z", "a_i", "a_e",
                                "status"});
    int exit_code = Success;
    for (const double omega : main_job_omegas) {
      system->set_parameter("omega", omega);
      const auto out = out_ / ("omega-" + number_text(omega));
      prepare_output_directory(out);
      const SimulationRun simulation = run_simulation(*system, simulation_, out);
      simulation.health.print_problems("simulate at omega = " + number_text(omega), out);
      const LyapunovRun spectrum = run_lyapunov(*system, lyapunov_, out);
      spectrum.health.print_problems("lyapunov at omega = " + number_text(omega), out);
      // Exit codes grow with severity: a numerical failure outranks a failed plot.
      exit_code = std::max({exit_code, simulation.health.exit_code(), spectrum.health.exit_code()});

      runs.push_back({{"omega", omega},
                      {"out", out.string()},
                      {"simulate", simulation.summary},
                      {"lyapunov", spectrum.summary}});
      const auto& r = spectrum.result;
      std::vector<std::string> cells = {number_text(omega)};
      for (Eigen::Index i = 0; i < 2; ++i)
        cells.push_back(i < r.exponents.size() ? rounded_text(r.exponents[i]) : "-");
      // lambda_1's (with two states and a constant contraction rate lambda_2's is the same).
      cells.push_back(r.batches >= 2 && std::isfinite(r.exponent_errors[0])
                          ? rounded_text(r.exponent_errors[0])
                          : "-");
      cells.push_back(r.exponents.size() ? rounded_text(r.exponent_sum) : "-");
      cells.push_back(r.n > 0 ? std::to_string(r.p) + "/" + std::to_string(r.n) : "non-periodic");
      cells.push_back(rounded_text(r.impacts_per_period));
      cells.push_back(rounded_text(r.energy_per_period));
      cells.push_back(libcont::to_string(spectrum.health.report.status));
      table << table_row(cells);
    }
    table << "\nfiles in " << out_.string() << "/omega-4 and " << out_.string()
          << "/omega-7.1 (see doc/cli.md)\n";
    print_summary(json_, {{"command", "main"}, {"system", system->name()}, {"runs", runs}},
                  table.str());
    return exit_code;
  }

 private:
  RunOptions options_;
  SimulationSettings simulation_;
  LyapunovSettings lyapunov_;
  SavedSeries series_{{"timeseries", "events", "poincare", "impacts"}};
  std::filesystem::path out_ = "out";
  std::string formats_ = "png";  // --format: the main job shows its figures unasked
  bool json_ = false;
  RunInputs inputs_;
};

}  // namespace

std::unique_ptr<Command> make_main_job(CLI::App& vicont) {
  return std::make_unique<MainJob>(vicont);
}

}  // namespace vicont
