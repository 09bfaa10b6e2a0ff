// Measures the numbers quoted in doc/theory.md, so that every one of them can be
// re-derived by running this program:
//   1. det S = r^2 for the hard impact on the moving base (saltation matrix of the model);
//   2. exponent-sum identity: error of the Lyapunov exponent sum against the exact
//      phase-volume contraction rate, moving base at eta = 4, hard and soft, several rtol;
//   3. Floquet/Lyapunov identity (doc/theory.md, 6) on the settled z = 1/2 orbit at eta = 4;
//   4. drop test, r = 0.5: time of coming to rest versus the analytic accumulation time;
//   5. energy equivalence (doc/theory.md, 9): rebound ratio of a free mass on the equivalent
//      Kelvin-Voigt contact;
//   6. sticking on the moving base: -inf exponents after the chattering sequence ends;
//   7. a body resting on the base during the whole averaging phase: exponents 0, not -inf.
// Not a test: it prints, it asserts nothing. Takes about a minute.
//   cmake --build build --target theory_numbers && build/theory_numbers
#include <cmath>
#include <cstdio>
#include <string>

#include <Eigen/Eigenvalues>

#include "libcont/flow.hpp"
#include "libcont/kelvin_voigt_contact.hpp"
#include "libcont/lyapunov_spectrum.hpp"
#include "libcont/saltation.hpp"
#include "systems/drop.hpp"
#include "systems/moving_base.hpp"

namespace {

using libcont::EventKind;
using libcont::FlowOptions;
using libcont::Matrix;
using libcont::Vector;

systems::MovingBaseOscillator oscillator(const std::string& model, double r, double eta = 4.0) {
  systems::MovingBaseOscillator s;
  s.set_parameter("omega", eta);
  s.set_parameter("r", r);
  s.set_parameter_text("model", model);
  s.set_parameter("ks", 200000.0);
  return s;
}

// Total time spent in soft contact, from the events of a trajectory.
class ContactClock : public libcont::FlowObserver {
 public:
  void on_event(const libcont::EventRecord& e) override {
    if (e.kind == EventKind::ContactStart) entered_ = e.t, open_ = true;
    if (e.kind == EventKind::ContactEnd && open_) time_ += e.t - entered_, open_ = false;
  }
  double total() const { return time_; }

