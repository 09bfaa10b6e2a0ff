#include "libcont/lyapunov_spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>
#include <optional>

namespace libcont {

namespace {

// Modified Gram-Schmidt of a square tangent of `size` columns (Size > 0: fixed) on fixed
// storage: q = the orthonormal columns, norms = R's diagonal. False where a column
// collapses (R_ii zero or not finite); q is then incomplete.
template <int Size>
bool gram_schmidt(const double* in, int size, double* q, double* norms) {
  if constexpr (Size > 0) size = Size;
  for (int k = 0; k < size * size; ++k) q[k] = in[k];
  for (int i = 0; i < size; ++i) {
    double* column = q + i * size;
    for (int j = 0; j < i; ++j) {
      const double* previous = q + j * size;
      double projection = 0.0;
      for (int k = 0; k < size; ++k) projection += previous[k] * column[k];
      for (int k = 0; k < size; ++k) column[k] -= projection * previous[k];
    }
    double norm2 = 0.0;
    for (int k = 0; k < size; ++k) norm2 += column[k] * column[k];
    norms[i] = std::sqrt(norm2);
    if (!(norms[i] > 0.0) || !std::isfinite(norms[i])) return false;
    for (int k = 0; k < size; ++k) column[k] /= norms[i];
  }
  return true;
}

// The product of each column's stretches |R_ii| since it was last read, as a mantissa and
// a power of two (renormalised by frexp only where the mantissa leaves [2^-500, 2^500]):
// one log per batch instead of one per forcing period, the same sum to rounding.
class StretchProduct {
 public:
  explicit StretchProduct(Eigen::Index n)
      : mantissa_(Vector::Ones(n)), exponent_(static_cast<size_t>(n), 0L) {}
  void multiply(Eigen::Index i, double factor) {
    double& m = mantissa_[i];
    m *= factor;
    if (!(m < 0x1p500 && m > 0x1p-500)) {  // also a zero (a collapsed column) or NaN
      int e = 0;
      m = std::frexp(m, &e);
      exponent_[static_cast<size_t>(i)] += e;
    }
  }
  // Adds the log of each column's product to logs; the products start again from 1.
  void add_logs_to(Vector& logs) {
    for (Eigen::Index i = 0; i < logs.size(); ++i) {
      long& e = exponent_[static_cast<size_t>(i)];
      logs[i] += std::log(mantissa_[i]) + static_cast<double>(e) * std::log(2.0);
      mantissa_[i] = 1.0;
      e = 0;
    }
  }

 private:
  Vector mantissa_;
  std::vector<long> exponent_;
};

// Benettin's step: tangent = Q R, tangent <- Q, |R_ii| multiplied into stretch. Small
// tangents by modified Gram-Schmidt on fixed storage (no allocation: it runs once per
// forcing period), with the size fixed for two states (a one-degree-of-freedom
// oscillator: a loop of dynamic length costs more in its set-up than its dozen
// products); Householder where a column collapses (sticking: R_ii = 0 gives the
// exponent -inf) and for larger systems, where its stability is worth its cost.
void orthonormalise(Matrix& tangent, StretchProduct& stretch) {
  const Eigen::Index n = tangent.cols();
  constexpr int kSmall = 8;
  if (n <= kSmall && tangent.rows() == n) {
    double q[kSmall * kSmall];
    double norms[kSmall];
    const int size = static_cast<int>(n);
    const bool orthonormal = size == 2
                                 ? gram_schmidt<2>(tangent.data(), size, q, norms)
                                 : gram_schmidt<0>(tangent.data(), size, q, norms);
    if (orthonormal) {
      for (Eigen::Index i = 0; i < n; ++i) stretch.multiply(i, norms[i]);
      double* out = tangent.data();
      for (int k = 0; k < size * size; ++k) out[k] = q[k];
      return;
    }
  }
  Eigen::HouseholderQR<Matrix> qr(tangent);
  const Matrix& packed = qr.matrixQR();
  for (Eigen::Index i = 0; i < n; ++i) stretch.multiply(i, std::abs(packed(i, i)));
  tangent = qr.householderQ() * Matrix::Identity(n, n);
}

// Counts the transient's periods for LyapunovOptions::progress: a sample on the period grid
// (interpolated, so the integration's steps are the same as without it) is a period done.
class PeriodCounter : public FlowObserver {
 public:
  PeriodCounter(const std::function<void(int, int)>& progress, int total)
      : progress_(progress), total_(total) {}
  void on_sample(double, ConstVectorRef, int) override { progress_(++done_, total_); }

