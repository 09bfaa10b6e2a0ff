#include "cvode_integrator.hpp"

#include "block_newton_solver.hpp"
#include "runge_kutta.hpp"

#include "libcont/input_error.hpp"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cmath>
#include <stdexcept>

namespace libcont::detail {

void SundialsDeleter::operator()(_generic_N_Vector* v) const { N_VDestroy(v); }
void SundialsDeleter::operator()(_generic_SUNLinearSolver* s) const { SUNLinSolFree(s); }
void SundialsDeleter::operator()(_generic_SUNNonlinearSolver* s) const {
  SUNNonlinSolFree(s);
}
void SundialsDeleter::operator()(_SUNContext* c) const {
  SUNContext ctx = c;
  SUNContext_Free(&ctx);
}
void CvodeMemoryDeleter::operator()(void* mem) const { CVodeFree(&mem); }

namespace {

// dphi = J phi, column by column as sum_k J.col(k) phi(k, j), k rising. N: the dimension
// if fixed at compile time (the small products then cost their arithmetic, not the
// dynamic-size product's dispatch), else Eigen::Dynamic.
template <int N>
void tangent_product(const Matrix& jacobian, const double* phi, double* dphi, int n, int columns) {
  using Column = Eigen::Matrix<double, N, 1>;
  using Square = Eigen::Matrix<double, N, N>;
  const Eigen::Map<const Square> J(jacobian.data(), n, n);
  for (int j = 0; j < columns; ++j) {
    const double* p = phi + static_cast<Eigen::Index>(j) * n;
    Eigen::Map<Column> d(dphi + static_cast<Eigen::Index>(j) * n, n);
    if constexpr (N == Eigen::Dynamic) {
      d = J.col(0) * p[0];
      for (int k = 1; k < n; ++k) d += J.col(k) * p[k];
    } else {
      Column sum = J.col(0) * p[0];
      for (int k = 1; k < N; ++k) sum += J.col(k) * p[k];
      d = sum;
    }
  }
}

// The same product where the Jacobian's first m rows are [0, I, 0]
// (AnalyticJacobians::kinematic_rows): those rows of dphi are the next m rows of phi, and
// the others are summed as tangent_product sums them. The copies equal the sums those
// rows would give (0 phi_k added, 1 phi_k once) except in the sign of a zero. N and M:
// n and m if fixed at compile time, else Eigen::Dynamic.
template <int N, int M>
void kinematic_tangent_product(const Matrix& jacobian, const double* phi, double* dphi, int n,
                               int m, int columns) {
  constexpr int kLower = N == Eigen::Dynamic ? Eigen::Dynamic : N - M;
  using Lower = Eigen::Matrix<double, kLower, 1>;
  const int lower = n - m;
  for (int j = 0; j < columns; ++j) {
    const double* p = phi + static_cast<Eigen::Index>(j) * n;
    double* d = dphi + static_cast<Eigen::Index>(j) * n;
    for (int i = 0; i < m; ++i) d[i] = p[m + i];
    const auto rows = [&](int k) {
      return Eigen::Map<const Lower>(jacobian.data() + static_cast<Eigen::Index>(k) * n + m, lower);
    };
    Eigen::Map<Lower> out(d + m, lower);
    if constexpr (N == Eigen::Dynamic) {  // in place: no temporary to allocate
      out = rows(0) * p[0];
      for (int k = 1; k < n; ++k) out += rows(k) * p[k];
    } else {
      Lower sum = rows(0) * p[0];
      for (int k = 1; k < N; ++k) sum += rows(k) * p[k];
      out = sum;
    }
  }
}

// dphi = J phi by the cheapest of the two products above.
void tangent_flow_product(const ModeContext& c, const double* phi, double* dphi) {
  const int n = c.n, m = c.kinematic_rows;
  if (m > 0) {
    if (n == 4 && m == 2) return kinematic_tangent_product<4, 2>(c.jacobian, phi, dphi, n, m, c.columns);
    if (n == 2 && m == 1) return kinematic_tangent_product<2, 1>(c.jacobian, phi, dphi, n, m, c.columns);
    if (n == 6 && m == 3) return kinematic_tangent_product<6, 3>(c.jacobian, phi, dphi, n, m, c.columns);
    return kinematic_tangent_product<Eigen::Dynamic, Eigen::Dynamic>(c.jacobian, phi, dphi, n, m,
                                                                     c.columns);
  }
  switch (n) {
    case 2: return tangent_product<2>(c.jacobian, phi, dphi, n, c.columns);
    case 3: return tangent_product<3>(c.jacobian, phi, dphi, n, c.columns);
    case 4: return tangent_product<4>(c.jacobian, phi, dphi, n, c.columns);
    case 6: return tangent_product<6>(c.jacobian, phi, dphi, n, c.columns);
    default: return tangent_product<Eigen::Dynamic>(c.jacobian, phi, dphi, n, c.columns);
  }
}

// The model's right-hand side and root functions on raw arrays, for CVODE's callbacks
// and for the explicit Runge-Kutta pair alike. They never throw into C: models report
// trouble through non-finite values, which both integrators treat as a recoverable
// failure and retry with a smaller step.
bool field(void* data, double t, const double* in, double* out) {
  auto& c = *static_cast<ModeContext*>(data);
  Eigen::Map<const Vector> x(in, c.n);
  Eigen::Map<Vector> dxdt(out, c.n);
  const bool fused =
      c.tangent && c.jacobians.field_and_derivatives(c.mode, t, x, dxdt, c.jacobian, c.parameter,
                                                     c.df_dp);
  if (!fused) c.system->vector_field(c.mode, t, x, dxdt);
  if (!dxdt.allFinite()) return false;
  if (c.tangent) {
    if (!fused) c.jacobians.state_jacobian(c.mode, t, x, c.jacobian);
    double* dphi = out + c.n;
    tangent_flow_product(c, in + c.n, dphi);
    if (c.parameter >= 0) {  // (dx/dp)' = D_x f dx/dp + D_p f
      if (!fused) c.derivatives->field_parameter_derivative(c.parameter, c.mode, t, x, c.df_dp);
      Eigen::Map<Vector>(dphi + static_cast<Eigen::Index>(c.columns - 1) * c.n, c.n) += c.df_dp;
    }
  }
  return true;
}

// which (ExplicitRungeKutta::RootFunctions): all functions, all but the monitors, or one;
// an event alone costs its function without the field that the others need.
void roots(void* data, double t, const double* y, double* gout, int which) {
  auto& c = *static_cast<ModeContext*>(data);
  Eigen::Map<const Vector> x(y, c.n);
  if (which >= 0 && which < c.events) {
    gout[which] = c.system->event_function(c.mode, which, t, x);
    return;
  }
  for (int j = 0; j < c.events; ++j) gout[j] = c.system->event_function(c.mode, j, t, x);
  double* out = gout + c.events;
  const bool monitors = which != ExplicitRungeKutta::kWithoutMonitors;
  if ((monitors && (!c.extremum_coordinates.empty() || !c.gap_events.empty())) ||
      !c.guarded_events.empty())
    c.system->vector_field(c.mode, t, x, c.field);
  const auto rate = [&](int j) {  // dh/dt along the flow
    double dh_dt = 0.0;
    c.jacobians.event_gradient(c.mode, j, t, x, c.gradient, dh_dt);
    return c.gradient.dot(c.field) + dh_dt;
  };
  if (monitors) {
    for (const int i : c.extremum_coordinates) *out++ = c.field[i];
    for (const int j : c.gap_events) *out++ = rate(j);
  } else {
    out += c.extremum_coordinates.size() + c.gap_events.size();
  }
  for (const int j : c.guarded_events) *out++ = rate(j);
}

int right_hand_side(double t, N_Vector y, N_Vector ydot, void* data) {
  return field(data, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot)) ? 0 : 1;
}

int root_functions(double t, N_Vector y, double* gout, void* data) {
  roots(data, t, N_VGetArrayPointer(y), gout, ExplicitRungeKutta::kAllRoots);
  return 0;
}

void keep_message(int /*code*/, const char* module, const char* function, char* msg,
                  void* data) {
  *static_cast<std::string*>(data) = std::string(module) + "/" + function + ": " + msg;
}

}  // namespace

