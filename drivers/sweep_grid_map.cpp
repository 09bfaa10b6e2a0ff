#include "sweep_grid_map.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

#include "atomic_file.hpp"
#include "output.hpp"

namespace vicont {

namespace {

std::string z_text(int p, int n) { return std::to_string(p) + '/' + std::to_string(n); }

// The first cells of the layers that follow each other in `cells`.
std::vector<GridLayer> layers_of(const std::vector<const libcont::SweepPoint*>& cells) {
  std::vector<GridLayer> layers;
  for (size_t i = 0; i < cells.size(); ++i) {
    const auto& key = cells[i]->key;
    if (layers.empty() || layers.back().pass != key.pass ||
        layers.back().initial_condition != key.initial_condition)
      layers.push_back({key.pass, key.initial_condition, static_cast<long>(i), 0});
    ++layers.back().cells;
  }
  return layers;
}

}  // namespace

GridMap grid_map(const std::vector<libcont::SweepPoint>& points) {
  GridMap map;
  for (const auto& point : points) map.cells.push_back(&point);
  // Map order, independent of the order the points came in (plan order runs a down pass
  // from the top of each row).
  std::stable_sort(map.cells.begin(), map.cells.end(), [](const auto* a, const auto* b) {
    return std::make_tuple(static_cast<int>(a->key.pass), a->key.initial_condition,
                           a->key.second_index, a->key.index) <
           std::make_tuple(static_cast<int>(b->key.pass), b->key.initial_condition,
                           b->key.second_index, b->key.index);
  });
  map.layers = layers_of(map.cells);

  // Periodic z by n, then p, with their cell counts.
  std::map<std::pair<int, int>, long> periodic;
  long regimes[4] = {0, 0, 0, 0};  // by SweepRegime
  std::vector<double> sizes;  // |lambda_1| of the cells with a finite one
  double largest_positive = 0.0;
  for (const auto* cell : map.cells) {
    const auto regime = cell->regime();
    ++regimes[static_cast<int>(regime)];
    if (regime == libcont::SweepRegime::Periodic) ++periodic[{cell->n, cell->p}];
    const double exponent = cell->largest_exponent();
    if (std::isfinite(exponent)) sizes.push_back(std::abs(exponent));
    if (exponent > 0.0) largest_positive = std::max(largest_positive, exponent);
  }
  if (!sizes.empty()) {
    const auto at =
        sizes.begin() + static_cast<std::ptrdiff_t>(0.9 * static_cast<double>(sizes.size() - 1));
    std::nth_element(sizes.begin(), at, sizes.end());
    map.exponent_scale = std::max(*at, largest_positive);
    map.exponent_clipped = *std::max_element(sizes.begin(), sizes.end()) > map.exponent_scale;
  }
  // Too many z for the colours: the most frequent keep a class of their own (ties to the
  // smaller n, p), the rest share one.
  std::vector<std::pair<std::pair<int, int>, long>> by_count(periodic.begin(), periodic.end());
  std::stable_sort(by_count.begin(), by_count.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  const size_t own = by_count.size() > static_cast<size_t>(max_periodic_classes)
                         ? max_periodic_classes - 1
                         : by_count.size();
  std::map<std::pair<int, int>, int> class_of_z;  // (n, p) -> class; the others share one
  for (size_t i = 0; i < own; ++i) class_of_z[by_count[i].first] = 0;
  long other = 0;
  for (const auto& [z, cells] : periodic) {
    if (const auto it = class_of_z.find(z); it != class_of_z.end()) {
      it->second = static_cast<int>(map.classes.size());
      map.classes.push_back({libcont::SweepRegime::Periodic, z.second, z.first,
                             "z = " + z_text(z.second, z.first), cells});
    } else {
      other += cells;
    }
  }
  int class_of_regime[4] = {-1, -1, -1, -1};  // by SweepRegime; Periodic: the shared class
  if (other > 0) {
    class_of_regime[static_cast<int>(libcont::SweepRegime::Periodic)] =
        static_cast<int>(map.classes.size());
    map.classes.push_back({libcont::SweepRegime::Periodic, 0, 0, "z = other", other});
  }
  for (auto regime : {libcont::SweepRegime::Chaotic, libcont::SweepRegime::NonPeriodic,
                      libcont::SweepRegime::Failed})
    if (const long cells = regimes[static_cast<int>(regime)]; cells > 0) {
      class_of_regime[static_cast<int>(regime)] = static_cast<int>(map.classes.size());
      map.classes.push_back({regime, 0, 0, libcont::to_string(regime), cells});
    }

  for (const auto* cell : map.cells) {
    const auto regime = cell->regime();
    const auto own_z = regime == libcont::SweepRegime::Periodic
                           ? class_of_z.find({cell->n, cell->p})
                           : class_of_z.end();
    map.cell_class.push_back(own_z != class_of_z.end() ? own_z->second
                                                       : class_of_regime[static_cast<int>(regime)]);
  }
  return map;
}

void write_sweep_grid_csv(const std::filesystem::path& file, const libcont::SweepOptions& options,
                          const GridMap& map) {
  write_file_atomically(file, [&](std::ostream& out) {
    out << "direction,initial_condition,index,index2," << options.parameter << ','
        << options.second_parameter
        << ",status,regime,p,n,z,lambda_1,a_i,a_e,class,label\n";
    for (size_t i = 0; i < map.cells.size(); ++i) {
      const libcont::SweepPoint& c = *map.cells[i];
      const GridClass& k = map.classes[static_cast<size_t>(map.cell_class[i])];
      out << libcont::to_string(c.key.pass) << ',' << c.key.initial_condition << ','
          << c.key.index << ',' << c.key.second_index << ',' << number_text(c.parameter) << ','
          << number_text(c.second_parameter) << ',' << libcont::to_string(c.status) << ','
          << libcont::to_string(c.regime()) << ',' << c.p << ',' << c.n << ','
          << (c.n > 0 ? z_text(c.p, c.n) : "") << ',' << number_text(c.largest_exponent())
          << ',' << number_text(c.impacts_per_period) << ',' << number_text(c.energy_per_period)
          << ',' << map.cell_class[i] << ',' << k.label << '\n';
    }
  });
}

SweepMapPlot sweep_map_plot(const std::filesystem::path& directory, const std::string& cells_csv,
                            const libcont::SweepOptions& options, const GridMap& map,
                            std::string title) {
  SweepMapPlot plot;
  plot.directory = directory;
  plot.cells_csv = cells_csv;
  plot.first = options.parameter;
  plot.second = options.second_parameter;
  plot.columns = options.steps;
  plot.rows = options.second_steps;
  // The cell centres at the ends (a single value is `from`, as Sweep::parameter_value has it).
  const bool first_range = options.steps > 1, second_range = options.second_steps > 1;
  plot.first_low = first_range ? std::min(options.from, options.to) : options.from;
  plot.first_high = first_range ? std::max(options.from, options.to) : options.from;
  plot.second_low =
      second_range ? std::min(options.second_from, options.second_to) : options.second_from;
  plot.second_high =
      second_range ? std::max(options.second_from, options.second_to) : options.second_from;
  for (const auto& k : map.classes) plot.classes.push_back({k.regime, k.label});
  const int starts = std::max<int>(1, static_cast<int>(options.initial_states.size()));
  for (const auto& layer : map.layers) {
    std::string name;
    if (map.layers.size() > 1) {
      name = libcont::to_string(layer.pass);
      if (starts > 1) name += ", initial state " + std::to_string(layer.initial_condition + 1);
    }
    plot.layers.push_back({name, layer.first_cell, layer.cells});
  }
  plot.exponent_bound = map.exponent_scale;
  plot.exponent_clipped = map.exponent_clipped;
  plot.title = std::move(title);
  return plot;
}

}  // namespace vicont
