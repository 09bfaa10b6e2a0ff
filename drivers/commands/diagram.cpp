// vicont diagram: the hybrid bifurcation diagram (libcont::HybridDiagram): branches of
// periodic orbits by continuation wherever integration settles on a stable orbit (with
// their unstable continuation and special points), direct integration with the Lyapunov
// spectrum elsewhere (chaotic bands), as CSV, a two-panel PNG and a JSON summary.
#include <cmath>
#include <sstream>

#include "atomic_file.hpp"
#include "branch_output.hpp"
#include "commands/system_command.hpp"
#include "exit_codes.hpp"
#include "fallback_report.hpp"
#include "integrator_choice.hpp"
#include "libcont/hybrid_diagram.hpp"
#include "output.hpp"
#include "parameter_range.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "run_inputs.hpp"
#include "sweep_output.hpp"
#include "system_report.hpp"
#include "run_limits.hpp"

namespace vicont {

namespace {

const SweepFiles integration_files{"diagram_integration.csv", "diagram_samples.csv",
                                   "diagram_impacts.csv"};

struct DiagramSettings : ParameterRange {
  DiagramSettings() : ParameterRange("the parameter", "e.g. omega") {}

  int steps = 61;
  int transient = 500;
  int periods = 500;
  int max_period = 16;
  int samples = 50;
  std::optional<double> initial_step, max_step;
  IntegratorChoice integrator;

  void add_options(RunOptions& options) {
    add_range_options(options);
    options.add_count("steps", steps, 2,
                      "grid of direct integration, both ends included (default: 61)",
                      limits::diagram_steps);
    options.add_count("transient", transient, 0,
                      "forcing periods before averaging at an integration point (default: 500)",
                      limits::periods);
    options.add_count("periods", periods, 1,
                      "forcing periods averaged at an integration point (default: 500)",
                      limits::periods);
    options.add_count("max-period", max_period, 1,
                      "largest n tried for z = p/n, hence for branches (default: 16)",
                      limits::detected_period);
    options.add_count("samples", samples, 1,
                      "Poincare samples kept per integration point (default: 50)",
                      limits::kept_samples);
    options.add_positive_number("initial-step", initial_step,
                                "first arclength step of a branch (default: |to - from| / 100)");
    options.add_positive_number("max-step", max_step,
                                "largest arclength step of a branch (default: |to - from| / 20)");
    integrator.add_option(options);
  }

