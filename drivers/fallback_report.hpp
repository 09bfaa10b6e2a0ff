#pragma once
// How often a run's flow fell back on BDF (libcont::FlowReport::fallbacks: a failed step
// of the explicit pair or of Adams retried on BDF from the last good state), the same in
// every command's summary: JSON "fallbacks": {"count", "first_time"} and one text line.
// A fallback is no failure, but a run that needs many is one whose --integrator choice
// does not suit the model.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libcont/flow.hpp"
#include "libcont/sweep.hpp"

namespace vicont {

nlohmann::ordered_json fallbacks_json(const libcont::FlowReport& report);
// "fallbacks   none\n" or "fallbacks   3 steps retried on BDF, the first at t = 12.5\n".
std::string fallbacks_text(const libcont::FlowReport& report);

// The fallbacks of a run made of many integrations (sweep points, basin cells): how many
// steps in all, in how many of them, and where the first (in the run's order) was.
struct FallbackTally {
  long count = 0;
  long runs = 0;           // points or cells with at least one fallback
  std::string first_at;    // "lambda = 0.5635", "cell (3, 7)"
  double first_time = 0.0;
  void add(long fallbacks, double first_fallback_time, const std::string& where);
};
// {"count", UNITs: runs, "first_at", "first_time"} (the last two only when count > 0).
nlohmann::ordered_json fallbacks_json(const FallbackTally& tally, const char* units);
// "fallbacks   none\n" or "fallbacks   12 steps retried on BDF in 3 points, the first at
// lambda = 0.5635 (t = 2942.5)\n".
std::string fallbacks_text(const FallbackTally& tally, const char* unit);  // unit: "point"

// The tally of sweep points (sweep, diagram), each named by its parameter value (and by
// that of `second_parameter` in a grid; empty otherwise).
FallbackTally points_fallbacks(const std::vector<libcont::SweepPoint>& points,
                               const std::string& parameter,
                               const std::string& second_parameter = "");

}  // namespace vicont