CvodeIntegrator::CvodeIntegrator(const HybridSystem& system, const FlowOptions& options)
    : system_(system), hints_(system.integrator_hints()), options_(options), mode_context_(system) {
  const int n = system.dimension();
  const int k = options.tangent ? (options.tangent_columns > 0 ? options.tangent_columns : n) : 0;
  if (k > n) throw InputError("more tangent columns than state components");
  const int parameter = options.tangent && !options.parameter_column.empty()
                            ? derivative_parameter(system, options.parameter_column)
                            : -1;
  if (options.tangent && !options.parameter_column.empty() && parameter < 0)
    throw InputError("model '" + system.name() + "' gives no derivatives in parameter '" +
                     options.parameter_column + "' (parameter_column)");
  const int columns = k + (parameter >= 0 ? 1 : 0);
  size_ = n + n * columns;
  SUNContext ctx = nullptr;
  if (SUNContext_Create(nullptr, &ctx) != 0 || !ctx)
    throw std::runtime_error("SUNDIALS: SUNContext_Create failed");
  context_.reset(ctx);
  y_.reset(N_VNew_Serial(size_, ctx));
  dense_.reset(N_VNew_Serial(size_, ctx));
  tolerances_.reset(N_VNew_Serial(size_, ctx));
  if (!y_ || !dense_ || !tolerances_)
    throw std::runtime_error("SUNDIALS: cannot allocate vectors of size " + std::to_string(size_));
  double* tol = N_VGetArrayPointer(tolerances_.get());
  for (int i = 0; i < size_; ++i)
    tol[i] = i < n ? options.absolute_tolerance : options.tangent_absolute_tolerance;
  mode_context_.n = n;
  mode_context_.kinematic_rows = mode_context_.jacobians.kinematic_rows();
  mode_context_.tangent = options.tangent;
  mode_context_.columns = columns;
  mode_context_.parameter = parameter;
  mode_context_.df_dp = Vector::Zero(n);
  mode_context_.jacobian = Matrix::Zero(n, n);
  mode_context_.field = Vector::Zero(n);
  mode_context_.gradient = Vector::Zero(n);
  mode_context_.extremum_coordinates = options.extremum_coordinates;
  bool one_step = false;
  for (int mode = 0; mode < system.mode_count(); ++mode) one_step = one_step || uses_runge_kutta(mode);
  if (one_step)
    runge_kutta_ = std::make_unique<ExplicitRungeKutta>(
        size_, Eigen::Map<const Vector>(tol, size_), options.relative_tolerance, max_step());
  for (const int i : options.extremum_coordinates)
    if (i < 0 || i >= n)
      throw InputError("extremum coordinate " + std::to_string(i) + " out of range");
}

