#include "integrator_choice.hpp"

namespace vicont {

void IntegratorChoice::add_option(RunOptions& options) {
  options.add_choice("integrator", name, {"auto", "rk", "adams", "bdf"},
                     "auto (BDF where a mode is stiff, an explicit Runge-Kutta pair where the "
                     "model's integrator hints ask for it, such as a Hertz contact, CVODE's "
                     "Adams elsewhere), rk (the pair for every non-stiff mode), adams (Adams for "
                     "every mode) or bdf (BDF for every mode); doc/performance.md");
}

libcont::IntegratorMethod IntegratorChoice::method() const {
  // add_choice admits only these words.
  if (name == "rk") return libcont::IntegratorMethod::RungeKutta;
  if (name == "adams") return libcont::IntegratorMethod::Adams;
  if (name == "bdf") return libcont::IntegratorMethod::BDF;
  return libcont::IntegratorMethod::Auto;
}

libcont::FlowOptions IntegratorChoice::flow() const {
  libcont::FlowOptions options;
  options.method = method();
  return options;
}

}  // namespace vicont
