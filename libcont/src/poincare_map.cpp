#include "libcont/poincare_map.hpp"

#include "libcont/affine_modes.hpp"
#include "libcont/input_error.hpp"
#include "libcont/section_placement.hpp"

namespace libcont {

StroboscopicMap::StroboscopicMap(const HybridSystem& system, FlowOptions options, double phase)
    : system_(system), phase_(phase) {
  if (!(system.forcing_period() > 0.0))
    throw InputError("system '" + system.name() + "' is not periodically forced: no stroboscopic map");
  options.extremum_coordinates = system.displacement_coordinates();
  options.gap_minima = true;
  options.tangent = false;
  plain_options_ = options;
  residual_tolerance_ = options.relative_tolerance;
  plain_ = std::make_unique<Flow>(system, options);
  options.tangent = true;
  tangent_ = std::make_unique<Flow>(system, options);
  options.tangent_columns = 1;
  options.parameter_column.clear();
  product_ = std::make_unique<Flow>(system, options);
}

StroboscopicMap::~StroboscopicMap() = default;

MapEvaluation StroboscopicMap::iterate(ConstVectorRef x, int n, bool with_jacobian) {
  Flow& flow = with_jacobian ? *tangent_ : *plain_;
  FlowState state = flow.initial_state(phase_, x);
  OrbitMeasurer measurer(system_, system_.displacement_coordinates());
  measurer.start(x);
  MapEvaluation result;
  advance_periods(flow, state, n, &measurer, result.report);
  result.x = state.x;
  result.mode = state.mode;
  measurer.finish();
  result.measures = measurer.measures();
  result.impacts = result.measures.impacts;
  if (with_jacobian) {
    const Eigen::Index columns = flow.tangent_columns();
    result.jacobian = state.tangent.leftCols(columns);
    if (flow.carries_parameter()) result.parameter_derivative = state.tangent.col(columns);
  }
  return result;
}

namespace {
// The image's observer: it takes nothing and wants no monitor roots, but is there: the
// exact path scans as with monitors only where an observer listens (it then keeps the
// scan and skips the roots), and without one crosses event-free scan steps at once, which
// moves its path at rounding level.
class PathOnly : public FlowObserver {
 public:
  bool wants_monitor_roots() const override { return false; }
};
}  // namespace

// On the plain map's own flow: the exact path's caches (expansions, decompositions) then
// see the same history as with iterate alone, and its results depend on that history at
// rounding level.
MapEvaluation StroboscopicMap::image(ConstVectorRef x, int n) { return image_by(*plain_, x, n); }

MapEvaluation StroboscopicMap::residual_image(ConstVectorRef x, int n) {
  return image_by(residual_ ? *residual_ : *plain_, x, n);
}

MapEvaluation StroboscopicMap::image_by(Flow& flow, ConstVectorRef x, int n) const {
  FlowState state = flow.initial_state(phase_, x);
  PathOnly path_only;
  MapEvaluation result;
  advance_periods(flow, state, n, &path_only, result.report);
  result.x = state.x;
  result.mode = state.mode;
  return result;
}

namespace {

// Whether the flow integrates no mode numerically (each on the exact path), so that its
// tolerance changes nothing.
bool every_mode_exact(const HybridSystem& system, const FlowOptions& options) {
  const AffineModes* modes = system.affine_modes();
  if (!options.exact_linear_modes || !modes) return false;
  AffineMode data;
  data.resize(system.dimension());
  for (int mode = 0; mode < system.mode_count(); ++mode)
    if (!modes->affine_mode(mode, data)) return false;
  return true;
}

}  // namespace

// A flow of its own, with caches of its own: kept only where a tolerance matters, so that
// an exact path's results (which depend on its caches' history at rounding level) stay
// those of image().
void StroboscopicMap::set_residual_tolerance(double relative_tolerance) {
  if (!(relative_tolerance > 0.0))
    throw InputError("residual tolerance must be positive, not " + number_text(relative_tolerance));
  if (relative_tolerance == residual_tolerance_) return;
  residual_tolerance_ = relative_tolerance;
  residual_.reset();
  if (relative_tolerance == plain_options_.relative_tolerance ||
      every_mode_exact(system_, plain_options_))
    return;
  FlowOptions options = plain_options_;
  options.relative_tolerance = relative_tolerance;
  residual_ = std::make_unique<Flow>(system_, options);
}

void StroboscopicMap::advance_periods(Flow& flow, FlowState& state, int n, FlowObserver* observer,
                                      FlowReport& report) const {
  const double period = system_.forcing_period();
  for (int k = 1; k <= n && report.ok(); ++k) {
    const FlowReport step = flow.advance(state, phase_ + k * period, observer);
    report.status = step.status;
    report.message = step.message;
    report.add_work(step);
  }
}

bool StroboscopicMap::apply_jacobian(ConstVectorRef x, int n, ConstVectorRef v, Vector& product,
                                     FlowReport& report) {
  FlowState state = product_->initial_state(phase_, x);
  state.tangent = v;
  const double period = system_.forcing_period();
  for (int k = 1; k <= n; ++k) {
    report = product_->advance(state, phase_ + k * period);
    if (report.status != FlowStatus::Success) return false;
  }
  product = state.tangent.col(0);
  return true;
}

bool follow_to_section(const HybridSystem& system, const FlowOptions& options, ConstVectorRef x,
                       double from, double to, Vector& x_to, int n) {
  const double shift = forward_shift(from, to, n * system.forcing_period());
  FlowOptions plain = options;
  plain.tangent = false;
  Flow flow(system, plain);
  FlowState state = flow.initial_state(from, x);
  if (shift > 0.0 && flow.advance(state, from + shift).status != FlowStatus::Success) return false;
  x_to = state.x;
  return true;
}

}  // namespace libcont
