#include "commands/command.hpp"

#include <iostream>

#include "exit_codes.hpp"
#include "output.hpp"
#include "plots.hpp"

namespace vicont {

int RunHealth::exit_code() const {
  if (!numerics_ok()) return NumericalFailure;
  if (!plot_errors.empty()) return OutputFailure;
  return Success;
}

void RunHealth::add_to(nlohmann::ordered_json& summary) const {
  null_non_finite(summary);  // every summary passes here before it is written or printed
  summary["status"] = report.ok() && !numerical_failure.empty() ? std::string("failure")
                                                                 : libcont::to_string(report.status);
  summary["message"] = report.ok() ? numerical_failure : report.message;
  summary["ok"] = numerics_ok();
  if (!plot_errors.empty()) summary["plot_errors"] = plot_errors;
}

void RunHealth::add_plot(std::vector<std::string>& files, const std::function<PlotFiles()>& draw) {
  try {
    const PlotFiles plot = draw();
    // The figures drawn, then their script: the order of figure_file_names().
    if (!plot.png.empty()) files.push_back(plot.png.string());
    for (const auto& other : plot.others) files.push_back(other.string());
    files.push_back(plot.script.string());
    for (const auto& data : plot.data) files.push_back(data.string());
  } catch (const OutputError& error) {
    plot_errors.push_back(error.what());
  }
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

void write_summary(const std::filesystem::path& file, nlohmann::ordered_json& summary,
                   const RunHealth& health, const std::vector<std::string>& files) {
  health.add_to(summary);
  summary["files"] = files;
  write_json_file(file, summary);
}

void print_summary(bool json, const nlohmann::ordered_json& summary, const std::string& text) {
  if (json)
    std::cout << json_text(with_version(summary)) << std::endl;
  else
    std::cout << text << std::flush;
}

}  // namespace vicont
