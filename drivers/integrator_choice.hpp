#pragma once
// --integrator auto|rk|adams|bdf, declared once for every command that integrates, so that
// each accepts the same words and maps them to the same libcont::IntegratorMethod
// (doc/cli.md). Whatever the choice, the library retries a failed step of the explicit
// pair or of Adams on BDF (FlowReport::fallbacks; fallback_report.hpp shows them).
#include <string>

#include "libcont/flow.hpp"
#include "run_options.hpp"

namespace vicont {

struct IntegratorChoice {
  std::string name = "auto";
  void add_option(RunOptions& options);
  libcont::IntegratorMethod method() const;
  // Default flow options with this integrator.
  libcont::FlowOptions flow() const;
};

}  // namespace vicont
