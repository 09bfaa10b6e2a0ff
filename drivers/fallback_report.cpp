#include "fallback_report.hpp"

#include "output.hpp"

namespace vicont {

nlohmann::ordered_json fallbacks_json(const libcont::FlowReport& report) {
  return {{"count", report.fallbacks},
          {"first_time", report.fallbacks > 0 ? nlohmann::ordered_json(report.first_fallback_time)
                                              : nlohmann::ordered_json(nullptr)}};
}

std::string fallbacks_text(const libcont::FlowReport& report) {
  if (report.fallbacks == 0) return "fallbacks   none\n";
  return "fallbacks   " + std::to_string(report.fallbacks) + " step" +
         (report.fallbacks == 1 ? "" : "s") + " retried on BDF, the first at t = " +
         number_text(report.first_fallback_time) + "\n";
}

}  // namespace vicont
