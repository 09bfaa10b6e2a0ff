#include "orbit_search.hpp"

namespace vicont {

void OrbitSearchSettings::add_options(RunOptions& options) {
  options.add_count("transient", transient, 0,
                    "forcing periods integrated before the orbit is sought (default: 300)");
  options.add_count("period", period, 0,
                    "n of the orbit (z = p/n); 0 reads it from the settled motion (default)");
  options.add_count("max-period", max_period, 1,
                    "largest n tried when reading n from the settled motion (default: 16)");
  options.add_flag("multiple", multiple, "multiple shooting over the n forcing periods");
}

libcont::OrbitSearchOptions OrbitSearchSettings::options() const {
  libcont::OrbitSearchOptions o;
  o.transient_periods = transient;
  o.period = period;
  o.max_period = max_period;
  o.shooting.multiple = multiple;
  return o;
}

}  // namespace vicont