 private:
  const std::function<void(int, int)>& progress_;
  int total_;
  int done_ = 0;
};

// The standard error of the mean of the batches' values (a column per batch): their
// sample standard deviation over the square root of their number. NaN for fewer than two
// batches or a value that is not finite.
double standard_error(const Eigen::Ref<const Vector>& values) {
  const Eigen::Index count = values.size();
  if (count < 2 || !values.allFinite()) return std::numeric_limits<double>::quiet_NaN();
  const double mean = values.mean();
  const double squares = (values.array() - mean).square().sum();
  return std::sqrt(squares / static_cast<double>(count * (count - 1)));
}

}  // namespace

LyapunovSpectrum::LyapunovSpectrum(const HybridSystem& system, LyapunovOptions options)
    : system_(system), options_(std::move(options)) {
  if (options_.transient_periods < 0) throw InputError("transient periods must be >= 0");
  if (options_.periods < 1) throw InputError("averaging periods must be >= 1");
  if (options_.batches < 2) throw InputError("batches must be >= 2");
}

LyapunovResult LyapunovSpectrum::compute(double t0, ConstVectorRef x0) const {
  LyapunovResult result;
  const int n = system_.dimension();
  const double period =
      system_.forcing_period() > 0.0 ? system_.forcing_period() : options_.autonomous_period;

  FlowOptions plain = options_.flow;
  plain.tangent = false;
  Flow transient_flow(system_, plain);
  FlowState state = transient_flow.initial_state(t0, x0);
  const int total_periods = options_.transient_periods + options_.periods;
  std::optional<PeriodCounter> transient_periods;
  if (options_.progress) transient_periods.emplace(options_.progress, total_periods);
  result.report = transient_flow.advance(
      state, t0 + options_.transient_periods * period,
      transient_periods ? &*transient_periods : nullptr,
      transient_periods ? SampleGrid{t0, period} : SampleGrid{});
  result.final_state = state;
  if (!result.report.ok()) return result;

  FlowOptions with_tangent = options_.flow;
  with_tangent.tangent = true;
  Flow flow(system_, with_tangent);
  state.tangent = Matrix::Identity(n, n);
  ImpactRecorder recorder(system_);
  Vector log_stretch = Vector::Zero(n);
  StretchProduct stretch(n);  // since log_stretch was last brought up to date
  const double t_start = state.t;
  result.poincare_samples.resize(n, options_.periods);
  // The log stretches of each batch of batch_periods periods, a column per batch.
  const int batches = std::min(options_.batches, options_.periods);
  const int batch_periods = options_.periods / batches;
  Matrix batch_logs(n, batches);
  Vector batch_start = log_stretch;
  int batch_left = batch_periods;  // periods until the current batch is complete
  int done = 0;
  for (int k = 1; k <= options_.periods; ++k) {
    FlowReport step = flow.advance(state, t_start + k * period, &recorder);
    result.report.add_work(step);
    if (!step.ok() || step.status == FlowStatus::TerminalEvent) {
      result.report.status = step.status;
      result.report.message = step.message;
      break;
    }
    orthonormalise(state.tangent, stretch);
    result.poincare_samples.col(k - 1) = state.x;
    done = k;
    if (--batch_left == 0 && result.batches < batches) {
      stretch.add_logs_to(log_stretch);
      batch_logs.col(result.batches++) = log_stretch - batch_start;
      batch_start = log_stretch;
      batch_left = batch_periods;
    }
    if (options_.progress) options_.progress(options_.transient_periods + k, total_periods);
  }
  stretch.add_logs_to(log_stretch);
  result.poincare_samples.conservativeResize(n, done);
  result.final_state = state;
  result.averaging_time = done * period;
  if (done == 0) return result;

  const Vector unsorted = log_stretch / result.averaging_time;
  // Descending, each error going with its exponent.
  std::vector<Eigen::Index> order(static_cast<size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](Eigen::Index a, Eigen::Index b) { return unsorted[a] > unsorted[b]; });
  const Matrix batch_exponents =
      batch_logs.leftCols(result.batches) / (batch_periods * period);
  result.exponents.resize(n);
  result.exponent_errors.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Index from = order[static_cast<size_t>(i)];
    result.exponents[i] = unsorted[from];
    result.exponent_errors[i] = standard_error(batch_exponents.row(from).transpose());
  }
  result.exponent_sum = log_stretch.sum() / result.averaging_time;
  result.exponent_sum_error = standard_error(batch_exponents.colwise().sum().transpose());
  result.impacts = recorder.statistics();
  result.impacts_per_period = static_cast<double>(result.impacts.impacts) / done;
  result.energy_per_period = result.impacts.energy_change / done;
  result.n = detect_period_in_columns(result.poincare_samples, options_.max_detected_period,
                           options_.period_tolerance);
  if (result.n > 0) {
    const double window_start = state.t - result.n * period;
    result.p = static_cast<int>(std::count_if(
        result.impacts.impact_times.begin(), result.impacts.impact_times.end(),
        [&](double t) { return t > window_start; }));
  }
  return result;
}

}  // namespace libcont