CvodeIntegrator::~CvodeIntegrator() = default;

ModeIntegration CvodeIntegrator::hint(int mode) const {
  return hints_ ? hints_->integration(mode) : ModeIntegration::Nonstiff;
}

bool CvodeIntegrator::uses_runge_kutta(int mode) const {
  return options_.method == IntegratorMethod::RungeKutta ||
         (options_.method == IntegratorMethod::Auto && hint(mode) == ModeIntegration::ExplicitPair);
}

// FlowOptions::max_step, or a sixteenth of the forcing period (no missed impacts); 0: none.
double CvodeIntegrator::max_step() const {
  if (options_.max_step > 0.0) return options_.max_step;
  return system_.forcing_period() > 0.0 ? system_.forcing_period() / 16 : 0.0;
}

bool CvodeIntegrator::check(int flag, const char* call) {
  if (flag >= 0) return true;
  message_ = std::string(call) + " failed (flag " + std::to_string(flag) + ")" +
             (message_.empty() ? "" : ": " + message_);
  return false;
}

bool CvodeIntegrator::create(Instance& instance, bool stiff, double t, const double* y) {
  SUNContext ctx = context_.get();
  instance.memory.reset(CVodeCreate(stiff ? CV_BDF : CV_ADAMS, ctx));
  void* mem = instance.memory.get();
  if (!mem) return check(-1, "CVodeCreate");
  std::copy(y, y + size_, N_VGetArrayPointer(y_.get()));
  if (!check(CVodeInit(mem, right_hand_side, t, y_.get()), "CVodeInit")) return false;
  if (!check(CVodeSVtolerances(mem, options_.relative_tolerance, tolerances_.get()),
             "CVodeSVtolerances"))
    return false;
  if (!check(CVodeSetUserData(mem, &mode_context_), "CVodeSetUserData")) return false;
  if (!check(CVodeSetErrHandlerFn(mem, keep_message, &message_), "CVodeSetErrHandlerFn"))
    return false;
  if (!check(CVodeSetNoInactiveRootWarn(mem), "CVodeSetNoInactiveRootWarn")) return false;
  // CVODE lets the second step grow 10^4-fold by default; after an event that could leap
  // over a short excursion while the dense output is still of first order.
  if (!check(CVodeSetEtaMaxFirstStep(mem, 10.0), "CVodeSetEtaMaxFirstStep")) return false;
  // The first step after an event is a guess (flow.cpp); entering a stiff contact it can
  // be orders of magnitude too long, and CVODE's default of 7 error-test failures would
  // give up before the step has shrunk enough.
  if (!check(CVodeSetMaxErrTestFails(mem, 40), "CVodeSetMaxErrTestFails")) return false;
  if (max_step() > 0.0 && !check(CVodeSetMaxStep(mem, max_step()), "CVodeSetMaxStep"))
    return false;
  if (stiff) {
    instance.linear_solver.reset(make_block_newton_solver(ctx, mem, &mode_context_));
    if (!instance.linear_solver) return check(-1, "SUNLinSolNewEmpty");
    if (!check(CVodeSetLinearSolver(mem, instance.linear_solver.get(), nullptr),
               "CVodeSetLinearSolver"))
      return false;
  } else {
    instance.nonlinear_solver.reset(SUNNonlinSol_FixedPoint(y_.get(), 0, ctx));
    if (!instance.nonlinear_solver) return check(-1, "SUNNonlinSol_FixedPoint");
    if (!check(CVodeSetNonlinearSolver(mem, instance.nonlinear_solver.get()),
               "CVodeSetNonlinearSolver"))
      return false;
  }
  return true;
}

