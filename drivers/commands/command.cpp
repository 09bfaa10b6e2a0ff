#include "commands/command.hpp"

#include <iostream>

#include "exit_codes.hpp"

namespace vicont {

int RunHealth::exit_code() const {
  if (!numerics_ok()) return NumericalFailure;
  if (!plot_errors.empty()) return OutputFailure;
  return Success;
}

void RunHealth::add_to(nlohmann::ordered_json& summary) const {
  summary["status"] = report.ok() && !numerical_failure.empty() ? std::string("failure")
                                                                 : libcont::to_string(report.status);
  summary["message"] = report.ok() ? numerical_failure : report.message;
  summary["ok"] = numerics_ok();
  if (!plot_errors.empty()) summary["plot_errors"] = plot_errors;
}

void RunHealth::print_problems(const std::string& what, const std::filesystem::path& out) const {
  if (!report.ok())
    std::cerr << "vicont: numerical failure in " << what << ": "
              << libcont::to_string(report.status)
              << (report.message.empty() ? "" : ": " + report.message)
              << " (results up to the last good state written to " << out.string() << ")\n";
  else if (!numerical_failure.empty())
    std::cerr << "vicont: numerical failure in " << what << ": " << numerical_failure
              << " (everything computed was written to " << out.string() << ")\n";
  for (const auto& error : plot_errors) std::cerr << "vicont: plot failed: " << error << '\n';
}

void print_summary(bool json, const nlohmann::ordered_json& summary, const std::string& text) {
  if (json)
    std::cout << summary.dump(2) << std::endl;
  else
    std::cout << text << std::flush;
}

}  // namespace vicont
