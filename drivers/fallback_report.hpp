#pragma once
// How often a run's flow fell back on BDF (libcont::FlowReport::fallbacks: a failed step
// of the explicit pair or of Adams retried on BDF from the last good state), the same in
// every command's summary: JSON "fallbacks": {"count", "first_time"} and one text line.
// A fallback is no failure, but a run that needs many is one whose --integrator choice
// does not suit the model.
#include <nlohmann/json.hpp>
#include <string>

#include "libcont/flow.hpp"

namespace vicont {

nlohmann::ordered_json fallbacks_json(const libcont::FlowReport& report);
// "fallbacks   none\n" or "fallbacks   3 steps retried on BDF, the first at t = 12.5\n".
std::string fallbacks_text(const libcont::FlowReport& report);

}  // namespace vicont