 private:
  double entered_ = 0.0, time_ = 0.0;
  bool open_ = false;
};

void saltation_determinant() {
  std::printf("\n1. Saltation matrix of the hard impact on the moving base\n");
  for (double r : {1.0, 0.8, 0.6}) {
    auto s = oscillator("hard", r);
    const double t = 0.3;  // impact on the base at an arbitrary instant, approaching
    Vector x_minus(2);
    x_minus << s.base_position(t), s.base_velocity(t) - 0.01;
    Vector x_plus = x_minus;
    const auto outcome = s.apply_event(0, 0, t, x_plus);
    const Matrix S = libcont::saltation_matrix(s, 0, 0, outcome, t, x_minus, x_plus);
    std::printf("   r = %.1f  S = [%+.6f %+.6f; %+.6f %+.6f]  det S - r^2 = %+.2e\n", r, S(0, 0),
                S(0, 1), S(1, 0), S(1, 1), S.determinant() - r * r);
  }
}

void exponent_sums() {
  std::printf("\n2. Exponent sum versus the exact contraction rate, moving base, eta = 4,\n"
              "   1000 transient + 6000 averaged periods\n");
  std::printf("   %-5s %4s %7s %14s %18s %11s %8s\n", "model", "r", "rtol", "sum",
              "exact", "error", "z");
  for (const std::string model : {"hard", "soft"})
    for (double r : {1.0, 0.8})
      for (double rtol : {1e-10, 1e-11, 1e-12}) {
        auto s = oscillator(model, r);
        libcont::LyapunovOptions options;
        options.transient_periods = 1000;
        options.periods = 6000;
        options.flow.relative_tolerance = rtol;
        const auto result =
            libcont::LyapunovSpectrum(s, options).compute(0.0, s.default_initial_state());
        if (!result.ok()) {
          std::printf("   %s r = %.1f rtol %.0e: %s\n", model.c_str(), r, rtol,
                      result.report.message.c_str());
          continue;
        }
        const double c = s.parameters()["c"], m = s.parameters()["m"];
        double exact = -c / m;
        if (model == "hard") {
          exact += 2.0 * std::log(r) * result.impacts.impacts / result.averaging_time;
        } else if (s.contact_damping() > 0.0) {
          FlowOptions plain = options.flow;
          libcont::Flow flow(s, plain);
          auto state = flow.initial_state(0.0, s.default_initial_state());
          flow.advance(state, options.transient_periods * s.forcing_period());
          ContactClock clock;
          flow.advance(state, state.t + result.averaging_time, &clock);
          exact -= s.contact_damping() / m * clock.total() / result.averaging_time;
        }
        std::printf("   %-5s %4.1f %7.0e %14.10f %18.14f %11.2e %5d/%d\n", model.c_str(), r,
                    rtol, result.exponent_sum, exact, result.exponent_sum - exact, result.p,
                    result.n);
      }
}

void floquet_identity() {
  std::printf("\n3. Floquet multipliers versus Lyapunov exponents, eta = 4, r = 1\n");
  for (const std::string model : {"hard", "soft"}) {
    auto s = oscillator(model, 1.0);
    libcont::LyapunovOptions settle;
    settle.transient_periods = 2000;
    settle.periods = 100;
    const auto settled =
        libcont::LyapunovSpectrum(s, settle).compute(0.0, s.default_initial_state());
    // Monodromy matrix over n periods from the settled Poincare point.
    FlowOptions with_tangent;
    with_tangent.tangent = true;
    libcont::Flow flow(s, with_tangent);
    auto state = settled.final_state;
    state.tangent = Matrix::Identity(2, 2);
    const int n = settled.n > 0 ? settled.n : 1;
    const double nT = n * s.forcing_period();
    const Vector x_start = state.x;
    flow.advance(state, state.t + nT);
    Eigen::EigenSolver<Matrix> eig(state.tangent);
    const Eigen::VectorXcd mu = eig.eigenvalues();
    double a = std::log(std::abs(mu[0])) / nT, b = std::log(std::abs(mu[1])) / nT;
    if (a < b) std::swap(a, b);
    std::printf("   %s: z = %d/%d, |P^n(x) - x| = %.1e, mu = %.8f%+.8fi, %.8f%+.8fi\n",
                model.c_str(), settled.p, settled.n, (state.x - x_start).norm(), mu[0].real(),
                mu[0].imag(), mu[1].real(), mu[1].imag());
    std::printf("     ln|mu|/(nT) = %.12f %.12f\n", a, b);
    for (int periods : {2000, 8000}) {
      libcont::LyapunovOptions options;
      options.transient_periods = 0;
      options.periods = periods;
      const auto lyap =
          libcont::LyapunovSpectrum(s, options).compute(settled.final_state.t,
                                                        settled.final_state.x);
      std::printf("     Lyapunov over %5d periods: %.12f %.12f  diff %+.1e %+.1e, "
                  "mean diff %+.1e\n",
                  periods, lyap.exponents[0], lyap.exponents[1], lyap.exponents[0] - a,
                  lyap.exponents[1] - b, 0.5 * lyap.exponent_sum - 0.5 * (a + b));
    }
  }
}

// Time of the StickStart event of a trajectory.
class RestClock : public libcont::FlowObserver {
 public:
  void on_event(const libcont::EventRecord& e) override {
    ++events;
    if (e.kind == EventKind::StickStart) rest_time = e.t;
  }
  double rest_time = NAN;
  long events = 0;
};

void drop_rest_time() {
  std::printf("\n4. Drop test, H0 = 1, g = 9.81, r = 0.5: time of coming to rest\n");
  const double g = 9.81, h0 = 1.0, r = 0.5;
  const double v0 = std::sqrt(2.0 * g * h0);
  const double exact = std::sqrt(2.0 * h0 / g) + 2.0 * v0 / g * r / (1.0 - r);
  std::printf("   analytic accumulation time t1 + (2 v0/g) r/(1 - r) = %.15f\n", exact);
  struct Tolerances {
    double rtol, atol;
  };
  for (auto [rtol, atol] : {Tolerances{1e-8, 1e-13}, Tolerances{1e-10, 1e-13},
                            Tolerances{1e-11, 1e-13}, Tolerances{1e-12, 1e-13},
                            Tolerances{1e-11, 1e-11}, Tolerances{1e-11, 1e-15}}) {
    systems::DropTest s;
    s.set_parameter("r", r);
    FlowOptions options;
    options.relative_tolerance = rtol;
    options.absolute_tolerance = atol;
    libcont::Flow flow(s, options);
    auto state = flow.initial_state(0.0, s.default_initial_state());
    RestClock clock;
    const auto report = flow.advance(state, 3.0, &clock);
    std::printf("   rtol %.0e atol %.0e: rest at %.15f, error %+.2e, %ld events, status %s\n",
                rtol, atol,
                clock.rest_time, clock.rest_time - exact, clock.events,
                libcont::to_string(report.status).c_str());
  }
}

// Exit velocity of a contact started at unit speed on a nearly weightless mass.
void energy_equivalence() {
  std::printf("\n5. Energy equivalence: free mass, m = 1, ks = 2e5, entry speed 1\n");
  for (double r : {0.9, 0.6})
    for (auto relation : {libcont::EnergyRelation::Exact, libcont::EnergyRelation::Approximate}) {
      systems::DropTest s;
      s.set_parameter_text("model", "soft");
      s.set_parameter("ks", 2e5);
      s.set_parameter("r", r);
      s.set_parameter("g", 1e-12);
      s.set_parameter_text("relation", libcont::to_string(relation));
      libcont::Flow flow(s);
      Vector x0(2);
      x0 << 0.0, -1.0;
      auto state = flow.initial_state(0.0, x0);
      RestClock clock;
      flow.advance(state, 0.05, &clock);
      std::printf("   r = %.1f %-11s cs = %10.4f  rebound ratio = %.10f  (r' by the other "
                  "relation %.6f)\n",
                  r, libcont::to_string(relation).c_str(), s.contact_damping(), state.x[1],
                  libcont::restitution_for_contact(
                      2e5, s.contact_damping(), 1.0,
                      relation == libcont::EnergyRelation::Exact
                          ? libcont::EnergyRelation::Approximate
                          : libcont::EnergyRelation::Exact));
    }
}

// Counts the sticking episodes of a trajectory.
class StickCounter : public libcont::FlowObserver {
 public:
  void on_event(const libcont::EventRecord& e) override {
    if (e.kind == EventKind::StickStart) ++sticks;
    if (e.kind == EventKind::Impact) ++impacts;
  }
  long sticks = 0, impacts = 0;
};

void sticking() {
  std::printf("\n6. Sticking on the moving base (hard, r = 0.6, eta = 3, d = 0)\n");
  auto s = oscillator("hard", 0.6, 3.0);
  libcont::LyapunovOptions options;
  options.transient_periods = 300;
  options.periods = 300;
  const auto result =
      libcont::LyapunovSpectrum(s, options).compute(0.0, s.default_initial_state());
  std::printf("   status %s, exponents %g %g, a_i = %.3f, z = %d/%d\n",
              libcont::to_string(result.report.status).c_str(), result.exponents[0],
              result.exponents[1], result.impacts_per_period, result.p, result.n);
  libcont::Flow flow(s);
  auto state = result.final_state;
  StickCounter counter;
  flow.advance(state, state.t + 300 * s.forcing_period(), &counter);
  std::printf("   next 300 periods: %ld impacts, %ld sticking episodes\n", counter.impacts,
              counter.sticks);
  // The same identity without sticking: r = 0.8 at eta = 3 is chaotic.
  auto chaotic = oscillator("hard", 0.8, 3.0);
  const auto chaos =
      libcont::LyapunovSpectrum(chaotic, options).compute(0.0, chaotic.default_initial_state());
  const double exact = -0.23 + 2.0 * std::log(0.8) * chaos.impacts.impacts / chaos.averaging_time;
  std::printf("   r = 0.8, eta = 3: exponents %.6f %.6f, sum %.12f, -c/m + 2 ln r a_i/T = "
              "%.12f, error %.1e\n",
              chaos.exponents[0], chaos.exponents[1], chaos.exponent_sum, exact,
              chaos.exponent_sum - exact);
}

// A body at rest for the whole averaging phase: nothing collapses the tangent.
void resting() {
  std::printf("\n7. Drop test starting at rest on the base (hard): Lyapunov exponents\n");
  systems::DropTest s;
  libcont::LyapunovOptions options;
  options.transient_periods = 10;
  options.periods = 100;
  const Vector rest = Vector::Zero(2);
  const auto result = libcont::LyapunovSpectrum(s, options).compute(0.0, rest);
  std::printf("   mode at start: %s, exponents %g %g\n",
              s.mode_name(s.mode_of(0.0, rest)).c_str(), result.exponents[0],
              result.exponents[1]);
}

}  // namespace

int main() {
  saltation_determinant();
  exponent_sums();
  floquet_identity();
  drop_rest_time();
  energy_equivalence();
  sticking();
  resting();
  return 0;
}