long CvodeIntegrator::current_steps() const {
  if (runge_kutta_active_) return runge_kutta_->steps();
  if (!active_) return 0;
  long steps = 0;
  // Cannot fail on a created instance; a failure would leave the count at 0.
  if (CVodeGetNumSteps(active_->memory.get(), &steps) != CV_SUCCESS) return 0;
  return steps;
}

// The mode's root functions: its events, then the monitors (extrema, gap minima), then
// the turning points of guarded events; with their directions in root_directions_.
int CvodeIntegrator::set_up_roots(int mode) {
  const int events = system_.event_count(mode);
  mode_context_.events = events;
  mode_context_.gap_events.clear();
  if (options_.gap_minima)
    for (int j = 0; j < events; ++j) {
      const EventKind kind = system_.event_spec(mode, j).kind;
      if (kind == EventKind::Impact || kind == EventKind::ContactStart)
        mode_context_.gap_events.push_back(j);
    }
  mode_context_.guarded_events.clear();
  for (int j = 0; j < events; ++j)
    if (system_.event_spec(mode, j).guard_turning_points) mode_context_.guarded_events.push_back(j);
  const int guarded = static_cast<int>(mode_context_.guarded_events.size());
  const int count = events + static_cast<int>(mode_context_.extremum_coordinates.size() +
                                              mode_context_.gap_events.size()) +
                    guarded;
  root_directions_.assign(static_cast<size_t>(count), 0);  // extrema: either direction
  for (int j = 0; j < events; ++j)
    root_directions_[j] = static_cast<int>(system_.event_spec(mode, j).direction);
  // A gap minimum is where dh/dt rises through zero.
  const int gaps_end = count - guarded;
  for (int g = gaps_end - static_cast<int>(mode_context_.gap_events.size()); g < gaps_end; ++g)
    root_directions_[g] = 1;
  // A turning point towards the surface: a maximum (dh/dt falling through zero) before a
  // rising crossing, a minimum before a falling one.
  for (int k = 0; k < guarded; ++k) {
    const int event = mode_context_.guarded_events[static_cast<size_t>(k)];
    root_directions_[static_cast<size_t>(gaps_end + k)] =
        -static_cast<int>(system_.event_spec(mode, event).direction);
  }
  return count;
}

