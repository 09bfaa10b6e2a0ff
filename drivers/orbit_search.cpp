#include "orbit_search.hpp"
#include "run_limits.hpp"

namespace vicont {

void OrbitSearchSettings::add_options(RunOptions& options) {
  options.add_count("transient", transient, 0,
                    "forcing periods integrated before the orbit is sought (default: 300)",
                    limits::periods);
  options.add_count("period", period, 0,
                    "n of the orbit (z = p/n); 0 reads it from the settled motion (default)",
                    limits::detected_period);
  options.add_count("max-period", max_period, 1,
                    "largest n tried when reading n from the settled motion (default: 16)",
                    limits::detected_period);
  options.add_flag("multiple", multiple, "multiple shooting over the n forcing periods");
  integrator.add_option(options);
}

libcont::OrbitSearchOptions OrbitSearchSettings::options() const {
  libcont::OrbitSearchOptions o;
  o.transient_periods = transient;
  o.period = period;
  o.max_period = max_period;
  o.shooting.multiple = multiple;
  o.shooting.flow = integrator.flow();
  return o;
}

libcont::FlowReport search_work(const libcont::OrbitSearchResult& found) {
  libcont::FlowReport work = found.transient;
  work.add_work(found.shooting.report);
  return work;
}

}  // namespace vicont
