#include "trajectory_recorder.hpp"

namespace vicont {

void TrajectoryRecorder::on_sample(double t, libcont::ConstVectorRef x, int mode) {
  points_.push_back({t, x, mode, -1, 0, false});
}

void TrajectoryRecorder::on_event(const libcont::EventRecord& event) {
  points_.push_back(
      {event.t, event.x_minus, event.mode_before, event.event, event.mode_before, false});
  points_.push_back(
      {event.t, event.x_plus, event.mode_after, event.event, event.mode_before, true});
  events_.push_back(event);
}

void TrajectoryRecorder::add_point(const libcont::FlowState& state) {
  points_.push_back({state.t, state.x, state.mode, -1, 0, false});
}

}  // namespace vicont
