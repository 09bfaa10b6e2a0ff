// vicont: continuation and bifurcation analysis of vibro-impact systems from the command
// line. The commands live in commands/; this file parses the command line and maps every
// kind of failure to one line on stderr and its exit status (exit_codes.hpp).
#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <string>

#include "commands/command.hpp"
#include "exit_codes.hpp"
#include "libcont/input_error.hpp"
#include "libcont/task_pool.hpp"
#include "libcont/version.hpp"
#include "pending_files.hpp"
#include "shown_text.hpp"

namespace {

// Messages must stay on one line (doc/cli.md): scripts grep them. They may quote what was
// given (a value, a config line), which is escaped and cut short here whatever it was.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return vicont::shown_text(text, 1000);
}

int fail(int code, const std::string& message) {
  std::cerr << "vicont: error: " << one_line(message) << std::endl;
  return code;
}

// Options of the main job placed before a subcommand would be silently ignored.
bool main_job_options_used(const CLI::App& vicont) {
  for (const CLI::Option* option : vicont.get_options())
    if (option != vicont.get_help_ptr() && option->count() > 0) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  // gnuplot runs behind a pipe; if it is missing or dies, writing to the pipe must fail
  // as an error we report (no plot), not kill vicont with SIGPIPE before it saves data.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App vicont{
      "vicont: simulation, Lyapunov analysis, periodic orbits and continuation of\n"
      "vibro-impact systems (libcont).\n"
      "Without a subcommand: the main job, the moving-base oscillator at omega = 4 and 7.1.\n"
      "Exit status: 0 ok, 1 output could not be written, 2 bad input, 3 numerical failure.",
      "vicont"};
  vicont.require_subcommand(0, 1);
  vicont.set_version_flag("--version", std::string("vicont ") + libcont::version,
                          "Print the version and exit");
  auto main_job = vicont::make_main_job(vicont);
  const std::vector<std::pair<std::string, std::unique_ptr<vicont::Command>>> commands = [&] {
    std::vector<std::pair<std::string, std::unique_ptr<vicont::Command>>> list;
    list.emplace_back("simulate", vicont::make_simulate_command(vicont));
    list.emplace_back("lyapunov", vicont::make_lyapunov_command(vicont));
    list.emplace_back("orbit", vicont::make_orbit_command(vicont));
    list.emplace_back("continue", vicont::make_continue_command(vicont));
    list.emplace_back("curve", vicont::make_curve_command(vicont));
    list.emplace_back("map", vicont::make_map_command(vicont));
    list.emplace_back("sweep", vicont::make_sweep_command(vicont));
    list.emplace_back("basins", vicont::make_basins_command(vicont));
    list.emplace_back("diagram", vicont::make_diagram_command(vicont));
    list.emplace_back("impact", vicont::make_impact_command(vicont));
    list.emplace_back("systems", vicont::make_systems_command(vicont));
    return list;
  }();

  try {
    vicont.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return vicont.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return vicont.exit(help);
  } catch (const CLI::CallForVersion& version) {
    return vicont.exit(version);
  } catch (const CLI::ParseError& error) {
    return fail(vicont::BadInput, error.what());
  }

  // Every file of the run goes into place when the run is done (pending_files.hpp);
  // also after an error, so that nothing computed is lost.
  vicont::pending_files::hold();
  const auto publish_after_error = [] {
    try {
      vicont::pending_files::publish();
    } catch (const vicont::OutputError& error) {
      std::cerr << "vicont: error: " << one_line(error.what()) << std::endl;
    }
  };
  try {
    const auto run = [&] {
      for (const auto& [name, command] : commands) {
        if (!vicont.got_subcommand(name)) continue;
        if (main_job_options_used(vicont))
          return fail(vicont::BadInput,
                      "options before '" + name + "' belong to the main job; put them after it");
        return command->run();
      }
      return main_job->run();
    };
    const int code = run();
    vicont::pending_files::publish();
    return code;
  } catch (const vicont::OutputError& error) {
    publish_after_error();
    return fail(vicont::OutputFailure, error.what());
  } catch (const libcont::ThreadsNotStarted& error) {
    publish_after_error();
    return fail(vicont::BadInput, std::string("--") + error.what());
  } catch (const libcont::InputError& error) {
    publish_after_error();
    return fail(vicont::BadInput, error.what());
  } catch (const std::exception& error) {
    publish_after_error();
    // Not expected: a bug or an exhausted resource; still one line and a non-zero status.
    return fail(vicont::OutputFailure, std::string("unexpected failure: ") + error.what());
  }
}