  libcont::HybridDiagramOptions diagram(const libcont::HybridSystem& system) const {
    require_range();
    auto o = libcont::HybridDiagramOptions::for_range(parameter, *from, *to, initial_step, max_step);
    o.steps = steps;
    o.initial_state = system.default_initial_state();
    o.lyapunov.transient_periods = transient;
    o.lyapunov.periods = periods;
    o.lyapunov.max_detected_period = max_period;
    o.lyapunov.flow = integrator.flow();
    o.shooting.flow = integrator.flow();
    o.kept_samples = samples;
    return o;
  }
};

// Forcing period at a parameter value, for the exponents ln|mu| / (n T) of a branch.
double period_at(const libcont::SystemFactory& factory, const std::string& parameter, double value) {
  const auto system = factory();
  system->set_parameter(parameter, value);
  return system->forcing_period();
}

// The point data (PeriodicOrbitProblem::point_data_names), the section's phase (the
// point's chart: continuation moves the section off the orbit's events) and the state on
// it, of a branch point or special point (no line end).
void write_orbit_columns(std::ostream& out, const libcont::Vector& data, double section_phase,
                         const libcont::Vector& u) {
  for (Eigen::Index i = 0; i < data.size(); ++i) out << ',' << number_text(data[i]);
  out << ',' << number_text(section_phase);
  for (Eigen::Index i = 0; i < u.size(); ++i) out << ',' << number_text(u[i]);
}

void write_diagram_files(const std::filesystem::path& out, const libcont::HybridSystem& system,
                         const libcont::SystemFactory& factory, const libcont::HybridDiagramOptions& o,
                         const libcont::HybridDiagramResult& d) {
  write_sweep_csv_files(out, integration_files, system, o.parameter, d.integration);
  std::vector<std::string> data_names;
  if (!d.branches.empty()) data_names = d.branches.front().data_names;
  const auto header = [&](std::ostream& s, const std::string& middle) {
    s << "branch,n," << middle;
    for (const auto& name : data_names) s << ',' << name;
    s << ",section_phase";
    for (const auto& name : system.state_names()) s << ',' << name;
    s << '\n';
  };
  write_file_atomically(out / "diagram_branches.csv", [&](std::ostream& s) {
    header(s, "index," + o.parameter + ",stable,largest_exponent");
    for (size_t id = 0; id < d.branches.size(); ++id) {
      const auto& b = d.branches[id];
      const auto radius = std::find(b.data_names.begin(), b.data_names.end(), "spectral_radius") -
                          b.data_names.begin();
      for (size_t k = 0; k < b.branch.points.size(); ++k) {
        const auto& point = b.branch.points[k];
        const double exponent =
            std::log(point.data[radius]) / (b.n * period_at(factory, o.parameter, point.lambda));
        s << id << ',' << b.n << ',' << k << ',' << number_text(point.lambda) << ','
          << (b.stable(point) ? 1 : 0) << ',' << number_text(exponent);
        write_orbit_columns(s, point.data, point.chart, point.u);
        s << '\n';
      }
    }
  });
  write_file_atomically(out / "diagram_special_points.csv", [&](std::ostream& s) {
    header(s, "type," + o.parameter);
    for (size_t id = 0; id < d.branches.size(); ++id)
      for (const auto& special : d.branches[id].branch.special_points) {
        s << id << ',' << d.branches[id].n << ',' << special.type_name() << ','
          << number_text(special.lambda);
        write_orbit_columns(s, special.data, special.chart, special.u);
        s << '\n';
      }
  });
  // The orbits at t = kT (mod nT), a row per lap k; each special point after its branch
  // point, twice (stable as that point, then the other way), so that the stable and the
  // unstable curves both run to it (split at the branch points only, each stopped short).
  write_file_atomically(out / "diagram_stroboscopic.csv", [&](std::ostream& s) {
    s << "branch,n,index," << o.parameter << ",stable,k,special";
    for (const auto& name : system.state_names()) s << ',' << name;
    s << '\n';
    for (size_t id = 0; id < d.branches.size(); ++id) {
      const auto& b = d.branches[id];
      const auto row = [&](size_t index, double lambda, int stable, Eigen::Index lap,
                           const std::string& special, const libcont::Matrix& states) {
        s << id << ',' << b.n << ',' << index << ',' << number_text(lambda) << ',' << stable << ','
          << lap << ',' << special;
        for (Eigen::Index i = 0; i < states.rows(); ++i) s << ',' << number_text(states(i, lap));
        s << '\n';
      };
      const auto& specials = b.branch.special_points;
      // Lap by lap, so that each curve's rows follow each other (others' rows break it).
      for (Eigen::Index lap = 0; lap < b.n; ++lap) {
        size_t next = 0;  // the next special point
        for (size_t k = 0; k < b.branch.points.size(); ++k) {
          const auto& point = b.branch.points[k];
          const int stable = b.stable(point) ? 1 : 0;
          row(k, point.lambda, stable, lap, "", b.stroboscopic[k]);
          // The stability of the point before first: each curve's rows stay consecutive.
          for (; next < specials.size() && specials[next].after_point <= static_cast<int>(k); ++next)
            for (const int side : {stable, 1 - stable})
              row(k, specials[next].lambda, side, lap, specials[next].type_name(),
                  b.special_stroboscopic[next]);
        }
      }
    }
  });
}

// A run of consecutive chaotic integration points.
struct ChaoticBand {
  double from = 0.0, to = 0.0;  // parameter values of its first and last point
  size_t points = 0;
  double largest_exponent = 0.0;  // largest lambda_1 in it
};

std::vector<ChaoticBand> chaotic_bands(const std::vector<libcont::SweepPoint>& points) {
  std::vector<ChaoticBand> bands;
  for (size_t i = 0; i < points.size();) {
    if (!points[i].chaotic()) {
      ++i;
      continue;
    }
    size_t end = i + 1;
    double largest = points[i].exponents[0];
    while (end < points.size() && points[end].chaotic() &&
           std::abs(points[end].key.index - points[end - 1].key.index) == 1)
      largest = std::max(largest, points[end++].exponents[0]);
    bands.push_back({points[i].parameter, points[end - 1].parameter, end - i, largest});
    i = end;
  }
  return bands;
}

// What vicont diagram reports: its options, the branches and the integration points.
struct DiagramSummary {
  const libcont::HybridSystem& system;
  libcont::HybridDiagramOptions options;
  std::filesystem::path out;
  libcont::HybridDiagramResult result{};
  std::vector<ChaoticBand> bands{};
  RunHealth health{};
  std::vector<std::string> files{};
};

nlohmann::ordered_json render_json(const DiagramSummary& summary) {
  const libcont::HybridDiagramOptions& o = summary.options;
  const libcont::HybridDiagramResult& d = summary.result;
  nlohmann::ordered_json s;
  s["command"] = "diagram";
  s["system"] = summary.system.name();
  add_model_file(s, summary.system);
  s["parameters"] = parameters_json(summary.system);
  s["parameters"].erase(o.parameter);
  s["parameter"] = o.parameter;
  s["from"] = o.from;
  s["to"] = o.to;
  s["steps"] = o.steps;
  s["transient_periods"] = o.lyapunov.transient_periods;
  s["periods"] = o.lyapunov.periods;
  nlohmann::ordered_json branches = nlohmann::ordered_json::array();
  for (const auto& b : d.branches) {
    nlohmann::ordered_json specials = nlohmann::ordered_json::array();
    for (const auto& special : b.branch.special_points)
      specials.push_back({{"type", special.type_name()}, {o.parameter, special.lambda}});
    nlohmann::ordered_json rejoined = nlohmann::ordered_json::array();
    for (const auto& r : b.rejoined)
      rejoined.push_back({{"at", r.at}, {"stable_until", r.stable_until}, {"lost_by", r.lost_by}});
    branches.push_back({{"n", b.n},
                        {"p", b.p},
                        {"found_at", b.found_at},
                        {"stable_until", b.stable_until},
                        {"lost_by", b.lost_by},
                        {"rejoined", rejoined},
                        {"points", b.branch.points.size()},
                        {"special_points", specials},
                        {"stop_reason", b.branch.stop_reason},
                        {"stability_warnings", stability_warnings_json(b.branch, b.data_names)}});
  }
  s["branches"] = branches;
  s["integration_points"] = d.integration.size();
  nlohmann::ordered_json bands = nlohmann::ordered_json::array();
  for (const auto& band : summary.bands)
    bands.push_back({{"from", band.from},
                     {"to", band.to},
                     {"points", band.points},
                     {"largest_lambda_1", band.largest_exponent}});
  s["chaotic_bands"] = bands;
  s["failed"] = d.failed;
  s["fallbacks"] = fallbacks_json(points_fallbacks(d.integration, o.parameter), "points");
  return s;
}

std::string render_text(const DiagramSummary& summary) {
  const libcont::HybridDiagramOptions& o = summary.options;
  const libcont::HybridDiagramResult& d = summary.result;
  std::ostringstream text;
  text << "vicont diagram\n";
  print_system(text, summary.system, {o.parameter});
  text << "range       " << o.parameter << " from " << number_text(o.from) << " to "
       << number_text(o.to) << ", integration grid of " << o.steps << " values ("
       << o.lyapunov.transient_periods << " transient + " << o.lyapunov.periods
       << " averaged periods)\n"
       << "branches    " << d.branches.size() << '\n';
  for (const auto& b : d.branches) {
    text << "            n = " << b.n << " (p = " << b.p << ") found at " << rounded_text(b.found_at)
         << ", stable until " << rounded_text(b.stable_until, 8) << " (" << b.lost_by << "), "
         << b.branch.points.size() << " points, " << b.branch.special_points.size()
         << " special points\n";
    for (const auto& r : b.rejoined)
      text << "              settled on again at " << rounded_text(r.at) << ", stable until "
           << rounded_text(r.stable_until, 8) << " (" << r.lost_by << ")\n";
    text << stability_warning_text(b.branch, b.data_names, o.parameter, "              warning: ");
  }
  text << "integrated  " << d.integration.size() << " points, " << d.failed << " failed\n"
       << fallbacks_text(points_fallbacks(d.integration, o.parameter), "point");
  for (const auto& band : summary.bands)
    text << "chaos       " << o.parameter << ' ' << rounded_text(band.from) << " to "
         << rounded_text(band.to) << ": largest lambda_1 " << rounded_text(band.largest_exponent)
         << '\n';
  text << "files       " << summary.out.string()
       << "/{diagram_branches.csv, diagram_special_points.csv, diagram_stroboscopic.csv, "
          "diagram_integration.csv, diagram_samples.csv, diagram_impacts.csv, "
       << figure_file_names("diagram") << ", diagram.json}\n";
  return text.str();
}

// diagram.json and the data files of write_diagram_files.
std::vector<std::string> diagram_files(const std::filesystem::path& out) {
  std::vector<std::string> files = {(out / "diagram.json").string()};
  for (const char* name :
       {"diagram_branches.csv", "diagram_special_points.csv", "diagram_stroboscopic.csv"})
    files.push_back((out / name).string());
  for (const auto& name : {integration_files.points, integration_files.samples, integration_files.impacts})
    files.push_back((out / name).string());
  return files;
}

// The largest n of the branches (1 without any).
int longest_period(const libcont::HybridDiagramResult& d) {
  int n = 1;
  for (const auto& b : d.branches) n = std::max(n, b.n);
  return n;
}

// diagram.png: branches over the integration points' samples, exponents below.
void draw_diagram(DiagramSummary& summary) {
  const libcont::HybridDiagramOptions& o = summary.options;
  const auto names = summary.system.state_names();
  const auto displacement = summary.system.displacement_coordinates();
  const std::string coordinate = names[static_cast<size_t>(displacement.empty() ? 0 : displacement.front())];
  summary.health.add_plot(summary.files, [&] {
    return plot_diagram(
        DiagramPlot{summary.out, "diagram_branches.csv", "diagram_stroboscopic.csv",
                    integration_files.points,
                    integration_files.samples, o.parameter, coordinate,
                    static_cast<int>(summary.result.branches.size()), longest_period(summary.result),
                    "hybrid diagram of " + summary.system.name() + ": " + o.parameter + " from " +
                        rounded_text(o.from) + " to " + rounded_text(o.to)},
        "diagram");
  });
}

class DiagramCommand : public SystemCommand {
 public:
  explicit DiagramCommand(CLI::App& vicont)
      : SystemCommand(vicont, "diagram",
                      "hybrid bifurcation diagram: continuation of stable periodic orbits, "
                      "direct integration with Lyapunov exponents where there is none") {
    settings_.add_options(options_);
    finish_options("print the summary as one JSON object");
  }

