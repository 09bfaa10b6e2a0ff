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

void FallbackTally::add(long fallbacks, double first_fallback_time, const std::string& where) {
  if (fallbacks <= 0) return;
  if (runs == 0) {
    first_at = where;
    first_time = first_fallback_time;
  }
  count += fallbacks;
  ++runs;
}

nlohmann::ordered_json fallbacks_json(const FallbackTally& tally, const char* units) {
  nlohmann::ordered_json json = {{"count", tally.count}, {units, tally.runs}};
  if (tally.count > 0) {
    json["first_at"] = tally.first_at;
    json["first_time"] = tally.first_time;
  }
  return json;
}

std::string fallbacks_text(const FallbackTally& tally, const char* unit) {
  if (tally.count == 0) return "fallbacks   none\n";
  return "fallbacks   " + std::to_string(tally.count) + " step" + (tally.count == 1 ? "" : "s") +
         " retried on BDF in " + std::to_string(tally.runs) + " " + unit +
         (tally.runs == 1 ? "" : "s") + ", the first at " +
         tally.first_at + " (t = " + number_text(tally.first_time) + ")\n";
}

FallbackTally points_fallbacks(const std::vector<libcont::SweepPoint>& points,
                               const std::string& parameter,
                               const std::string& second_parameter) {
  FallbackTally tally;
  for (const auto& p : points)
    tally.add(p.fallbacks, p.first_fallback_time,
              parameter + " = " + number_text(p.parameter) +
                  (second_parameter.empty()
                       ? std::string()
                       : ", " + second_parameter + " = " + number_text(p.second_parameter)));
  return tally;
}

}  // namespace vicont
