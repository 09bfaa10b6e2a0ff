// vicont basins: basins of attraction on a grid of initial conditions in two state
// coordinates (libcont::Basins): every cell labelled by the attractor it reaches (a
// periodic orbit, told apart by z = p/n and its section points, or non-periodic), as CSV,
// a PNG map with a key of the attractors, and a JSON summary.
#include <cmath>
#include <sstream>

#include "atomic_file.hpp"
#include "commands/system_command.hpp"
#include "exit_codes.hpp"
#include "fallback_report.hpp"
#include "integrator_choice.hpp"
#include "libcont/basins.hpp"
#include "output.hpp"
#include "plots.hpp"
#include "progress.hpp"
#include "start_contact.hpp"
#include "run_inputs.hpp"
#include "system_report.hpp"
#include "run_limits.hpp"

namespace vicont {

namespace {

// --x NAME:FROM:TO:STEPS, NAME a state coordinate of the system.
libcont::BasinAxis parse_axis(const std::string& option, const std::string& text,
                              const libcont::HybridSystem& system) {
  if (text.empty()) throw libcont::InputError(option + " is required (NAME:FROM:TO:STEPS)");
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  if (parts.size() != 4)
    throw libcont::InputError(option + " '" + text + "': expected NAME:FROM:TO:STEPS");
  const auto names = system.state_names();
  const auto found = std::find(names.begin(), names.end(), parts[0]);
  if (found == names.end()) {
    std::string known;
    for (const auto& name : names) known += (known.empty() ? "" : ", ") + name;
    throw libcont::InputError(option + ": '" + parts[0] + "' is not a state coordinate of " +
                              system.name() + " (" + known + ")");
  }
  libcont::BasinAxis axis;
  axis.coordinate = static_cast<int>(found - names.begin());
  axis.from = libcont::parse_number(parts[1], option + " FROM");
  axis.to = libcont::parse_number(parts[2], option + " TO");
  const double steps = libcont::parse_number(parts[3], option + " STEPS");
  if (!(steps >= 1 && steps <= 100000) || steps != std::floor(steps))
    throw libcont::InputError(option + " STEPS must be a whole number in [1, 100000] (got " +
                              parts[3] + ")");
  axis.steps = static_cast<int>(steps);
  return axis;
}

std::string attractor_label(const libcont::BasinAttractor& a, size_t id) {
  return "A" + std::to_string(id + 1) + ": z = " + std::to_string(a.p) + "/" + std::to_string(a.n);
}

std::string cell_label(const libcont::BasinResult& r, int attractor) {
  if (attractor == libcont::BasinCell::non_periodic) return "non-periodic";
  if (attractor == libcont::BasinCell::failed) return "failed";
  return attractor_label(r.attractors[static_cast<size_t>(attractor)], static_cast<size_t>(attractor));
}

void write_basin_files(const std::filesystem::path& out, const libcont::HybridSystem& system,
                       const libcont::BasinOptions& o, const libcont::BasinResult& r) {
  const auto names = system.state_names();
  const std::string& xname = names[static_cast<size_t>(o.x.coordinate)];
  const std::string& yname = names[static_cast<size_t>(o.y.coordinate)];
  write_file_atomically(out / "basins.csv", [&](std::ostream& s) {
    s << "i,j," << xname << ',' << yname << ",attractor,label,p,n,status";
    for (const auto& name : names) s << ",final_" << name;
    s << '\n';
    for (const auto& c : r.cells) {
      s << c.i << ',' << c.j << ',' << number_text(c.x) << ',' << number_text(c.y) << ','
        << c.attractor << ',' << cell_label(r, c.attractor) << ',' << c.p << ',' << c.n << ','
        << libcont::to_string(c.status);
      for (Eigen::Index k = 0; k < c.final_state.size(); ++k) s << ',' << number_text(c.final_state[k]);
      s << '\n';
    }
  });
  write_file_atomically(out / "attractors.csv", [&](std::ostream& s) {
    s << "attractor,label,p,n,cells,k";
    for (const auto& name : names) s << ',' << name;
    s << '\n';
    for (size_t a = 0; a < r.attractors.size(); ++a) {
      const auto& attractor = r.attractors[a];
      for (size_t k = 0; k < attractor.points.size(); ++k) {
        s << a << ',' << attractor_label(attractor, a) << ',' << attractor.p << ',' << attractor.n
          << ',' << attractor.cells << ',' << k + 1;
        for (Eigen::Index i = 0; i < attractor.points[k].size(); ++i)
          s << ',' << number_text(attractor.points[k][i]);
        s << '\n';
      }
    }
  });
}

// What vicont basins reports: the grid, what its cells reached and the run's files.
struct BasinsSummary {
  const libcont::HybridSystem& system;
  libcont::BasinOptions options;
  std::filesystem::path out;
  libcont::BasinResult result{};
  RunHealth health{};
  std::vector<std::string> files{};