  int run() override {
    const auto system = resolve_checked();
    settings_.check_forcing_period_at_ends(inputs_.system_factory());
    DiagramSummary summary{*system, settings_.diagram(*system), out_};
    const libcont::HybridDiagramOptions& o = summary.options;
    const auto factory = inputs_.system_factory();
    Progress progress("diagram", o.steps, "grid points");
    libcont::HybridDiagramOptions observed = o;
    observed.progress = [&](int done, int) { progress.update(done); };
    const libcont::HybridDiagram diagram(factory, observed);  // checks the range and the integration
    // The branches' options are used only once a branch is found: checked now, in their
    // own words, before anything runs.
    o.continuation.validate();
    o.shooting.validate();
    prepare_output_directory(out_);
    summary.result = diagram.compute();
    write_diagram_files(out_, *system, factory, o, summary.result);
    summary.files = diagram_files(out_);
    draw_diagram(summary);
    if (const int failed = summary.result.failed)
      summary.health.numerical_failure = std::to_string(failed) + " integration point" +
                                         (failed > 1 ? "s" : "") + " failed (status in " +
                                         integration_files.points + ")";
    summary.bands = chaotic_bands(summary.result.integration);
    nlohmann::ordered_json json = render_json(summary);
    write_summary(out_ / "diagram.json", json, summary.health, summary.files);
    return report(json, render_text(summary), summary.health);
  }

 private:
  DiagramSettings settings_;
};

}  // namespace

std::unique_ptr<Command> make_diagram_command(CLI::App& vicont) {
  return std::make_unique<DiagramCommand>(vicont);
}

}  // namespace vicont
