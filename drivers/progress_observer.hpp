#pragma once
// A FlowObserver that passes everything on to another one and reports the time of each
// sample, so that a long integration can drive a progress line (progress.hpp) without a
// second pass or a change to how it is integrated.
#include <functional>
#include <utility>

#include "libcont/flow.hpp"

namespace vicont {

class ProgressObserver : public libcont::FlowObserver {
 public:
  ProgressObserver(libcont::FlowObserver& inner, std::function<void(double t)> reached)
      : inner_(inner), reached_(std::move(reached)) {}

  void on_event(const libcont::EventRecord& event) override { inner_.on_event(event); }
  void on_sample(double t, libcont::ConstVectorRef x, int mode) override {
    inner_.on_sample(t, x, mode);
    reached_(t);
  }
  void on_extremum(int coordinate, double t, libcont::ConstVectorRef x, int mode) override {
    inner_.on_extremum(coordinate, t, x, mode);
  }
  void on_gap_minimum(int event, double t, double gap, libcont::ConstVectorRef x,
                      int mode) override {
    inner_.on_gap_minimum(event, t, gap, x, mode);
  }

 private:
  libcont::FlowObserver& inner_;
  std::function<void(double t)> reached_;
};

}  // namespace vicont
