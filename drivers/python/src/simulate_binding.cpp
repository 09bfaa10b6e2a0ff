// libcont.simulate: one trajectory from t = 0 as vicont simulate runs it (default end 20
// forcing periods, samples every T/200, at most 200000 events; a model that accounts for
// its energy integrated with its two energy accounts), with the state just before and
// after every event among the samples, so that a plot shows each jump.
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "cancellable_call.hpp"
#include "event_names.hpp"
#include "libcont/energy_balance.hpp"
#include "libcont/flow.hpp"
#include "libcont/input_error.hpp"
#include "python_values.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

// Samples and events as they come; every few thousand callbacks it reports the time
// reached and stops the flow (by Cancelled) once the call is cancelled.
class Recorder : public libcont::FlowObserver {
 public:
  Recorder(CancellableCall& call, double t0, double t_end) : call_(call), t0_(t0), t_end_(t_end) {}
  void on_sample(double t, libcont::ConstVectorRef x, int mode) override { add(t, x, mode); }
  void on_event(const libcont::EventRecord& e) override {
    add(e.t, e.x_minus, e.mode_before);
    add(e.t, e.x_plus, e.mode_after);
    events.push_back(e);
  }
  void add(double t, libcont::ConstVectorRef x, int mode) {
    times.push_back(t);
    states.push_back(x);
    modes.push_back(mode);
    if (++calls_ % 4096 == 0) {
      call_.throw_if_cancelled();
      call_.report({{"t", t}, {"fraction", (t - t0_) / (t_end_ - t0_)}});
    }
  }
  std::vector<double> times;
  std::vector<libcont::Vector> states;
  std::vector<int> modes;
  std::vector<libcont::EventRecord> events;

 private:
  CancellableCall& call_;
  double t0_, t_end_;
  long calls_ = 0;
};

py::dict events_dict(const std::vector<libcont::EventRecord>& events, long dimension) {
  std::vector<double> t;
  std::vector<int> index, before, after;
  std::vector<std::string> kinds;
  std::vector<libcont::Vector> minus, plus;
  for (const auto& e : events) {
    t.push_back(e.t);
    index.push_back(e.event);
    before.push_back(e.mode_before);
    after.push_back(e.mode_after);
    kinds.push_back(event_kind_name(e.kind));
    minus.push_back(e.x_minus);
    plus.push_back(e.x_plus);
  }
  py::dict d;
  d["t"] = to_array(t);
  d["event"] = to_array(index);
  d["kind"] = kinds;
  d["mode_before"] = to_array(before);
  d["mode_after"] = to_array(after);
  d["x_minus"] = to_matrix(minus, dimension);
  d["x_plus"] = to_matrix(plus, dimension);
  return d;
}

py::dict simulate(const ConfiguredSystem& model, std::optional<double> t_end,
                  std::optional<double> sample_step, const py::object& x0, long max_events,
                  const std::string& integrator, const py::object& progress) {
  const auto system = model.make();
  const double period = system->forcing_period();
  const double end = positive(t_end, "t_end").value_or(period > 0.0 ? 20.0 * period : 3.0);
  const double step = positive(sample_step, "sample_step").value_or(period > 0.0 ? period / 200.0 : 1e-3);
  if (end / step > 1e7)
    throw libcont::InputError("sample_step " + libcont::number_text(step) + " is too small for t_end " +
                              libcont::number_text(end) + " (more than 1e7 samples)");
  libcont::FlowOptions options = flow_options(integrator);
  options.max_events = count(max_events, 1, "max_events", 10000000);
  libcont::Vector start = state_from(x0, system->dimension(), "x0");
  if (start.size() == 0) start = system->default_initial_state();

  std::optional<libcont::EnergyAccountingSystem> accounted;
  if (system->energy_account()) {
    accounted.emplace(*system);
    start = accounted->extend(start);
  }
  const libcont::HybridSystem& integrated =
      accounted ? static_cast<const libcont::HybridSystem&>(*accounted) : *system;

  CancellableCall call(progress);
  options.cancel = call.cancel_flag();
  Recorder recorder(call, 0.0, end);
  libcont::FlowReport report;
  libcont::FlowState state;
  call.run([&] {
    libcont::Flow flow(integrated, options);
    state = flow.initial_state(0.0, start);
    recorder.add(state.t, state.x, state.mode);
    report = flow.advance(state, end, &recorder, libcont::SampleGrid{0.0, step});
    if (recorder.times.back() < state.t) recorder.add(state.t, state.x, state.mode);
  });

  py::dict d;
  d["t"] = to_array(recorder.times);
  d["x"] = to_matrix(recorder.states, integrated.dimension());
  d["mode"] = to_array(recorder.modes);
  d["events"] = events_dict(recorder.events, integrated.dimension());
  d["state_names"] = integrated.state_names();
  std::vector<std::string> modes;
  for (int k = 0; k < integrated.mode_count(); ++k) modes.push_back(integrated.mode_name(k));
  d["mode_names"] = modes;
  d["status"] = libcont::to_string(report.status);
  d["message"] = report.message;
  d["ok"] = report.ok();
  d["steps"] = report.steps;
  return d;
}

}  // namespace

void bind_simulate(py::module_& m) {
  m.def("simulate", &simulate, py::arg("system"), py::arg("t_end"), py::arg("sample_step"),
        py::arg("x0"), py::arg("max_events"), py::arg("integrator"), py::arg("progress"));
}

}  // namespace libcont_python