  std::string axis_name(const libcont::BasinAxis& axis) const {
    return system.state_names()[static_cast<size_t>(axis.coordinate)];
  }
  // Cells in the order of basins.csv; a cell named by its initial coordinates.
  FallbackTally fallbacks() const {
    FallbackTally tally;
    for (const auto& cell : result.cells)
      tally.add(cell.fallbacks, cell.first_fallback_time,
                "cell " + axis_name(options.x) + " = " + number_text(cell.x) + ", " +
                    axis_name(options.y) + " = " + number_text(cell.y));
    return tally;
  }
};

// The cells that settled past the transient (BasinCell::settled_after) and the longest.
struct Settling {
  int cells = 0, most_periods = 0;
};
Settling settling_of(const libcont::BasinResult& r) {
  Settling s;
  for (const auto& cell : r.cells)
    if (cell.settled_after > 0 && !cell.settling) {
      ++s.cells;
      s.most_periods = std::max(s.most_periods, cell.settled_after);
    }
  return s;
}

nlohmann::ordered_json render_json(const BasinsSummary& summary) {
  const libcont::HybridSystem& system = summary.system;
  const libcont::BasinOptions& o = summary.options;
  const libcont::BasinResult& r = summary.result;
  nlohmann::ordered_json s;
  s["command"] = "basins";
  s["system"] = system.name();
  add_model_file(s, system);
  s["parameters"] = parameters_json(system);
  s["x"] = {{"coordinate", summary.axis_name(o.x)}, {"from", o.x.from}, {"to", o.x.to}, {"steps", o.x.steps}};
  s["y"] = {{"coordinate", summary.axis_name(o.y)}, {"from", o.y.from}, {"to", o.y.to}, {"steps", o.y.steps}};
  s["transient_periods"] = o.transient_periods;
  s["max_period"] = o.max_period;
  s["cells"] = r.cells.size();
  nlohmann::ordered_json attractors = nlohmann::ordered_json::array();
  for (size_t a = 0; a < r.attractors.size(); ++a) {
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const auto& point : r.attractors[a].points) points.push_back(state_json(system, point));
    attractors.push_back({{"id", a},
                          {"label", attractor_label(r.attractors[a], a)},
                          {"p", r.attractors[a].p},
                          {"n", r.attractors[a].n},
                          {"cells", r.attractors[a].cells},
                          {"section_points", points}});
  }
  s["attractors"] = attractors;
  s["non_periodic_cells"] = r.non_periodic;
  s["failed_cells"] = r.failed;
  const Settling settling = settling_of(r);
  s["settle_periods"] = o.settle_periods;
  s["settled_cells"] = settling.cells;
  s["most_settle_periods"] = settling.most_periods;
  s["settling_cells"] = r.settling;
  s["fallbacks"] = fallbacks_json(summary.fallbacks(), "cells");
  return s;
}

std::string render_text(const BasinsSummary& summary) {
  const libcont::BasinOptions& o = summary.options;
  const libcont::BasinResult& r = summary.result;
  std::ostringstream text;
  text << "vicont basins\n";
  print_system(text, summary.system);
  text << "grid        " << summary.axis_name(o.x) << " from " << number_text(o.x.from) << " to "
       << number_text(o.x.to) << " (" << o.x.steps << "), " << summary.axis_name(o.y) << " from "
       << number_text(o.y.from) << " to " << number_text(o.y.to) << " (" << o.y.steps
       << "); other coordinates from the default state; " << o.transient_periods
       << " transient periods\n"
       << "attractors  " << r.attractors.size() << " periodic\n";
  for (size_t a = 0; a < r.attractors.size(); ++a)
    text << "            " << attractor_label(r.attractors[a], a) << ": " << r.attractors[a].cells
         << " cells\n";
  text << "other       " << r.non_periodic << " non-periodic, " << r.failed << " failed cells\n";
  const Settling settling = settling_of(r);
  if (settling.cells > 0)
    text << "settling    " << settling.cells << " cells took up to " << settling.most_periods
         << " periods more to settle";
  if (r.settling > 0)
    text << (settling.cells > 0 ? "; " : "settling    ") << r.settling
         << " non-periodic cells were still settling after " << o.settle_periods
         << " periods more (raise --transient or --settle-periods)";
  if (settling.cells > 0 || r.settling > 0) text << '\n';
  text << fallbacks_text(summary.fallbacks(), "cell") << "files       " << summary.out.string()
       << "/{basins.csv, attractors.csv, " << figure_file_names("basins") << ", basins.json}\n";
  return text.str();
}

// basins.png: the map, with a key of the attractors (and of non-periodic and failed cells,
// where there are any).
void draw_basins(BasinsSummary& summary) {
  const libcont::BasinOptions& o = summary.options;
  const libcont::BasinResult& r = summary.result;
  std::vector<std::pair<int, std::string>> labels;
  for (size_t a = 0; a < r.attractors.size(); ++a)
    labels.emplace_back(static_cast<int>(a), attractor_label(r.attractors[a], a));
  if (r.non_periodic) labels.emplace_back(libcont::BasinCell::non_periodic, "non-periodic");
  if (r.failed) labels.emplace_back(libcont::BasinCell::failed, "failed");
  summary.health.add_plot(summary.files, [&] {
    const auto half = [](const libcont::BasinAxis& axis) {
      return axis.steps > 1 ? 0.5 * std::abs(axis.to - axis.from) / (axis.steps - 1) : 0.5;
    };
    return plot_basins(BasinPlot{summary.out, "basins.csv", "attractors.csv", summary.axis_name(o.x),
                                 summary.axis_name(o.y), half(o.x), half(o.y), o.x.steps,
                                 o.y.steps, labels,
                                 "basins of attraction: " + short_label(summary.system) +
                                     ", start at t = 0"},
                       "basins");
  });
}

class BasinsCommand : public SystemCommand {
 public:
  explicit BasinsCommand(CLI::App& vicont)
      : SystemCommand(vicont, "basins",
                      "basins of attraction on a grid of initial conditions in two coordinates") {
    options_.add_text("x", x_text_, "horizontal axis NAME:FROM:TO:STEPS, NAME a state coordinate");
    options_.add_text("y", y_text_, "vertical axis NAME:FROM:TO:STEPS");
    options_.add_count("transient", transient_, 0,
                       "forcing periods before a cell's motion is classified (default: 500)",
                       limits::periods);
    options_.add_count("max-period", max_period_, 1, "largest n tried for z = p/n (default: 16)",
                       limits::detected_period);
    options_.add_count("settle-periods", settle_periods_, 0,
                       "forcing periods more, at most, for a cell still settling after the "
                       "transient onto an orbit whose multipliers lie near the unit circle "
                       "(default: 10000; 0: none)",
                       limits::periods);
    options_.add_count("threads", threads_, 1, "threads (default: 1)", limits::threads);
    integrator_.add_option(options_);
    finish_options("print the summary as one JSON object");
  }

