#pragma once
// A vicont command: it declares its options on a CLI11 (sub)command and, once the command
// line is parsed, runs and returns an exit status (exit_codes.hpp). Bad input escapes as
// libcont::InputError, unwritable output as OutputError; main() turns both into one line
// on stderr.
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libcont/flow.hpp"

namespace CLI {
class App;
}

namespace vicont {

struct PlotFiles;

class Command {
 public:
  virtual ~Command() = default;
  virtual int run() = 0;
};

std::unique_ptr<Command> make_simulate_command(CLI::App& vicont);
std::unique_ptr<Command> make_lyapunov_command(CLI::App& vicont);
std::unique_ptr<Command> make_systems_command(CLI::App& vicont);
std::unique_ptr<Command> make_orbit_command(CLI::App& vicont);
std::unique_ptr<Command> make_continue_command(CLI::App& vicont);
std::unique_ptr<Command> make_curve_command(CLI::App& vicont);
std::unique_ptr<Command> make_map_command(CLI::App& vicont);
std::unique_ptr<Command> make_sweep_command(CLI::App& vicont);
std::unique_ptr<Command> make_basins_command(CLI::App& vicont);
std::unique_ptr<Command> make_diagram_command(CLI::App& vicont);
std::unique_ptr<Command> make_impact_command(CLI::App& vicont);
// The run of plain `vicont`: its options live on the top-level app itself.
std::unique_ptr<Command> make_main_job(CLI::App& vicont);

// What every run collects besides its numbers: whether the numerics held, and plots
// that failed (the data files are written first, so a plot failure loses no data).
struct RunHealth {
  libcont::FlowReport report;
  // A numerical failure that is not the flow's (shooting that did not converge, a branch
  // that could not be continued); empty when none.
  std::string numerical_failure;
  std::vector<std::string> plot_errors;
  bool numerics_ok() const { return report.ok() && numerical_failure.empty(); }
  // Numerical failure wins over a failed plot: it is the one that needs attention first.
  int exit_code() const;
  // The status fields shared by every JSON summary: status, message, ok, plot_errors.
  void add_to(nlohmann::ordered_json& summary) const;
  // Draws one plot: its PNG and gnuplot script join `files`; if it fails (OutputError),
  // the error joins plot_errors instead and the run goes on.
  void add_plot(std::vector<std::string>& files, const std::function<PlotFiles()>& draw);
  // One line on stderr per problem; silent when all went well.
  void print_problems(const std::string& what, const std::filesystem::path& out) const;
};

// Ends a JSON summary with the run's status (RunHealth::add_to) and its files, and writes
// it to `file`.
void write_summary(const std::filesystem::path& file, nlohmann::ordered_json& summary,
                   const RunHealth& health, const std::vector<std::string>& files);

// Prints the summary: with --json the one JSON object on stdout, else the human text.
void print_summary(bool json, const nlohmann::ordered_json& summary, const std::string& text);

}  // namespace vicont