bool CvodeIntegrator::start(double t, const double* y, int mode, double initial_step,
                            bool force_stiff) {
  message_.clear();
  steps_before_ += current_steps();
  mode_context_.mode = mode;
  const int count = set_up_roots(mode);
  const bool stiff =
      force_stiff || options_.method == IntegratorMethod::BDF ||
      (options_.method != IntegratorMethod::Adams && hint(mode) == ModeIntegration::Stiff);
  if (!stiff && uses_runge_kutta(mode)) {
    active_ = nullptr;
    runge_kutta_active_ = true;
    const int monitors =
        monitor_roots_wanted_
            ? 0
            : static_cast<int>(mode_context_.extremum_coordinates.size() +
                               mode_context_.gap_events.size());
    runge_kutta_->start(t, y, initial_step, field, roots, &mode_context_, root_directions_,
                        mode_context_.events, hint(mode) == ModeIntegration::ExplicitPair,
                        monitors);
    return true;
  }
  runge_kutta_active_ = false;
  Instance& instance = stiff ? bdf_ : adams_;
  if (!instance.memory) {
    if (!create(instance, stiff, t, y)) return false;
  } else {
    std::copy(y, y + size_, N_VGetArrayPointer(y_.get()));
    if (!check(CVodeReInit(instance.memory.get(), t, y_.get()), "CVodeReInit")) return false;
  }
  active_ = &instance;
  void* mem = instance.memory.get();
  if (!check(CVodeSetInitStep(mem, initial_step), "CVodeSetInitStep")) return false;
  if (!check(CVodeRootInit(mem, count, count > 0 ? root_functions : nullptr), "CVodeRootInit"))
    return false;
  if (count > 0 &&
      !check(CVodeSetRootDirection(mem, root_directions_.data()), "CVodeSetRootDirection"))
    return false;
  return true;
}

int CvodeIntegrator::step(double t_stop, double& t_reached) {
  if (runge_kutta_active_) {
    switch (runge_kutta_->step(t_stop, t_reached)) {
      case ExplicitRungeKutta::Result::Step: return CV_SUCCESS;
      case ExplicitRungeKutta::Result::StopTime: return CV_TSTOP_RETURN;
      case ExplicitRungeKutta::Result::Root: return CV_ROOT_RETURN;
      case ExplicitRungeKutta::Result::Failure: break;
    }
    message_ = "Runge-Kutta step failed: " + runge_kutta_->message();
    return CV_ERR_FAILURE;
  }
  void* mem = active_->memory.get();
  int flag = CVodeSetStopTime(mem, t_stop);
  if (!check(flag, "CVodeSetStopTime")) return flag;
  flag = CVode(mem, t_stop, y_.get(), &t_reached, CV_ONE_STEP);
  check(flag, "CVode");
  return flag;
}

bool CvodeIntegrator::interpolate(double t, double* y_out) {
  if (runge_kutta_active_) return runge_kutta_->interpolate(t, y_out);
  if (!check(CVodeGetDky(active_->memory.get(), t, 0, dense_.get()), "CVodeGetDky"))
    return false;
  const double* d = N_VGetArrayPointer(dense_.get());
  std::copy(d, d + size_, y_out);
  return true;
}

const double* CvodeIntegrator::solution() const {
  return runge_kutta_active_ ? runge_kutta_->solution() : N_VGetArrayPointer(y_.get());
}

const double* CvodeIntegrator::event_values() const {
  return runge_kutta_active_ ? runge_kutta_->event_values() : nullptr;
}

const std::vector<Root>& CvodeIntegrator::roots_found() {
  roots_.clear();
  const int count = static_cast<int>(root_directions_.size());
  if (runge_kutta_active_) {
    root_info_ = runge_kutta_->root_info();
  } else {
    root_info_.assign(static_cast<size_t>(std::max(count, 1)), 0);
    if (count <= 0 || CVodeGetRootInfo(active_->memory.get(), root_info_.data()) < 0)
      return roots_;
  }
  const auto& c = mode_context_;
  const int extrema = static_cast<int>(c.extremum_coordinates.size());
  const int gaps = static_cast<int>(c.gap_events.size());
  for (int j = 0; j < count; ++j) {
    if (root_info_[static_cast<size_t>(j)] == 0) continue;
    if (j < c.events)
      roots_.push_back({Root::Kind::Event, j});
    else if (j < c.events + extrema)
      roots_.push_back({Root::Kind::Extremum, c.extremum_coordinates[static_cast<size_t>(j - c.events)]});
    else if (j < c.events + extrema + gaps)
      roots_.push_back({Root::Kind::GapMinimum,
                        c.gap_events[static_cast<size_t>(j - c.events - extrema)]});
    else
      roots_.push_back({Root::Kind::TurningPoint,
                        c.guarded_events[static_cast<size_t>(j - c.events - extrema - gaps)]});
  }
  return roots_;
}

}  // namespace libcont::detail