  int run() override {
    const auto system = resolve_checked();
    BasinsSummary summary{*system, basin_options(*system), out_};
    Progress progress("basins", summary.options.x.steps * summary.options.y.steps, "cells");
    libcont::BasinOptions options = summary.options;
    options.progress = [&](int done, int) { progress.update(done); };
    const libcont::Basins basins(inputs_.system_factory(), options);
    prepare_output_directory(out_);
    summary.result = basins.compute();
    write_basin_files(out_, *system, summary.options, summary.result);
    summary.files = {(out_ / "basins.json").string(), (out_ / "basins.csv").string(),
                     (out_ / "attractors.csv").string()};
    draw_basins(summary);
    if (summary.result.failed)
      summary.health.numerical_failure =
          std::to_string(summary.result.failed) + " of " +
          std::to_string(summary.result.cells.size()) +
          " cells failed to integrate (label 'failed' in basins.csv)";
    nlohmann::ordered_json json = render_json(summary);
    write_summary(out_ / "basins.json", json, summary.health, summary.files);
    return report(json, render_text(summary), summary.health);
  }

 private:
  libcont::BasinOptions basin_options(const libcont::HybridSystem& system) const {
    libcont::BasinOptions o;
    o.x = parse_axis("--x", x_text_, system);
    o.y = parse_axis("--y", y_text_, system);
    if (static_cast<double>(o.x.steps) * o.y.steps > limits::grid_points)
      throw libcont::InputError("--x and --y make " + std::to_string(o.x.steps) + " x " +
                                std::to_string(o.y.steps) + " cells; at most " +
                                number_text(limits::grid_points));
    o.transient_periods = transient_;
    o.max_period = max_period_;
    o.settle_periods = settle_periods_;
    o.threads = threads_;
    o.flow = integrator_.flow();
    refuse_cells_inside_contacts(system, o);
    return o;
  }

  // A cell that starts inside an obstacle is no initial condition of the model
  // (start_contact.hpp): the grid is refused, naming the first such cell and the contact.
  void refuse_cells_inside_contacts(const libcont::HybridSystem& system,
                                    const libcont::BasinOptions& o) const {
    libcont::Vector x = system.default_initial_state();
    int inside = 0;
    std::string first;
    for (int j = 0; j < o.y.steps; ++j)
      for (int i = 0; i < o.x.steps; ++i) {
        x[o.x.coordinate] = o.x.value(i);
        x[o.y.coordinate] = o.y.value(j);
        const auto violation = violated_contact(system, o.phase, x);
        if (!violation) continue;
        if (inside++ == 0)
          first = state_text(system, x) + " lies inside the contact '" + violation->contact +
                  "' (gap " + number_text(violation->gap) + " at t = " + number_text(o.phase) + ")";
      }
    if (inside > 0)
      throw libcont::InputError("--x " + x_text_ + ", --y " + y_text_ + ": " +
                                std::to_string(inside) + " of the " +
                                std::to_string(o.x.steps * o.y.steps) +
                                " initial states lie inside an obstacle; the first, " + first +
                                "; choose a grid outside it");
  }

 private:
  std::string x_text_, y_text_;
  int transient_ = 500, max_period_ = 16, settle_periods_ = 10000, threads_ = 1;
  IntegratorChoice integrator_;
};

}  // namespace

std::unique_ptr<Command> make_basins_command(CLI::App& vicont) {
  return std::make_unique<BasinsCommand>(vicont);
}

}  // namespace vicont
