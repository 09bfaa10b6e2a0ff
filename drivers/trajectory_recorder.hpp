#pragma once
// Keeps what a flow reports, for the time-series and event files: the samples on the grid
// and, at each event, the state just before and just after it, so that a plot shows the
// velocity jump of an impact as a vertical step instead of a slope between grid points.
#include <string>
#include <vector>

#include "libcont/flow.hpp"

namespace vicont {

struct TrajectoryPoint {
  double t = 0.0;
  libcont::Vector x;
  int mode = 0;
  int event = -1;      // -1: grid sample; else the event at this instant
  int event_mode = 0;  // the mode the event belongs to (the one before it)
  bool after = false;  // for an event: the state after it (else before)
};

class TrajectoryRecorder : public libcont::FlowObserver {
 public:
  void on_sample(double t, libcont::ConstVectorRef x, int mode) override;
  void on_event(const libcont::EventRecord& event) override;

  // The state the run starts from (Flow::advance samples only after it) or ends at.
  void add_point(const libcont::FlowState& state);

  const std::vector<TrajectoryPoint>& points() const { return points_; }
  const std::vector<libcont::EventRecord>& events() const { return events_; }

 private:
  std::vector<TrajectoryPoint> points_;
  std::vector<libcont::EventRecord> events_;
};

}  // namespace vicont
