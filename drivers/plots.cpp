#include "plots.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <tuple>
#include <string_view>

#include "atomic_file.hpp"
#include "axis_labels.hpp"
#include "branch_drawing.hpp"
#include "cloud_raster.hpp"
#include "gnuplot_process.hpp"
#include "libcont/input_error.hpp"
#include "output.hpp"

namespace vicont {

namespace {

// A gnuplot string expression: single-quoted (no escapes, '' stands for one quote), with
// line breaks joined in as "\n" since only double quotes know escapes.
std::string quoted(const std::string& text) {
  std::string result = "'";
  for (char c : text) {
    if (c == '\'')
      result += "''";
    else if (c == '\n')
      result += "'.\"\\n\".'";
    else
      result += c;
  }
  return result + "'";
}

// The run's formats (set_figure_formats): one setting for the whole process, as every
// figure of a run is drawn alike.
std::vector<std::string>& formats_of_the_run() {
  static std::vector<std::string> formats;
  return formats;
}

// Common head of every script: terminal, output, CSV reading by column name. The terminal
// follows the variable `format` (png unless set), so that one script draws the figure in
// each format: `gnuplot NAME.gp` the PNG, `gnuplot -e "format='pdf'" NAME.gp` the PDF.
// `output` is a gnuplot string expression naming the file drawn.
std::string preamble(const std::string& output, int width, int height) {
  std::ostringstream s;
  s << "# Made by vicont; inside its directory 'gnuplot THIS.gp' redraws the PNG,\n"
    << "# 'gnuplot -e \"format='pdf'\" THIS.gp' the PDF (or 'svg' the SVG).\n"
    << "if (!exists('format')) format = 'png'\n"
    << "if (format eq 'pdf') {\n"
    << "  set terminal pdfcairo size " << width / 96.0 << "in," << height / 96.0
    << "in noenhanced font 'sans,10'\n"
    << "} else {\n"
    << "  if (format eq 'svg') {\n"
    << "    set terminal svg size " << width << ',' << height << " dynamic noenhanced font 'sans,10'\n"
    << "  } else {\n"
    << "    set terminal pngcairo size " << width << ',' << height << " noenhanced font 'sans,10'\n"
    << "  }\n"
    << "}\n"
    << "set output " << output << "\n"
    << "set datafile separator ','\n"
    << "set datafile columnheaders\n"
    << "set grid\n"
    // Outside the frame: a key inside would hide data wherever the curves happen to go.
    << "set key outside right top vertical\n";
  return s.str();
}

// The left and right edges of every panel of a figure of stacked panels (fractions of its
// width), so that their axes line up whatever the width of their tic labels; the key goes
// right of `right`.
std::string aligned_margins(double right) {
  std::ostringstream s;
  s << "set lmargin at screen 0.09\nset rmargin at screen " << right << "\n";
  return s.str();
}

// using-spec of the event rows only (grid samples become NaN, which gnuplot skips).
std::string event_rows(const std::string& column) {
  return "(strcol('event') eq " + quoted(grid_sample_marker) + " ? NaN : column(" + quoted(column) +
         "))";
}

// Whether a CSV has a row below its header. gnuplot takes a plot of no points for an
// error ("all points y value undefined"), yet a sweep without impacts is a result, not a
// failure: such a curve is left out and its panel says so.
bool has_rows(const std::filesystem::path& csv) {
  std::ifstream in(pending_files::current(csv));
  std::string line;
  return std::getline(in, line) && std::getline(in, line) && !line.empty();
}

// Ranges for data gnuplot cannot autoscale. gnuplot takes values beyond about 9e307 (and
// inf, nan) for undefined and fails a plot whose points are all undefined ("all points y
// value undefined!", "x range is invalid"), and cannot widen a constant range of a tiny
// value (5e-324: "y_min should not equal y_max!") nor label one of subnormal width. A run whose data are so is still a
// result: its figure is drawn on fixed ranges around the drawable points, a panel without
// any saying "no finite data within +-1e307". Data gnuplot copes with keep its own ranges.
constexpr double kDrawable = 1e307;   // |v| up to this is drawn, with room for tics
constexpr double kTinyValue = 1e-290;  // values below this are no range gnuplot can widen

// The drawable values of one axis: those of the points drawn (both coordinates
// drawable), and those drawable by themselves, which place the axis of a panel whose
// points are all undrawable (the time axis of a height of 1e308).
struct Extent {
  struct Span {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    long count = 0;
    void add(double v) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      ++count;
    }
    void add(const Span& other) {
      if (other.count == 0) return;
      lo = std::min(lo, other.lo);
      hi = std::max(hi, other.hi);
      count += other.count;
    }
    Span scaled(double factor) const {
      Span s;
      if (count == 0) return s;
      const double a = lo * factor, b = hi * factor;
      if (!drawable(a) || !drawable(b)) return s;
      s.lo = std::min(a, b);
      s.hi = std::max(a, b);
      s.count = count;
      return s;
    }
  };
  Span drawn;               // values of drawn points
  Span alone;               // values drawable by themselves
  bool undrawable = false;  // some value was not drawable
  static bool drawable(double v) { return std::isfinite(v) && std::abs(v) <= kDrawable; }
  long count() const { return drawn.count; }
  void add(const Extent& other) {
    drawn.add(other.drawn);
    alone.add(other.alone);
    undrawable = undrawable || other.undrawable;
  }
  // The extent of the values times `factor` (a plot in mm of data in m).
  Extent scaled(double factor) const {
    Extent e;
    e.drawn = drawn.scaled(factor);
    e.alone = alone.scaled(factor);
    e.undrawable = undrawable || e.drawn.count < drawn.count;
    return e;
  }
  // Whether gnuplot's autoscaling would fail (or draw past its limit).
  bool needs_range() const {
    if (drawn.count == 0 || undrawable) return true;
    const double size = std::max(std::abs(drawn.lo), std::abs(drawn.hi));
    return size > 0.0 && size < kTinyValue;
  }
  // A range around the drawable values; [-1, 1] without any.
  std::pair<double, double> bounds() const {
    double a = -1.0, b = 1.0;
    const Span& span = drawn.count > 0 ? drawn : alone;
    if (span.count > 0) {
      a = span.lo;
      b = span.hi;
      // A constant, or values all below kTinyValue (0 on any scale gnuplot can label).
      if (!(b - a > 0.0) || std::max(std::abs(a), std::abs(b)) < kTinyValue) {
        const double centre = span.lo / 2.0 + span.hi / 2.0;
        const double half = std::abs(centre) >= kTinyValue ? 0.01 * std::abs(centre) : 1.0;
        a = centre - half;
        b = centre + half;
      }
    }
    return {a, b};
  }
  // "set AXISrange [a:b]" of bounds().
  std::string range(const std::string& axis) const { return range_setting(axis, bounds()); }
  static std::string range_setting(const std::string& axis, std::pair<double, double> ends) {
    std::ostringstream s;
    s.precision(17);
    s << "set " << axis << "range [" << ends.first << ':' << ends.second << "]\n";
    return s.str();
  }
};

// A CSV field read as strtod reads it: the number it starts with (0 if none) and whether
// the number is the whole field. std::from_chars reads the numbers vicont writes
// (number_text) several times faster than strtod, to the same double (both round
// correctly); any other text (a name, a "+1") is left to strtod, as it always was.
struct FieldNumber {
  double value = 0.0;
  bool whole = false;
};
FieldNumber field_number(std::string_view text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc() && end == text.data() + text.size() && !text.empty())
    return {value, true};
  const std::string copy(text);
  char* stop = nullptr;
  value = std::strtod(copy.c_str(), &stop);
  return {value, !copy.empty() && stop == copy.c_str() + copy.size()};
}

// The extents of (x, y) column pairs of a CSV, over the rows where both are numbers; a
// value that is not drawable leaves its row out (gnuplot skips it too). Missing files and
// columns give empty extents.
struct PairExtent {
  Extent x, y;
  // A row whose x and y are numbers.
  void add(double x_value, double y_value) {
    const bool x_drawable = Extent::drawable(x_value), y_drawable = Extent::drawable(y_value);
    if (x_drawable && y_drawable) {
      x.drawn.add(x_value);
      y.drawn.add(y_value);
    }
    if (x_drawable) x.alone.add(x_value); else x.undrawable = true;
    if (y_drawable) y.alone.add(y_value); else y.undrawable = true;
  }
};
std::vector<PairExtent> pair_extents(const std::filesystem::path& csv,
                                     const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::vector<PairExtent> result(pairs.size());
  std::ifstream in(pending_files::current(csv));
  std::string line;
  if (!std::getline(in, line)) return result;
  const auto split = [](const std::string& text, std::vector<std::string_view>& cells) {
    cells.clear();
    size_t begin = 0;
    for (;;) {
      const size_t comma = text.find(',', begin);
      cells.emplace_back(text.data() + begin,
                         (comma == std::string::npos ? text.size() : comma) - begin);
      if (comma == std::string::npos) break;
      begin = comma + 1;
    }
  };
  std::vector<std::string_view> cells;
  split(line, cells);
  const std::vector<std::string> header(cells.begin(), cells.end());
  const auto index = [&](const std::string& name) {
    const auto found = std::find(header.begin(), header.end(), name);
    return found == header.end() ? -1L : static_cast<long>(found - header.begin());
  };
  std::vector<std::pair<long, long>> columns;
  for (const auto& [x, y] : pairs) columns.emplace_back(index(x), index(y));
  // A field's number; none for text (a mode, an event's name) or an empty field.
  const auto number = [](std::string_view text) -> std::optional<double> {
    const FieldNumber field = field_number(text);
    if (!field.whole) return std::nullopt;
    return field.value;
  };
  while (std::getline(in, line)) {
    split(line, cells);
    for (size_t k = 0; k < columns.size(); ++k) {
      const auto [cx, cy] = columns[k];
      if (cx < 0 || cy < 0 || static_cast<size_t>(std::max(cx, cy)) >= cells.size()) continue;
      const auto x = number(cells[static_cast<size_t>(cx)]);
      const auto y = number(cells[static_cast<size_t>(cy)]);
      if (x && y) result[k].add(*x, *y);
    }
  }
  return result;
}

// The settings of one panel's axes: a fixed range where gnuplot cannot autoscale (and a
// note in the panel when it has no drawable point), else `autoscale` (what the plot
// otherwise uses, e.g. "set autoscale xfix\n"). `after()` undoes the note once the panel
// is plotted.
struct PanelAxes {
  std::vector<std::pair<std::string, Extent>> axes;  // "x", "y", "y2" with their data
  std::string settings(const std::vector<std::string>& autoscale) const {
    std::string s;
    for (size_t i = 0; i < axes.size(); ++i) {
      const auto& [axis, extent] = axes[i];
      // A second axis with nothing on it is no trouble: gnuplot leaves it alone.
      const bool unused = axis == "y2" && extent.count() == 0 && !extent.undrawable;
      s += extent.needs_range() && !unused
               ? extent.range(axis)
               : (i < autoscale.size() ? autoscale[i] : std::string());
    }
    if (empty())
      s += "set label 99 'no finite data within +-1e307' at graph 0.5, 0.5 center front\n";
    return s;
  }
  std::string after() const { return empty() ? "unset label 99\n" : ""; }
  bool empty() const {
    for (const auto& [axis, extent] : axes)
      if (axis != "y2" && extent.count() == 0) return true;
    return false;
  }
};

// A directory of its own inside a plot's directory, holding the run's files that wait
// below that directory under their final names (hard links, copies where links fail);
// removed with all it holds when the plot is done. Without held files (no run holding
// them) it links what is in place.
class PrivateView {
 public:
  explicit PrivateView(const std::filesystem::path& directory) {
    static std::atomic<unsigned> counter{0};
    path_ = directory / (".plot-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::error_code error;
    std::filesystem::create_directory(path_, error);
    if (error)
      throw OutputError("could not create '" + path_.string() + "': " + error.message());
    auto files = pending_files::below(directory);
    if (!pending_files::held())
      for (const auto& entry : std::filesystem::directory_iterator(directory, error))
        if (entry.is_regular_file()) files.emplace_back(entry.path().filename(), entry.path());
    for (const auto& [relative, source] : files) {
      const auto link = path_ / relative;
      std::filesystem::create_directories(link.parent_path(), error);
      std::filesystem::create_hard_link(source, link, error);
      if (error) std::filesystem::copy_file(source, link, error);
    }
  }
  ~PrivateView() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  PrivateView(const PrivateView&) = delete;
  PrivateView& operator=(const PrivateView&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A plot's script, given the gnuplot expression of the file it draws.
using ScriptForOutput = std::function<std::string(const std::string& output)>;

// Runs `script_text` (whose output is `output`'s temporary file, named relative to a private
// directory beside `directory`) through gnuplot, and publishes `output` only when gnuplot
// reported no error: a failed plot never replaces a good one.
void run_gnuplot(const std::filesystem::path& directory, const std::filesystem::path& script_file,
                 const ScriptForOutput& script, const std::string& format, StagedFile& output) {
  StagedFile status(directory / (output.target_path().stem().string() + ".gnuplot-status"));
  // gnuplot reads the data by its final names, from a private directory where they are
  // this run's own files, still waiting to be published (pending_files.hpp).
  const PrivateView view(directory);
  {
    // gnuplot's chatter (warnings about flat ranges of a resting body, say) is dropped
    // (gnuplot_process.hpp); errors come back through the status file below.
    GnuplotProcess gnuplot;
    gnuplot.send("cd " + quoted(std::filesystem::absolute(view.path()).string()) + "\n" +
                 "format = " + quoted(format) + "\n" +
                 script(quoted("../" + output.temporary_path().filename().string())) +
                 "unset output\n"
                 // gnuplot goes on after an error and its exit status does not say which;
                 // GPVAL_ERRNO/ERRMSG do.
                 "set print " + quoted("../" + status.temporary_path().filename().string()) +
                 "\n" +
                 "print GPVAL_ERRNO\nprint GPVAL_ERRMSG\nunset print\n");
    gnuplot.finish();
  }
  int error_number = -1;
  std::string error_message =
      "gnuplot wrote no status: it is missing, lacks the cairo terminals, or crashed on the script";
  {
    std::ifstream in(status.temporary_path());
    if (in >> error_number) {
      in.ignore();
      std::getline(in, error_message);
    }
  }
  if (error_number != 0)
    throw OutputError("gnuplot failed on '" + script_file.string() + "': " + error_message);
  output.commit();
}

// Saves the script and draws it into `stem.FORMAT` for each format of figure_formats(); each
// file published only when gnuplot drew it without an error. With no format (the default,
// --format none) the script alone is saved and gnuplot is not started.
PlotFiles render(const std::filesystem::path& directory, const std::string& stem,
                 const ScriptForOutput& script) {
  const std::filesystem::path script_file = directory / (stem + ".gp");
  write_file_atomically(script_file,
                        [&](std::ostream& out) { out << script(quoted(stem + ".") + ".format"); });
  PlotFiles files{{}, script_file, {}, {}};
  for (const std::string& format : figure_formats()) {
    const std::filesystem::path path = directory / (stem + "." + format);
    StagedFile drawn(path);
    run_gnuplot(directory, files.script, script, format, drawn);
    if (format == "png")
      files.png = path;
    else
      files.others.push_back(path);
  }
  return files;
}

}  // namespace

std::vector<std::string> parse_figure_formats(const std::string& list) {
  if (list == "none") return {};
  std::vector<std::string> formats;
  std::stringstream words(list);
  for (std::string format; std::getline(words, format, ',');) {
    if (format != "png" && format != "pdf" && format != "svg")
      throw libcont::InputError("--format " + list + ": '" + format +
                                "' is no figure format (png, pdf, svg, separated by commas, "
                                "or none alone)");
    if (std::find(formats.begin(), formats.end(), format) == formats.end())
      formats.push_back(format);
  }
  // The PNG first, as PlotFiles and the files lists name it first.
  std::stable_partition(formats.begin(), formats.end(),
                        [](const std::string& format) { return format == "png"; });
  return formats;
}

void set_figure_formats(std::vector<std::string> formats) {
  formats_of_the_run() = std::move(formats);
}

const std::vector<std::string>& figure_formats() { return formats_of_the_run(); }

std::string figure_file_names(const std::string& stem) {
  std::string names;
  for (const std::string& format : figure_formats()) names += stem + "." + format + ", ";
  return names + stem + ".gp";
}

namespace {

// Rows of a trajectory drawn at most: gnuplot spends about a millisecond per thousand
// points and panel, so a chattering run's million events would take minutes to draw.
constexpr long kMostDrawnRows = 100'000;

// " every K " for a CSV of more than kMostDrawnRows rows (K so that at most that many are
// drawn), with a note on the plot saying so; empty text for a smaller file.
struct Thinning {
  std::string every;  // inserted between a plot's file name and its using
  std::string note;   // a gnuplot label command, or empty
};
Thinning thinning(const std::filesystem::path& csv) {
  std::ifstream in(pending_files::current(csv), std::ios::binary);
  long rows = -1;  // the header is no row
  for (std::string line; std::getline(in, line);) ++rows;
  if (rows <= kMostDrawnRows) return {};
  const long step = (rows + kMostDrawnRows - 1) / kMostDrawnRows;
  return {" every " + std::to_string(step),
          "set label " + quoted("every " + std::to_string(step) + "th of " +
                                std::to_string(rows) + " rows drawn (all in the CSV)") +
              " at screen 0.01, screen 0.99 left font 'sans,9' tc rgb '#c0392b'\n"};
}

}  // namespace

PlotFiles plot_time_series(const TrajectoryPlot& plot, const std::string& stem) {
  return render(plot.directory, stem, [&](const std::string& output) {
    // One panel per variable up to kMaxPanels; beyond that (a chain of a hundred bodies)
    // consecutive variables share a panel, so the PNG stays within cairo's size limit
    // and readable. Events are marked on the first curve of each panel.
    constexpr size_t kMaxPanels = 12;
    const size_t variables = plot.state_names.size();
    const size_t per_panel = (variables + kMaxPanels - 1) / kMaxPanels;
    const int panels = static_cast<int>((variables + per_panel - 1) / per_panel);
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& name : plot.state_names) pairs.emplace_back("t", name);
    const auto extents = pair_extents(plot.directory / plot.csv, pairs);
    const Thinning thin = thinning(plot.directory / plot.csv);
    std::ostringstream s;
    s << preamble(output, 1000, 300 * panels + 60) << thin.note << "set multiplot layout "
      << panels << ",1 title " << quoted(plot.title) << " font 'sans,12'\n"
      << aligned_margins(0.86);
    for (int i = 0; i < panels; ++i) {
      const size_t first = static_cast<size_t>(i) * per_panel;
      const size_t last = std::min(first + per_panel, variables) - 1;
      PanelAxes axes{{{"x", {}}, {"y", {}}}};
      for (size_t v = first; v <= last; ++v) {
        axes.axes[0].second.add(extents[v].x);
        axes.axes[1].second.add(extents[v].y);
      }
      // The time axis spans the run, not the next round number (xfix).
      s << axes.settings({"set autoscale xfix\n", "set autoscale y\n"});
      const std::string& name = plot.state_names[first];
      const std::string label =
          first == last ? axis_label(name) : name + " ... " + plot.state_names[last];
      // Only the bottom panel carries the time axis label, as the panels share it.
      s << (i + 1 == panels ? "set xlabel " + quoted(axis_label("t")) + "\n"
                            : std::string("unset xlabel\n"))
        << "set ylabel "
        << quoted(label) << "\n"
        << "plot ";
      for (size_t v = first; v <= last; ++v)
        s << (v == first ? "" : ", \\\n     ") << quoted(plot.csv) << thin.every << " using 't':"
          << quoted(plot.state_names[v]) << " with lines lw 1.2"
          << (first == last ? " lc rgb '#1f4e9a'" : "") << " title "
          << quoted(plot.state_names[v]);
      s << ", \\\n     ''" << thin.every << " using 't':" << event_rows(name)
        << " with points pt 7 ps 0.5 lc rgb '#c0392b' title 'events'\n"
        << axes.after();
    }
    s << "unset multiplot\n";
    return s.str();
  });
}

PlotFiles plot_phase_portrait(const TrajectoryPlot& plot, const std::string& stem,
                              const std::string& poincare_csv) {
  return render(plot.directory, stem, [&](const std::string& output) {
    const std::string& horizontal = plot.state_names.at(0);
    const std::string& vertical = plot.state_names.at(1);
    PanelAxes axes{{{"x", {}}, {"y", {}}}};
    auto add = [&](const std::filesystem::path& csv) {
      const PairExtent e = pair_extents(csv, {{horizontal, vertical}}).front();
      axes.axes[0].second.add(e.x);
      axes.axes[1].second.add(e.y);
    };
    add(plot.directory / plot.csv);
    if (!poincare_csv.empty()) add(plot.directory / poincare_csv);
    const Thinning thin = thinning(plot.directory / plot.csv);
    std::ostringstream s;
    s << preamble(output, 900, 700) << thin.note << "set title " << quoted(plot.title)
      << " font 'sans,12'\n"
      << "set xlabel " << quoted(axis_label(horizontal)) << "\n"
      << "set ylabel " << quoted(axis_label(vertical)) << "\n"
      << axes.settings({})
      // A margin of 2 % each side before the axes reach their tics: markers on the extreme
      // values (the samples' circles are some 12 pixels wide) are not cut by the border.
      << "set offsets graph 0.02, graph 0.02, graph 0.02, graph 0.02\n"
      << "plot " << quoted(plot.csv) << thin.every << " using " << quoted(horizontal) << ':'
      << quoted(vertical) << " with lines lw 1.2 lc rgb '#1f4e9a' title 'trajectory', \\\n"
      << "     ''" << thin.every << " using " << quoted(horizontal) << ':' << event_rows(vertical)
      << " with points pt 7 ps 0.5 lc rgb '#c0392b' title 'events'";
    if (!poincare_csv.empty())
      s << ", \\\n     " << quoted(poincare_csv) << " using " << quoted(horizontal) << ':'
        << quoted(vertical) << " with points pt 6 ps 1.2 lc rgb '#27ae60' title 'Poincare samples'";
    s << "\n";
    return s.str();
  });
}

namespace {

// Columns of a CSV file written by branch_output.cpp, by name: their text per row. Missing
// files and columns give none (the plot then has nothing to label).
std::vector<std::vector<std::string>> csv_columns(const std::filesystem::path& file,
                                                  const std::vector<std::string>& names) {
  std::vector<std::vector<std::string>> columns(names.size());
  // The run's own file while it waits to be published (pending_files.hpp): under its
  // final name there is nothing yet, or an earlier run's.
  std::ifstream in(pending_files::current(file));
  std::string line;
  if (!std::getline(in, line)) return columns;
  const auto split = [](const std::string& text) {
    std::vector<std::string> cells;
    std::stringstream row(text);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    return cells;
  };
  const std::vector<std::string> header = split(line);
  std::vector<long> index;
  for (const auto& name : names) {
    const auto found = std::find(header.begin(), header.end(), name);
    if (found == header.end()) return columns;
    index.push_back(found - header.begin());
  }
  while (std::getline(in, line)) {
    const auto cells = split(line);
    for (size_t c = 0; c < names.size(); ++c)
      columns[c].push_back(static_cast<size_t>(index[c]) < cells.size()
                               ? cells[static_cast<size_t>(index[c])]
                               : std::string("nan"));
  }
  return columns;
}

double number_or_nan(const std::string& text) {
  try {
    size_t used = 0;
    const double value = std::stod(text, &used);
    return used == text.size() ? value : std::nan("");
  } catch (const std::exception&) {
    return std::nan("");
  }
}

}  // namespace

namespace {

// The right edge of the panels (a fraction of the figure's width) that leaves room for a
// key outside right whose longest title has `characters` characters (10 point sans: some
// 6.5 pixels each, and the sample beside it), within [0.55, 0.8].
double right_edge_for_key(size_t characters, int figure_width) {
  const double key = 6.5 * static_cast<double>(characters) + 70.0;
  return std::clamp(1.0 - key / figure_width, 0.55, 0.8);
}

// A special point of a diagram: where it lies, its name in the key, its colour.
struct SpecialPoint {
  double x = 0, y = 0;
  std::string legend;  // e.g. "LP2  lambda = 0.56700311"
  std::string colour;
};

// The special points of one panel as numbered circles: the number of each (its place in
// `points`, from 1) stands in a row above the panel, joined to its point by a thin line,
// the numbers spread along the row so that none overlaps another however close the points
// lie (five within a thousandth of the range, say); the key, when `keyed`, names each
// number. Only the points within [x_lo, x_hi] (the panel's x range, which the settings
// fix) are drawn.
struct NumberedMarkers {
  std::string settings;  // before the plot command
  std::string keys;      // key entries appended to the plot command (", keyentry ...")
  std::string after;     // after the plot command
};
// The height of each of a branch figure's panels, in pixels (its figure is this many per
// panel, and 60 for the title).
constexpr int kBranchPanelHeight = 440;

// How many numbered points a key beside a panel `panel_height` pixels high (margins
// included) has room for, with `other_entries` entries of its own and the line that refers
// to the CSV for the rest: a row of 10 point sans takes some 16 pixels of the panel's
// height, less its margins of about 70. A longer key would spill into the panel in a second
// column.
size_t keyed_points_beside(int panel_height, size_t other_entries) {
  const size_t rows = static_cast<size_t>(std::max(0, panel_height - 70) / 16);
  return rows > other_entries + 1 ? rows - other_entries - 1 : 0;
}

// At most `keyed_limit` points are named in the key: more would not fit beside the panel.
NumberedMarkers numbered_markers(const std::vector<SpecialPoint>& points, double x_lo,
                                 double x_hi, bool keyed, size_t keyed_limit = 30) {
  NumberedMarkers m;
  std::ostringstream s;
  s.precision(17);
  s << "set xrange [" << x_lo << ':' << x_hi << "]\n";
  std::vector<std::pair<double, size_t>> along;  // (fraction of the x range, index)
  for (size_t k = 0; k < points.size(); ++k) {
    const double f = (points[k].x - x_lo) / (x_hi - x_lo);
    if (std::isfinite(f) && std::isfinite(points[k].y) && f >= 0.0 && f <= 1.0)
      along.emplace_back(f, k);
  }
  std::sort(along.begin(), along.end());
  // A number's width as a fraction of the panel's width (some 470 pixels at the figures'
  // widths; a two-digit number in 8 point sans takes about 14): the slots of the row.
  const double width = std::min(0.032, 0.98 / std::max<double>(1.0, along.size()));
  const int font = width >= 0.03 ? 8 : 6;
  std::vector<double> slot(along.size());
  for (size_t i = 0; i < along.size(); ++i)
    slot[i] = std::max(i ? slot[i - 1] + width : width / 2, along[i].first);
  for (size_t i = along.size(); i-- > 0;)
    slot[i] = std::min(slot[i], i + 1 < along.size() ? slot[i + 1] - width : 1.0 - width / 2);
  for (size_t i = 0; i < along.size(); ++i) {
    const SpecialPoint& p = points[along[i].second];
    const int tag = 1000 + static_cast<int>(along[i].second);
    s << "set arrow " << tag << " from first " << p.x << ", first " << p.y << " to graph "
      << slot[i] << ", graph 1 nohead lw 0.6 lc rgb '#9a9a9a' back\n"
      << "set label " << tag << ' ' << quoted(std::to_string(along[i].second + 1)) << " at graph "
      << slot[i] << ", graph 1 center offset 0,0.7 font 'sans," << font << "' tc rgb "
      << quoted(p.colour) << " front\n"
      << "set label " << tag + 1000 << " '' at first " << p.x << ", first " << p.y
      << " point pt 6 ps 1.3 lw 1.5 lc rgb " << quoted(p.colour) << " front\n";
  }
  m.settings = s.str();
  if (!along.empty()) m.after = "unset arrow\nunset label\n";
  if (keyed) {
    for (size_t k = 0; k < points.size() && k < keyed_limit; ++k)
      m.keys += ", \\\n     keyentry with points pt 6 ps 1.0 lc rgb " + quoted(points[k].colour) +
                " title " + quoted(std::to_string(k + 1) + "  " + points[k].legend);
    if (points.size() > keyed_limit)
      m.keys += ", \\\n     keyentry with points pt 0 lc rgb 'white' title " +
                quoted(std::to_string(keyed_limit + 1) + " to " + std::to_string(points.size()) +
                       ": see the special points' CSV");
  }
  return m;
}

// The x interval of the tightest cluster of special points, where their circles would
// crowd each other (neighbours closer than 2% of `x_hi - x_lo`) and which holds the most
// points (at least two), widened so that the cluster fills the middle of a panel; none when
// the points lie apart.
std::optional<std::pair<double, double>> cluster_of(std::vector<double> xs, double x_lo,
                                                    double x_hi) {
  std::sort(xs.begin(), xs.end());
  const double near = 0.02 * (x_hi - x_lo);
  size_t best_first = 0, best_count = 1;
  for (size_t first = 0; first < xs.size();) {
    size_t last = first;
    while (last + 1 < xs.size() && xs[last + 1] - xs[last] < near) ++last;
    if (last - first + 1 > best_count) {
      best_first = first;
      best_count = last - first + 1;
    }
    first = last + 1;
  }
  if (best_count < 2 || !(near > 0.0)) return std::nullopt;
  const double lo = xs[best_first], hi = xs[best_first + best_count - 1];
  // A cluster of coincident points still gets a zoom of some width: 1% of the range.
  const double pad = std::max(0.5 * (hi - lo), 0.005 * (x_hi - x_lo));
  return std::make_pair(lo - pad, hi + pad);
}

// The x range a panel's numbered markers lay their row over: the drawn values' extent
// widened by `margin` times its width each side (by 1 % of the value, or 1e-12 at 0, where
// all share one value); none where the values need a fixed range (Extent::needs_range).
std::optional<std::pair<double, double>> marker_range(const Extent& x, double margin) {
  if (x.needs_range()) return std::nullopt;
  const double width = x.drawn.hi - x.drawn.lo;
  const double pad = width > 0.0 ? margin * width : std::max(0.01 * std::abs(x.drawn.lo), 1e-12);
  return std::make_pair(x.drawn.lo - pad, x.drawn.hi + pad);
}

// "set yrange [a:b]" around the finite values (with a margin of 8% below and `headroom`
// times their spread above); "set autoscale y" without any.
std::string y_range_of(const std::vector<double>& ys, double headroom = 0.08) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const double y : ys)
    if (std::isfinite(y)) {
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    }
  if (!(hi >= lo)) return "set autoscale y\n";
  const double width = hi - lo, flat = std::max(1e-3 * std::abs(lo), 1e-12);
  std::ostringstream s;
  s.precision(17);
  s << "set yrange [" << lo - (width > 0.0 ? 0.08 * width : flat) << ':'
    << hi + (width > 0.0 ? headroom * width : flat) << "]\n";
  return s.str();
}

// A value in 6 significant digits, which tell apart special points a thousandth of the
// range apart; `digits` more where that is not enough (distinct_numbers).
std::string short_number(double value, int digits = 6) {
  std::ostringstream s;
  s.precision(digits);
  s << value;
  return s.str();
}

// Each value in as few significant digits (6 at least, 10 at most) as tell it apart from
// every other value: of five special points within 1e-6 of each other each gets 8 or 9,
// the others keep 6. Values within 1e-8 of each other (relative: one point seen from two
// branches) count as one.
std::vector<std::string> distinct_numbers(const std::vector<double>& values) {
  std::vector<std::string> texts;
  for (size_t i = 0; i < values.size(); ++i) {
    int digits = 6;
    for (; digits < 10; ++digits) {
      const std::string text = short_number(values[i], digits);
      bool apart = true;
      for (size_t j = 0; j < values.size() && apart; ++j)
        apart = j == i ||
                std::abs(values[i] - values[j]) <=
                    1e-8 * std::max(std::abs(values[i]), std::abs(values[j])) ||
                text != short_number(values[j], digits);
      if (apart) break;
    }
    texts.push_back(short_number(values[i], digits));
  }
  return texts;
}

// A row index from a CSV cell (-1 where it holds none).
long row_index(const std::string& cell) {
  const double index = number_or_nan(cell);
  return std::isfinite(index) ? std::lround(index) : -1;
}

// Lines as a data block of a script, NAME << EOD ... EOD, after a comment naming what
// they are: a header line (the figures' data files have one), then each line's vertices
// "x,y", the lines apart by a blank line.
std::string line_block(const std::string& name, const std::string& comment,
                       const std::vector<Polyline>& lines) {
  std::string block = "# " + comment + "\n" + name + " << EOD\nx,y\n";
  for (const auto& line : lines) {
    for (const auto& [vx, vy] : line) block += number_text(vx) + ',' + number_text(vy) + '\n';
    block += '\n';
  }
  return block + "EOD\n";
}

}  // namespace

PlotFiles plot_branch(const BranchPlot& plot, const std::string& stem) {
  return render(plot.directory, stem, [&](const std::string& output) {
    // The parent's stable and unstable colours, then one colour per other branch.
    const char* colours[] = {"#27ae60", "#8e44ad", "#d35400", "#16a085", "#b7950b", "#7f8c8d"};
    const auto colour_of = [&](size_t b, bool stable) -> std::string {
      if (b == 0) return stable ? "#1f4e9a" : "#c0392b";
      return colours[(b - 1) % 6];
    };
    const bool several = plot.branches.size() > 1;
    const std::string x = quoted(plot.parameter);
    // Each panel's data: the branches' rows and the special points, all branches' points
    // numbered in one sequence (the parent's first) alike in every panel.
    struct Panel {
      std::string column;
      std::vector<double> xs, ys;  // every branch's rows
      std::vector<SpecialPoint> points;
      std::vector<BranchDrawing> drawings;  // each branch's lines
      PanelAxes axes;
      std::optional<std::pair<double, double>> zoom;
    };
    std::vector<Panel> panels;
    for (const auto& column : plot.amplitude_columns) {
      Panel panel{column, {}, {}, {}, {}, PanelAxes{{{"x", {}}, {"y", {}}}}, std::nullopt};
      for (size_t b = 0; b < plot.branches.size(); ++b) {
        const auto rows = csv_columns(plot.directory / plot.branches[b].branch_csv,
                                      {plot.parameter, column, "stable"});
        std::vector<DrawnRow> drawn_rows;
        for (size_t r = 0; r < rows[0].size(); ++r) {
          panel.xs.push_back(number_or_nan(rows[0][r]));
          panel.ys.push_back(number_or_nan(rows[1][r]));
          drawn_rows.push_back({panel.xs.back(), panel.ys.back(), rows[2][r] == "1"});
        }
        const auto specials = csv_columns(plot.directory / plot.branches[b].specials_csv,
                                          {plot.parameter, column, "label", "after_point"});
        std::vector<DrawnSpecialPoint> drawn_points;
        for (size_t r = 0; r < specials[0].size(); ++r) {
          const double px = number_or_nan(specials[0][r]);
          panel.points.push_back(
              {px, number_or_nan(specials[1][r]),
               (several ? plot.branches[b].name + ": " : std::string()) + specials[2][r] + "  " +
                   plot.parameter + " = ",  // the value follows, in digits that tell it apart
               b == 0 ? std::string("black") : colours[(b - 1) % 6]});
          drawn_points.push_back({px, panel.points.back().y, row_index(specials[3][r])});
        }
        panel.drawings.push_back(branch_drawing(drawn_rows, drawn_points));
        for (const auto& csv : {plot.branches[b].branch_csv, plot.branches[b].specials_csv}) {
          const PairExtent e = pair_extents(plot.directory / csv, {{plot.parameter, column}}).front();
          panel.axes.axes[0].second.add(e.x);
          panel.axes.axes[1].second.add(e.y);
        }
      }
      std::vector<double> values;
      for (const auto& p : panel.points) values.push_back(p.x);
      const auto texts = distinct_numbers(values);
      for (size_t k = 0; k < panel.points.size(); ++k) panel.points[k].legend += texts[k];
      const Extent& ex = panel.axes.axes[0].second;
      if (!ex.needs_range() && ex.drawn.hi > ex.drawn.lo) {
        std::vector<double> at;
        for (const auto& p : panel.points) at.push_back(p.x);
        panel.zoom = cluster_of(at, ex.drawn.lo, ex.drawn.hi);
      }
      panels.push_back(std::move(panel));
    }
    int rows = 0;
    for (const auto& panel : panels) rows += panel.zoom ? 2 : 1;
    // The key's longest title: a branch's curve or a numbered point (numbers from the
    // first panel: the key is drawn there).
    size_t longest = 0;
    for (const auto& branch : plot.branches)
      longest = std::max(longest, (several ? branch.name + ", unstable" : std::string("unstable")).size());
    if (!panels.empty())
      for (size_t k = 0; k < panels.front().points.size(); ++k)
        longest = std::max(longest, std::to_string(k + 1).size() + 2 +
                                        panels.front().points[k].legend.size());
    std::ostringstream s;
    s.precision(17);
    s << preamble(output, 1100, kBranchPanelHeight * rows + 60) << "set multiplot layout " << rows
      << ",1 title " << quoted(plot.title) << " font 'sans,12'\n"
      << aligned_margins(right_edge_for_key(longest, 1100)) << "set tmargin 2.5\n";
    // Each branch's solid and dashed lines (branch_drawing.hpp) as data blocks of the
    // script, written once per panel before the plots that draw them (the panel and its
    // zoom): the rows with the special points between them, which branch.csv alone does
    // not join. Their names by branch, solid then dashed; empty where a style has no line.
    using BlockNames = std::vector<std::array<std::string, 2>>;
    const auto line_blocks = [&](const Panel& panel) {
      BlockNames names(plot.branches.size());
      for (size_t b = 0; b < plot.branches.size(); ++b)
        for (const bool stable : {true, false}) {
          const auto& lines = stable ? panel.drawings[b].stable : panel.drawings[b].unstable;
          if (lines.empty()) continue;
          std::string& name = names[b][stable ? 0 : 1];
          name = "$branch_" + std::to_string(b) + (stable ? "_stable" : "_unstable");
          s << line_block(name,
                          std::string(stable ? "stable" : "unstable") + " lines of " +
                              plot.branches[b].branch_csv + " through the points of " +
                              plot.branches[b].specials_csv,
                          lines);
        }
      return names;
    };
    // One plot of the branches' lines over the panel's x range, `markers` on it.
    const auto draw = [&](const BlockNames& blocks, const NumberedMarkers& markers, bool keyed) {
      s << markers.settings << "plot ";
      bool first = true;
      for (size_t b = 0; b < plot.branches.size(); ++b)
        for (const bool stable : {true, false}) {
          const BranchCurve& branch = plot.branches[b];
          const std::string stability = stable ? "stable" : "unstable";
          const std::string& block = blocks[b][stable ? 0 : 1];
          // A style with no line still has its entry in the key (none in an unkeyed plot).
          if (block.empty() && !keyed) continue;
          s << (first ? "" : ", \\\n     ")
            << (block.empty() ? std::string("keyentry") : block + " using 1:2")
            << " with lines lw 1.6" << (stable ? "" : " dt 2") << " lc rgb '"
            << colour_of(b, stable) << "' "
            << (keyed ? "title " + quoted(several ? branch.name + ", " + stability : stability)
                      : std::string("notitle"));
          first = false;
        }
      if (first) s << "NaN notitle";  // no line at all: the markers' items follow a comma
      s << markers.keys << "\n" << markers.after;
    };
    for (size_t i = 0; i < panels.size(); ++i) {
      const Panel& panel = panels[i];
      const bool last = i + 1 == panels.size() && !panel.zoom;
      const Extent& ex = panel.axes.axes[0].second;
      s << panel.axes.settings({"set autoscale x\n", "set autoscale y\n"})
        << (last ? "set xlabel " + quoted(axis_label(plot.parameter)) + "\n"
                 : std::string("unset xlabel\n"))
        << "set ylabel " << quoted(axis_label(panel.column)) << "\n";
      const auto range = marker_range(ex, 0.02);
      const NumberedMarkers markers =
          range ? numbered_markers(panel.points, range->first, range->second, i == 0,
                                   keyed_points_beside(kBranchPanelHeight, 2 * plot.branches.size()))
                : NumberedMarkers{};
      if (panel.zoom)
        s << "set object 1 rectangle from first " << panel.zoom->first << ", graph 0 to first "
          << panel.zoom->second << ", graph 1 behind fc rgb '#ececec' fs solid 1.0 noborder\n";
      const BlockNames blocks = line_blocks(panel);
      draw(blocks, markers, i == 0);
      s << (panel.zoom ? "unset object 1\n" : "") << panel.axes.after();
      if (panel.zoom) {
        // The zoom on the cluster (shaded above): its branches' rows and points set its
        // y range.
        const auto [lo, hi] = *panel.zoom;
        std::vector<double> ys;
        for (size_t r = 0; r < panel.xs.size(); ++r)
          if (panel.xs[r] >= lo && panel.xs[r] <= hi) ys.push_back(panel.ys[r]);
        for (const auto& p : panel.points)
          if (p.x >= lo && p.x <= hi) ys.push_back(p.y);
        s << (i + 1 == panels.size() ? "set xlabel " + quoted(axis_label(plot.parameter)) + "\n"
                                     : std::string("unset xlabel\n"))
          << y_range_of(ys)
          << "set label 2 'zoom on the shaded interval above' at graph 0.01, graph 0.96 left "
             "font 'sans,9' tc rgb '#555555'\n";
        draw(blocks, numbered_markers(panel.points, lo, hi, false), false);
        s << "unset label 2\nset autoscale y\n";
      }
    }
    s << "unset multiplot\n";
    return s.str();
  });
}

PlotFiles plot_curve_plane(const CurvePlanePlot& plot, const std::string& stem) {
  return render(plot.directory, stem, [&](const std::string& output) {
    const std::string x = quoted(plot.first), y = quoted(plot.second);
    PanelAxes axes{{{"x", {}}, {"y", {}}}};
    for (const auto& csv : {plot.curve_csv, plot.points_csv}) {
      const PairExtent e = pair_extents(plot.directory / csv, {{plot.first, plot.second}}).front();
      axes.axes[0].second.add(e.x);
      axes.axes[1].second.add(e.y);
    }
    // The codimension-two points as numbered markers over the curve's x range with a margin
    // (1 % of its value each side where the curve keeps p1 constant).
    const auto rows = csv_columns(plot.directory / plot.curve_csv, {plot.first, plot.second});
    const auto labels = csv_columns(plot.directory / plot.points_csv,
                                    {plot.first, plot.second, "label", "after_row"});
    std::vector<double> firsts, seconds;
    for (size_t r = 0; r < labels[0].size(); ++r) {
      firsts.push_back(number_or_nan(labels[0][r]));
      seconds.push_back(number_or_nan(labels[1][r]));
    }
    // The curve's line through its rows with its points as vertices (a turning point
    // located between two rows is the tip of the drawn curve, not cut off).
    std::vector<DrawnRow> drawn_rows;
    for (size_t r = 0; r < rows[0].size(); ++r)
      drawn_rows.push_back({number_or_nan(rows[0][r]), number_or_nan(rows[1][r]), true});
    std::vector<DrawnSpecialPoint> drawn_points;
    for (size_t r = 0; r < labels[0].size(); ++r)
      drawn_points.push_back({firsts[r], seconds[r], row_index(labels[3][r])});
    const std::vector<Polyline> curve_lines = branch_drawing(drawn_rows, drawn_points).stable;
    const auto first_texts = distinct_numbers(firsts), second_texts = distinct_numbers(seconds);
    std::vector<SpecialPoint> points;
    for (size_t r = 0; r < labels[0].size(); ++r)
      points.push_back({firsts[r], seconds[r],
                        labels[2][r] + "  (" + plot.first + ", " + plot.second + ") = (" +
                            first_texts[r] + ", " + second_texts[r] + ")",
                        "#c0392b"});
    const Extent& ex = axes.axes[0].second;
    const auto range = marker_range(ex, 0.04);
    const NumberedMarkers markers =
        range ? numbered_markers(points, range->first, range->second, true) : NumberedMarkers{};
    std::ostringstream s;
    s.precision(17);
    s << preamble(output, 1000, 700) << "set title " << quoted(plot.title) << " font 'sans,12' offset 0,1\n"
      << "set xlabel " << quoted(axis_label(plot.first)) << "\nset ylabel "
      << quoted(axis_label(plot.second)) << "\n"
      << axes.settings({"set autoscale x\n", "set autoscale y\n"})
      // The key below: its entries are long, and beside the plane they would narrow it.
      // One line of height more: without it the key touches the x axis label.
      << "set offsets 0, 0, graph 0.06, graph 0.06\nset tmargin 4\n"
      << "set key outside below center vertical maxrows 4 height 1\n" << markers.settings;
    if (!rows[0].empty() && std::isfinite(number_or_nan(rows[0][0])) &&
        std::isfinite(number_or_nan(rows[1][0])))
      s << "set label " << quoted(plot.start_label) << " at first " << number_or_nan(rows[0][0])
        << ", first " << number_or_nan(rows[1][0])
        << " right offset -1,0.8 font 'sans,10' tc rgb 'black' front\n";
    if (!curve_lines.empty())
      s << line_block("$curve", "the line of " + plot.curve_csv + " through the points of " +
                                    plot.points_csv,
                      curve_lines);
    // The line and the rows' dots apart (the points are vertices of the line, not rows);
    // the key shows them as one entry.
    s << "plot keyentry with linespoints lw 1.6 pt 7 ps 0.45 lc rgb '#1f4e9a' title 'curve (rows)', \\\n";
    if (!curve_lines.empty())
      s << "     $curve using 1:2 with lines lw 1.6 lc rgb '#1f4e9a' notitle, \\\n";
    s << "     " << quoted(plot.curve_csv) << " using " << x << ':' << y
      << " with points pt 7 ps 0.45 lc rgb '#1f4e9a' notitle, \\\n"
      << "     '' every ::0::0 using " << x << ':' << y
      << " with points pt 6 ps 2.2 lw 1.5 lc rgb 'black' title " << quoted("start: " + plot.start_label)
      << markers.keys << "\n" << markers.after << axes.after();
    return s.str();
  });
}

PlotFiles plot_parameter_plane(const ParameterPlanePlot& plot, const std::string& stem) {
  return render(plot.directory, stem, [&](const std::string& output) {
    const std::string x = quoted(plot.first), y = quoted(plot.second);
    const std::string from = quoted(plot.first + "_from"), to = quoted(plot.first + "_to");
    std::ostringstream s;
    s.precision(17);
    s << preamble(output, 1100, 780) << "set title " << quoted(plot.title) << " font 'sans,12'\n"
      << "set xlabel " << quoted(axis_label(plot.first)) << "\nset ylabel "
      << quoted(axis_label(plot.second)) << "\n"
      << "set xrange [" << plot.first_min << ':' << plot.first_max << "]\n"
      << "set yrange [" << plot.second_min << ':' << plot.second_max << "]\n"
      << "set key outside right top vertical\n";
    std::vector<std::string> layers;
    if (has_rows(plot.directory / plot.stable_csv))
      layers.push_back(quoted(plot.stable_csv) + " using " + from + ':' + y + ":(column(" + to +
                       ")-column(" + from + ")):(0) with vectors nohead lw 7 lc rgb '#d5dde8' "
                       "title 'stable z = p/n on a seed line', \\\n     '' using ((column(" +
                       from + ")+column(" + to + "))/2):" + y +
                       ":'z' with labels offset 0,0.8 font 'sans,8' tc rgb '#4a5a70' notitle");
    const std::pair<const char*, const char*> kinds[] = {{"fold", "#1f4e9a"},
                                                         {"period-doubling", "#c0392b"},
                                                         {"neimark-sacker", "#1e8449"},
                                                         {"grazing", "#000000"}};
    for (const auto& [kind, colour] : kinds)
      layers.push_back(quoted(plot.curves_csv) + " using " + x + ":(strcol('kind') eq " +
                       quoted(kind) + " ? column(" + y + ") : NaN) with lines lw 1.8 lc rgb '" +
                       colour + "' title " + quoted(std::string(kind) + " curves"));
    // Codimension-two points by type (each kind of marker listed once in the key).
    const std::tuple<const char*, const char*, const char*> marks[] = {
        {"grazing", "7", "curve meets grazing"}, {"cusp", "5", "cusp"},
        {"fold-flip", "9", "fold-flip"},         {"resonance", "13", "strong resonance"}};
    if (has_rows(plot.directory / plot.points_csv))
      for (const auto& [type, point_type, title] : marks)
        layers.push_back(quoted(plot.points_csv) + " using " + x + ":(strstrt(strcol('type'), " +
                         quoted(type) + ") == 1 ? column(" + y + ") : NaN) with points pt " +
                         point_type + " ps 1.2 lc rgb '#6c3483' title " + quoted(title));
    s << "plot ";
    for (size_t i = 0; i < layers.size(); ++i) s << (i > 0 ? ", \\\n     " : "") << layers[i];
    s << "\n";
    return s.str();
  });
}

PlotFiles plot_curves(const CurvesPlot& plot, const std::string& stem) {
  return render(plot.directory, stem, [&](const std::string& output) {
    const int panels = static_cast<int>(plot.panels.size());
    // A column times its scale, as a gnuplot using-expression.
    const auto scaled = [](const std::string& column, double scale) {
      std::ostringstream e;
      e.precision(17);
      e << "(column(" << quoted(column) << ") * " << scale << ")";
      return e.str();
    };
    const char* colours[] = {"#1f4e9a", "#c0392b", "#27ae60", "#8e44ad", "#d35400"};
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& panel : plot.panels)
      for (const auto& curve : panel.curves) pairs.emplace_back(plot.x_column, curve.column);
    const auto extents = pair_extents(plot.directory / plot.csv, pairs);
    std::ostringstream s;
    s << preamble(output, 1000, 360 * panels + 60) << "set multiplot layout " << panels
      << ",1 title " << quoted(plot.title) << " font 'sans,12'\n" << aligned_margins(0.80);
    size_t pair = 0;
    for (int i = 0; i < panels; ++i) {
      const CurvePanel& panel = plot.panels[static_cast<size_t>(i)];
      PanelAxes axes{{{"x", {}}, {"y", {}}}};
      for (const auto& curve : panel.curves) {
        axes.axes[0].second.add(extents[pair].x.scaled(plot.x_scale));
        axes.axes[1].second.add(extents[pair++].y.scaled(curve.scale));
      }
      s << axes.settings({"set autoscale xfix\n", "set autoscale y\n"});
      s << (i + 1 == panels ? "set xlabel " + quoted(plot.xlabel) + "\n"
                            : std::string("unset xlabel\n"))
        << "set ylabel " << quoted(panel.ylabel) << "\n"
        << "plot ";
      for (size_t k = 0; k < panel.curves.size(); ++k) {
        const Curve& curve = panel.curves[k];
        s << (k ? ", \\\n     '' " : quoted(plot.csv) + " ") << "every " << curve.every
          << " using " << scaled(plot.x_column, plot.x_scale) << ':'
          << scaled(curve.column, curve.scale)
          << (curve.points ? " with points pt 6 ps 0.8" : " with lines lw 1.6") << " lc rgb '"
          << colours[k % 5] << "' title " << quoted(curve.title);
      }
      s << "\n" << axes.after();
    }
    s << "unset multiplot\n";
    return s.str();
  });
}

namespace {

// A cloud of more points than this is drawn as an image of its panel (cloud_raster.hpp):
// gnuplot's cost is some microseconds per mark and about 0.25 us per pixel of an image
// (0.05 s for a panel), so below this a mark per point is the cheaper.
constexpr size_t kImageAbove = 20'000;

// The extents of a cloud as pair_extents gives those of a CSV's columns.
PairExtent cloud_extent(const SweepCloud& cloud) {
  PairExtent e;
  for (size_t i = 0; i < cloud.x.size(); ++i) e.add(cloud.x[i], cloud.y[i]);
  return e;
}

// A panel's plotting area in pixels of its figure, counted from the figure's left and
// bottom edges. gnuplot puts the screen fraction f at pixel f * (size - 1), so margins
// given as such fractions place the area on whole pixels, which a raster drawn into it
// needs (cloud_raster.hpp).
struct PanelBox {
  int left = 0, right = 0, bottom = 0, top = 0;
  int columns() const { return right - left; }
  int rows() const { return top - bottom; }
  std::string margins(int width, int height) const {
    std::ostringstream s;
    s << "set lmargin at screen " << left << "/" << width - 1 << ".\n"
      << "set rmargin at screen " << right << "/" << width - 1 << ".\n"
      << "set tmargin at screen " << top << "/" << height - 1 << ".\n"
      << "set bmargin at screen " << bottom << "/" << height - 1 << ".\n";
    return s.str();
  }
};

// `panels` areas of equal height stacked in a figure below its title, from 0.09 to
// `right` of its width (as aligned_margins), with room between them for the tic labels
// and below the last one for the axis label.
std::vector<PanelBox> stacked_panels(int width, int height, int panels, double right) {
  constexpr int kTitle = 34, kBetween = 46, kBelow = 50;
  const int left_pixel = static_cast<int>(std::lround(0.09 * (width - 1)));
  const int right_pixel = static_cast<int>(std::lround(right * (width - 1)));
  const int first_top = height - 1 - kTitle;
  const int each = (first_top - kBelow - (panels - 1) * kBetween) / panels;
  std::vector<PanelBox> boxes;
  for (int k = 0; k < panels; ++k) {
    const int top = first_top - k * (each + kBetween);
    boxes.push_back({left_pixel, right_pixel, top - each, top});
  }
  return boxes;
}

// The range a cloud's axis is drawn over: gnuplot's autoscaled one (extended to tics,
// or its data's ends for `set autoscale xfix`), or for data gnuplot cannot autoscale the
// fixed range PanelAxes gives them.
std::pair<double, double> cloud_range(const Extent& extent, bool extend_to_tics) {
  if (extent.needs_range()) return extent.bounds();
  return autoscaled_range(extent.drawn.lo, extent.drawn.hi, extend_to_tics);
}

// Draws `cloud` into a raster of the panel's pixels over the ranges x and y, a layer of
// `colours` per direction, and writes it to `file`; returns the raster (for its plot
// source).
CloudRaster draw_cloud(const SweepCloud& cloud, const std::vector<RasterColour>& colours,
                       const PanelBox& box, std::pair<double, double> x,
                       std::pair<double, double> y, const std::filesystem::path& file) {
  CloudRaster raster(box.columns(), box.rows(), x.first, x.second, y.first, y.second, colours);
  for (size_t i = 0; i < cloud.x.size(); ++i)
    raster.add(cloud.direction[i], cloud.x[i], cloud.y[i]);
  const std::vector<unsigned char> image = raster.rgba();
  write_file_atomically(file, [&](std::ostream& out) {
    out.write(reinterpret_cast<const char*>(image.data()),
              static_cast<std::streamsize>(image.size()));
  });
  return raster;
}

}  // namespace

PlotFiles plot_sweep(const SweepPlot& plot, const std::string& stem) {
  const std::string x = quoted(plot.parameter);
  // Rows of one direction only (the others become NaN, which gnuplot skips).
  const auto of_direction = [](const std::string& direction, const std::string& column) {
    return "(strcol('direction') eq " + quoted(direction) + " ? column(" + quoted(column) +
           ") : NaN)";
  };
  const auto colour = [](const std::string& direction) -> std::string {
    if (direction == "up") return "#1f4e9a";
    if (direction == "down") return "#c0392b";
    return "#000000";
  };
  const char* exponent_colours[] = {"#1f4e9a", "#27ae60", "#8e44ad", "#d35400"};
  // A per-point series of points.csv (an exponent, a_e, a_i) as plot items: in its own
  // colour, or, where the sweep ran in several directions (up and down), one item per
  // direction in the direction's colour, so that the two branches of a hysteresis loop are
  // told apart as in the samples' panel and no line joins them.
  const std::string next_item = ", \\\n     ";
  const auto per_point_series = [&](const std::string& column, const std::string& axes,
                                    const std::string& style, const std::string& own_colour) {
    const std::string axes_words = axes.empty() ? "" : " " + axes;
    if (plot.directions.size() < 2)
      return quoted(plot.points_csv) + " using " + x + ':' + quoted(column) + axes_words + ' ' +
             style + " lc rgb '" + own_colour + "' title " + quoted(column);
    std::string items;
    for (const auto& direction : plot.directions)
      items += (items.empty() ? "" : next_item) + quoted(plot.points_csv) + " using " + x + ':' +
               of_direction(direction, column) + axes_words + ' ' + style + " lc rgb '" +
               colour(direction) + "' title " + quoted(column + ", " + direction);
    return items;
  };
  // Each panel's data, for its ranges (PanelAxes).
  const std::vector<std::string> autoscale = {"set autoscale xfix\n", "set autoscale y\n",
                                              "set autoscale y2\n"};
  const auto points_csv = plot.directory / plot.points_csv;
  PanelAxes samples{{{"x", {}}, {"y", {}}}};
  const PairExtent sampled = cloud_extent(plot.samples);
  samples.axes[0].second = sampled.x;
  samples.axes[1].second = sampled.y;
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& column : plot.exponent_columns) pairs.emplace_back(plot.parameter, column);
  pairs.emplace_back(plot.parameter, "a_e");
  pairs.emplace_back(plot.parameter, "a_i");
  const auto at_points = pair_extents(points_csv, pairs);
  // A panel per exponent: on a common axis the most negative one (of the order of the
  // damping) squashes the largest, the one that tells chaos, flat onto zero.
  std::vector<PanelAxes> exponents;
  for (size_t i = 0; i < plot.exponent_columns.size(); ++i)
    exponents.push_back(PanelAxes{{{"x", at_points[i].x}, {"y", at_points[i].y}, {"y2", {}}}});
  const PairExtent& energy = at_points[plot.exponent_columns.size()];
  if (exponents.empty()) exponents.push_back(PanelAxes{{{"x", {}}, {"y", {}}, {"y2", {}}}});
  exponents.front().axes[0].second.add(energy.x);
  exponents.front().axes[2].second = energy.y;
  const PairExtent& rate = at_points[plot.exponent_columns.size() + 1];
  const PairExtent velocities = cloud_extent(plot.impacts);
  PanelAxes impact_panel{{{"x", rate.x}, {"y", rate.y}, {"y2", velocities.y}}};
  impact_panel.axes[0].second.add(velocities.x);
  const int panels = 2 + static_cast<int>(exponents.size());
  const int width = 1100, height = 330 * panels + 60;
  const std::vector<PanelBox> boxes = stacked_panels(width, height, panels, 0.74);
  // A large cloud (the samples, the impacts) is drawn as one raster of its panel's pixels
  // over the panel's ranges, written beside the figure; a small one as a mark per point,
  // which costs gnuplot less than an image of the whole panel.
  std::vector<RasterColour> colours;
  for (const auto& direction : plot.directions)
    colours.push_back(raster_colour(colour(direction)));
  std::vector<std::filesystem::path> data;
  const auto sample_x = cloud_range(sampled.x, false), sample_y = cloud_range(sampled.y, true);
  const std::string samples_file = stem + "_samples.rgba", impacts_file = stem + "_impacts.rgba";
  std::optional<CloudRaster> sample_raster;
  if (plot.samples.x.size() > kImageAbove) {
    sample_raster = draw_cloud(plot.samples, colours, boxes.front(), sample_x, sample_y,
                               plot.directory / samples_file);
    data.push_back(plot.directory / samples_file);
  }
  // v_r is drawn only where some of its points can be: gnuplot fails on a series with none
  // inside the ranges (impacts at parameter values beyond +-1e307).
  const bool impacts = velocities.y.count() > 0;
  const auto impact_x = cloud_range(impact_panel.axes[0].second, false),
             impact_y = cloud_range(velocities.y, true);
  std::optional<CloudRaster> impact_raster;
  if (impacts && plot.impacts.x.size() > kImageAbove) {
    // One colour for every direction: one layer each, all alike.
    const std::vector<RasterColour> orange(colours.size(), raster_colour("#e67e22"));
    impact_raster = draw_cloud(plot.impacts, orange, boxes.back(), impact_x, impact_y,
                               plot.directory / impacts_file);
    data.push_back(plot.directory / impacts_file);
  }
  PlotFiles files = render(plot.directory, stem, [&](const std::string& output) {
    std::ostringstream s;
    s << preamble(output, width, height) << "set multiplot layout " << panels
      << ",1 title " << quoted(plot.title) << " font 'sans,12'\n"
      << "unset xlabel\n";
    // (a) the Poincare samples: the bifurcation diagram proper, a dot per sample in the
    // colour of its direction (the key names them).
    s << boxes.front().margins(width, height) << samples.settings(autoscale) << "set ylabel "
      << quoted(axis_label(plot.coordinate) + " on the section") << "\n";
    if (sample_raster) {
      s << Extent::range_setting("x", sample_x) << Extent::range_setting("y", sample_y)
        << "plot " << quoted(samples_file) << ' ' << sample_raster->gnuplot_source()
        << " notitle";
      for (const auto& direction : plot.directions)
        s << ", \\\n     keyentry with points pt 7 ps 0.25 lc rgb '" << colour(direction)
          << "' title " << quoted(direction);
    } else {
      s << "plot ";
      for (size_t d = 0; d < plot.directions.size(); ++d)
        s << (d ? ", \\\n     " : "") << quoted(plot.samples_csv) << " using " << x << ':'
          << of_direction(plot.directions[d], plot.coordinate) << " with points pt 7 ps 0.25 lc rgb '"
          << colour(plot.directions[d]) << "' title " << quoted(plot.directions[d]);
    }
    s << "\n" << samples.after();
    // (b) the exponents, each in its panel with the zero line; a_e on the first's right axis.
    // The marks of the per-point series are squares: pngcairo draws a circle as an
    // antialiased arc, a square as four lines, and at three pixels the two look alike
    // (a sweep of 801 points draws each series' marks a pixel apart).
    for (size_t i = 0; i < exponents.size(); ++i) {
      const bool energy_axis = i == 0;
      s << boxes[i + 1].margins(width, height) << exponents[i].settings(autoscale)
        << "set ylabel "
        << quoted(axis_label(i < plot.exponent_columns.size() ? plot.exponent_columns[i]
                                                             : "lambda_1"))
        << "\n"
        << (energy_axis ? "set y2label " + quoted(axis_label("a_e")) +
                              "\nset y2tics\nset ytics nomirror\n"
                        : std::string("unset y2label\nunset y2tics\nset ytics mirror\n"))
        << "plot 0 with lines lw 1 lc rgb '#555555' notitle";
      if (i < plot.exponent_columns.size())
        s << next_item
          << per_point_series(plot.exponent_columns[i], "", "with linespoints pt 5 ps 0.4 lw 0.8",
                              exponent_colours[i % 4]);
      if (energy_axis)
        s << next_item << per_point_series("a_e", "axes x1y2", "with points pt 4 ps 0.4", "#c0392b");
      s << "\n" << exponents[i].after();
    }
    s << "unset y2label\nunset y2tics\nset ytics nomirror\n";
    // (c) impacts per period, the impact velocities on the right axis.
    s << boxes.back().margins(width, height) << impact_panel.settings(autoscale);
    if (impact_raster)
      s << Extent::range_setting("x", impact_x) << Extent::range_setting("y2", impact_y);
    s << "set xlabel " << quoted(axis_label(plot.parameter)) << "\nset ylabel "
      << quoted(axis_label("a_i")) << "\nset y2label " << quoted(axis_label("v_r"))
      << "\nset y2tics\n";
    if (!impacts)
      s << "set label 1 '" << (has_rows(plot.directory / plot.impacts_csv) ? "no drawable v_r"
                                                                          : "no impacts: no v_r")
        << "' at graph 0.5, 0.5 center\n";
    s << "plot " << per_point_series("a_i", "", "with points pt 5 ps 0.5", "#1f4e9a");
    if (impact_raster)
      s << ", \\\n     " << quoted(impacts_file) << ' ' << impact_raster->gnuplot_source()
        << " axes x1y2 notitle, \\\n     keyentry with points pt 7 ps 0.25 lc rgb '#e67e22' "
           "title 'v_r'";
    else if (impacts)
      s << ", \\\n     " << quoted(plot.impacts_csv) << " using " << x
        << ":'v_r' axes x1y2 with points pt 7 ps 0.25 lc rgb '#e67e22' title 'v_r'";
    s << "\n" << (impacts ? "" : "unset label 1\n") << impact_panel.after() << "unset multiplot\n";
    return s.str();
  });
  files.data = data;
  return files;
}

namespace {

// Half the size of a grid's cell along an axis of `values` evenly spaced from `low` to
// `high`. A single value gets a cell of 1% of its size (or of 1 at 0), as gnuplot widens
// a flat range.
double cell_half_size(double low, double high, int values) {
  const double half = values > 1 ? (high - low) / (values - 1) / 2.0 : 0.0;
  if (half > 0.0) return half;
  return std::abs(low) >= kTinyValue ? 0.01 * std::abs(low) : 1.0;
}

// "set AXISrange [a:b]" over a grid's cells: from the first cell's left edge to the last
// cell's right edge.
std::string cell_range(const std::string& axis, double low, double high, int values) {
  const double half = cell_half_size(low, high, values);
  std::ostringstream s;
  s.precision(17);
  s << "set " << axis << "range [" << low - half << ':' << high + half << "]\n";
  return s.str();
}

// The colour of each class of a map: periodic classes from a palette of easily told apart
// colours in order, the other regimes in greys and black.
std::vector<std::string> map_colours(const std::vector<SweepMapClass>& classes) {
  const char* periodic[] = {"#1f4e9a", "#e67e22", "#27ae60", "#8e44ad", "#c0392b",
                            "#16a085", "#f1c40f", "#e377c2", "#8c564b", "#7fb3d5"};
  std::vector<std::string> colours;
  size_t next = 0;
  for (const auto& c : classes) {
    switch (c.regime) {
      case libcont::SweepRegime::Periodic: colours.push_back(periodic[next++ % 10]); break;
      case libcont::SweepRegime::Chaotic: colours.push_back("#4d4d4d"); break;
      case libcont::SweepRegime::NonPeriodic: colours.push_back("#d5d8dc"); break;
      case libcont::SweepRegime::Failed: colours.push_back("black"); break;
    }
  }
  return colours;
}

}  // namespace

PlotFiles plot_sweep_map(const SweepMapPlot& plot, const std::string& stem) {
  return render(plot.directory, stem, [&](const std::string& output) {
    const std::string x = quoted(plot.first), y = quoted(plot.second);
    const auto colours = map_colours(plot.classes);
    const int classes = static_cast<int>(plot.classes.size());
    // An image needs a grid of at least 2 x 2 cells; a single row or column is drawn as
    // one box per cell instead.
    const bool image = plot.columns > 1 && plot.rows > 1;
    std::ostringstream half_sizes;
    half_sizes.precision(17);
    half_sizes << '(' << cell_half_size(plot.first_low, plot.first_high, plot.columns) << "):("
               << cell_half_size(plot.second_low, plot.second_high, plot.rows) << ')';
    // The cells of one layer, coloured by `value` (a using-expression).
    const auto cells = [&](const SweepMapLayer& layer, const std::string& value) {
      std::ostringstream s;
      s << quoted(plot.cells_csv);
      if (layer.rows > 0)
        s << " every ::" << layer.first_row << "::" << layer.first_row + layer.rows - 1;
      if (image)
        s << " using " << x << ':' << y << ":(" << value << ") with image notitle";
      else
        s << " using " << x << ':' << y << ':' << half_sizes.str() << ":(" << value
          << ") with boxxyerror fc palette fs solid 1.0 noborder notitle";
      return s.str();
    };
    const auto curves = [&](bool titled) {
      std::string s;
      for (const auto& c : plot.curves) {
        const std::string y_column = quoted(c.y_column.empty() ? plot.second : c.y_column);
        s += ", \\\n     " + quoted(c.csv) + " using " +
             quoted(c.x_column.empty() ? plot.first : c.x_column) + ':' +
             (c.kind.empty() ? y_column
                             : "(strcol('kind') eq " + quoted(c.kind) + " ? column(" + y_column +
                                   ") : NaN)") +
             (c.points ? " with points pt 7 ps 1.2" : " with lines lw 2") +
             (c.dashed ? " dt 2" : "") + " lc rgb " + quoted(c.colour) +
             (titled && !c.title.empty() ? " title " + quoted(c.title) : " notitle");
      }
      return s;
    };
    const int layers = std::max<int>(1, static_cast<int>(plot.layers.size()));
    std::ostringstream s;
    s << preamble(output, 1400, 560 * layers + 40)
      << "set multiplot layout " << layers << ",2 title " << quoted(plot.title)
      << " font 'sans,12'\n"
      << "set xlabel " << quoted(axis_label(plot.first)) << "\nset ylabel "
      << quoted(axis_label(plot.second)) << "\n"
      << cell_range("x", plot.first_low, plot.first_high, plot.columns)
      << cell_range("y", plot.second_low, plot.second_high, plot.rows)
      << "set tics out\nunset grid\n";
    for (int k = 0; k < layers; ++k) {
      const SweepMapLayer layer =
          plot.layers.empty() ? SweepMapLayer{} : plot.layers[static_cast<size_t>(k)];
      const std::string prefix = layer.name.empty() ? "" : layer.name + ": ";
      // (a) the classes: a palette of exactly one colour per class, class k at k.
      s << "set title " << quoted(prefix + "z = p/n of the settled motion") << "\n"
        << "set palette defined (";
      for (int c = 0; c < classes; ++c)
        s << (c ? ", " : "") << c << ' ' << quoted(colours[static_cast<size_t>(c)]);
      if (classes == 0) s << "0 'white'";
      // gnuplot wants two entries at least: one class is its colour twice.
      if (classes <= 1)
        s << ", 1 " << quoted(classes == 1 ? colours[0] : std::string("white"));
      s << ")\nset palette maxcolors " << std::max(1, classes) << "\nset cbrange [-0.5:"
        << std::max(1, classes) - 0.5 << "]\nunset colorbox\n";
      for (size_t l = 0; l < plot.labels.size(); ++l) {
        std::ostringstream at;
        at.precision(17);
        at << plot.labels[l].x << ", " << plot.labels[l].y;
        s << "set label " << 100 + l << ' ' << quoted(plot.labels[l].text) << " at " << at.str()
          << " center front font 'sans,11' textcolor rgb 'black'\n";
      }
      s << "plot " << cells(layer, "column('class')");
      // The key: one entry per class (keyentry draws nothing).
      for (int c = 0; c < classes; ++c)
        s << ", \\\n     keyentry with boxes fs solid 1.0 fc rgb "
          << quoted(colours[static_cast<size_t>(c)]) << " title " << quoted(plot.classes[static_cast<size_t>(c)].label);
      s << curves(true) << "\n";
      if (!plot.labels.empty()) s << "unset label\n";
      // (b) lambda_1 on a scale symmetric about 0. -inf (sticking collapsed the tangent
      // space: the most stable motion there is) and values beyond the bound are drawn at
      // the scale's ends; a cell without an exponent (failed) is NaN, left transparent over
      // a grey ground.
      std::ostringstream bound;
      bound.precision(17);
      bound << (plot.exponent_bound > 0.0 && std::isfinite(plot.exponent_bound)
                    ? plot.exponent_bound
                    : 1.0);
      s << "set title "
        << quoted(prefix + "largest Lyapunov exponent lambda_1 (grey: none" +
                  (plot.exponent_clipped ? "; beyond the scale: its end colours)" : ")"))
        << "\n"
        << "set palette defined (-1 '#2166ac', 0 'white', 1 '#b2182b')\n"
        << "set palette maxcolors 0\nset cbrange [-" << bound.str() << ':' << bound.str()
        << "]\nset colorbox\nset cblabel 'lambda_1'\n"
        << "set object 1 rectangle from graph 0, 0 to graph 1, 1 behind fc rgb '#bdbdbd' "
           "fs solid 1.0 noborder\n"
        << "plot "
        << cells(layer, "strcol('regime') eq 'failed' ? NaN : strcol('lambda_1') eq '-inf' ? -" +
                            bound.str() + " : strcol('lambda_1') eq 'inf' ? " + bound.str() +
                            " : abs(column('lambda_1')) <= 1e307 ? (column('lambda_1') < -" +
                            bound.str() + " ? -" + bound.str() + " : column('lambda_1') > " +
                            bound.str() + " ? " + bound.str() + " : column('lambda_1')) : NaN")
        << curves(false) << "\nunset object 1\nunset cblabel\n";
    }
    s << "unset multiplot\n";
    return s.str();
  });
}

PlotFiles plot_basins(const BasinPlot& plot, const std::string& stem) {
  return render(plot.directory, stem, [&](const std::string& output) {
    const char* colours[] = {"#1f4e9a", "#e67e22", "#27ae60", "#8e44ad", "#c0392b",
                             "#16a085", "#f1c40f", "#7f8c8d", "#d35400", "#2c3e50"};
    const std::string x = quoted(plot.x_name), y = quoted(plot.y_name);
    std::ostringstream s;
    s.precision(17);
    s << preamble(output, 1000, 800) << "set title " << quoted(plot.title) << " font 'sans,12'\n"
      << "set xlabel " << quoted(axis_label(plot.x_name)) << "\nset ylabel "
      << quoted(axis_label(plot.y_name)) << "\n"
      << "set autoscale fix\n";
    PanelAxes axes{{{"x", {}}, {"y", {}}}};
    for (const auto& csv : {plot.cells_csv, plot.attractors_csv}) {
      const PairExtent e = pair_extents(plot.directory / csv, {{plot.x_name, plot.y_name}}).front();
      axes.axes[0].second.add(e.x);
      axes.axes[1].second.add(e.y);
    }
    s << axes.settings({}) << "set style fill solid 1.0 noborder\n";
    const auto colour_of = [&](int id) -> std::string {
      return id == -1 ? "#d5d8dc" : id == -2 ? "black" : colours[id % 10];
    };
    if (plot.columns > 1 && plot.rows > 1) {
      // The cells as one image (gnuplot's cost per box made a 200 x 200 map take a
      // second): label k's cells take the value k, a palette of exactly one colour per
      // label; keyentry names them.
      std::string value = "NaN";
      for (size_t k = plot.labels.size(); k-- > 0;)
        value = "column('attractor') == " + std::to_string(plot.labels[k].first) + " ? " +
                std::to_string(k) + " : " + value;
      const size_t labels = plot.labels.size();
      s << "set palette defined (";
      for (size_t k = 0; k < std::max<size_t>(labels, 2); ++k)
        s << (k ? ", " : "") << k << ' '
          << quoted(labels == 0 ? "white" : colour_of(plot.labels[std::min(k, labels - 1)].first));
      s << ")\nset palette maxcolors " << std::max<size_t>(labels, 2) << "\nset cbrange [-0.5:"
        << std::max<size_t>(labels, 2) - 0.5 << "]\nunset colorbox\n"
        << "plot " << quoted(plot.cells_csv) << " using " << x << ':' << y << ":(" << value
        << ") with image notitle";
      for (const auto& [id, label] : plot.labels)
        s << ", \\\n     keyentry with boxes fs solid 1.0 fc rgb " << quoted(colour_of(id))
          << " title " << quoted(label);
    } else {
      // A single row or column, which an image cannot be: one filled box per cell, one
      // plot command per label so that the key names them.
      s << "plot ";
      for (size_t k = 0; k < plot.labels.size(); ++k) {
        const auto& [id, label] = plot.labels[k];
        s << (k ? ", \\\n     '' " : quoted(plot.cells_csv) + " ")
          << "using (column('attractor') == " << id << " ? column(" << x << ") : NaN):" << y
          << ":(" << plot.half_width << "):(" << plot.half_height << ") with boxxyerror lc rgb '"
          << colour_of(id) << "' title " << quoted(label);
      }
    }
    s << ", \\\n     " << quoted(plot.attractors_csv) << " using " << x << ':' << y
      << " with points pt 3 ps 1.6 lc rgb 'black' title 'attractor on the section'\n";
    return s.str();
  });
}

namespace {

// The exponents' panel shows what tells chaos from periodic motion: the integration's
// lambda_1, the stable orbits' Floquet exponents and zero, with room above for a band of
// the unstable ones. Those grow without bound towards a grazing (a multiplier like
// 1/speed) and, left to autoscale, squeeze the rest into the panel's bottom tenth; they
// are cut at the top instead.
std::string exponent_range(const DiagramPlot& plot) {
  std::vector<double> ys{0.0};
  const auto integrated = csv_columns(plot.directory / plot.integration_csv, {"lambda_1"});
  for (const auto& v : integrated[0]) ys.push_back(number_or_nan(v));
  if (plot.branches > 0) {
    const auto rows = csv_columns(plot.directory / plot.branches_csv, {"largest_exponent", "stable"});
    for (size_t r = 0; r < rows[0].size(); ++r)
      if (rows[1][r] != "0") ys.push_back(number_or_nan(rows[0][r]));
  }
  return y_range_of(ys, 0.6);
}

}  // namespace

PlotFiles plot_diagram(const DiagramPlot& plot, const std::string& stem) {
  return render(plot.directory, stem, [&](const std::string& output) {
    const std::string p = quoted(plot.parameter), x = quoted(plot.coordinate);
    // One curve per branch (rows of other branches are NaN, which breaks the line), the
    // key entry on the first only.
    const auto branches = [&](const std::string& column, const std::string& condition,
                              const std::string& style, const std::string& title) {
      return "for [b=0:" + std::to_string(plot.branches - 1) + "] " + quoted(plot.branches_csv) +
             " using " + p + ":(column('branch') == b && " + condition + " ? column(" +
             quoted(column) + ") : NaN) with lines " + style + " title (b == 0 ? " +
             quoted(title) + " : '')";
    };
    // One curve per branch b and lap k, the orbit at t = kT, where the samples are taken:
    // one iteration over c = b laps + k (a plot's iterations do not nest).
    const auto laps = [&](const std::string& condition, const std::string& style,
                          const std::string& title) {
      const std::string n = std::to_string(plot.laps);
      return "for [c=0:" + std::to_string(plot.branches * plot.laps - 1) + "] " +
             quoted(plot.stroboscopic_csv) + " using " + p + ":(column('branch') == c / " + n +
             " && column('k') == c % " + n + " && " + condition + " ? column(" + x +
             ") : NaN) with lines " + style + " title (c == 0 ? " + quoted(title) + " : '')";
    };
    const std::vector<std::string> autoscale = {"set autoscale xfix\n", "set autoscale y\n"};
    const auto panel_axes = [&](const std::vector<std::pair<std::string, std::string>>& sources) {
      PanelAxes axes{{{"x", {}}, {"y", {}}}};
      for (const auto& [csv, column] : sources) {
        const PairExtent e = pair_extents(plot.directory / csv, {{plot.parameter, column}}).front();
        axes.axes[0].second.add(e.x);
        axes.axes[1].second.add(e.y);
      }
      return axes;
    };
    const PanelAxes section = panel_axes({{plot.stroboscopic_csv, plot.coordinate},
                                          {plot.samples_csv, plot.coordinate}});
    const PanelAxes largest = panel_axes({{plot.branches_csv, "largest_exponent"},
                                          {plot.integration_csv, "lambda_1"}});
    // The special points numbered over the x range of the samples and branches, which
    // the panels share. A branch that closes on itself is traced round more than once: its points repeat,
    // and are numbered once. Each is marked where its orbit is at t = 0, on its branch's
    // curves: its rows of the stroboscopic file at lap 0 (written twice, numbered once).
    std::vector<SpecialPoint> points;
    const auto specials = csv_columns(plot.directory / plot.stroboscopic_csv,
                                      {plot.parameter, plot.coordinate, "special", "n", "k"});
    const Extent& ex = section.axes[0].second;
    const Extent& ey = section.axes[1].second;
    const double x_same = 1e-6 * (ex.drawn.hi - ex.drawn.lo), y_same = 1e-4 * (ey.drawn.hi - ey.drawn.lo);
    for (size_t r = 0; r < specials[0].size(); ++r) {
      if (specials[2][r].empty() || specials[4][r] != "0") continue;
      // The short names of continue's labels (LP, PD, NS, GR), so that the key stays narrow.
      const std::string& type = specials[2][r];
      const std::string name = type == "fold"              ? "LP"
                               : type == "period-doubling" ? "PD"
                               : type == "neimark-sacker"  ? "NS"
                               : type == "grazing"         ? "GR"
                                                           : type;
      const SpecialPoint point{number_or_nan(specials[0][r]), number_or_nan(specials[1][r]),
                               name + " (n = " + specials[3][r] + ")  " + plot.parameter + " = ",
                               "#27ae60"};  // the value follows, in digits that tell it apart
      const bool repeated = std::any_of(points.begin(), points.end(), [&](const SpecialPoint& p) {
        return p.legend == point.legend && std::abs(p.x - point.x) <= x_same &&
               std::abs(p.y - point.y) <= y_same;
      });
      if (!repeated) points.push_back(point);
    }
    std::vector<double> values;
    for (const auto& point : points) values.push_back(point.x);
    const auto texts = distinct_numbers(values);
    for (size_t k = 0; k < points.size(); ++k) points[k].legend += texts[k];
    const auto range = plot.branches > 0 ? marker_range(ex, 0.0) : std::nullopt;
    // Where the special points crowd, a panel between the two zooms on their cluster.
    std::optional<std::pair<double, double>> zoom;
    if (range) {
      std::vector<double> at;
      for (const auto& point : points) at.push_back(point.x);
      zoom = cluster_of(at, range->first, range->second);
    }
    const int height = zoom ? 1250 : 900, panels = zoom ? 3 : 2;
    // The key beside the top panel: its three curves, then the points.
    const NumberedMarkers markers =
        range ? numbered_markers(points, range->first, range->second, true,
                                 keyed_points_beside(height / panels, 3))
              : NumberedMarkers{};
    // The key's longest title, of the curves' (as below) or of the numbered points'.
    size_t longest = std::string(plot.branches > 0 ? "ln|mu_1| / (n T) on the branches (Floquet)"
                                                   : "direct integration (Poincare samples)")
                         .size();
    for (size_t k = 0; k < points.size(); ++k)
      longest = std::max(longest, std::to_string(k + 1).size() + 2 + points[k].legend.size());
    // Panel (a) over the x range `markers` set: the branches, the samples, the points.
    const auto section_plot = [&](std::ostream& s, const NumberedMarkers& numbered) {
      s << numbered.settings << "plot ";
      if (plot.branches > 0)
        s << laps("column('stable') > 0", "lw 2 lc rgb '#1f4e9a'",
                  "stable periodic orbits (continuation)")
          << ", \\\n     "
          << laps("column('stable') == 0", "lw 1.2 dt 2 lc rgb '#c0392b'",
                  "unstable periodic orbits")
          << ", \\\n     ";
      s << quoted(plot.samples_csv) << " using " << p << ':' << x
        << " with points pt 7 ps 0.3 lc rgb 'black' title 'direct integration (Poincare samples)'";
      s << numbered.keys << "\n" << numbered.after;
    };
    std::ostringstream s;
    s.precision(17);
    s << preamble(output, 1100, height) << "set multiplot layout " << panels
      << ",1 title " << quoted(plot.title) << " font 'sans,12'\n"
      << aligned_margins(right_edge_for_key(longest, 1100))
      << "set tmargin 2.5\nunset xlabel\n" << section.settings(autoscale)
      << "set ylabel " << quoted(axis_label(plot.coordinate) + " on the section") << "\n";
    if (zoom)
      s << "set object 1 rectangle from first " << zoom->first << ", graph 0 to first "
        << zoom->second << ", graph 1 behind fc rgb '#ececec' fs solid 1.0 noborder\n";
    section_plot(s, markers);
    s << (zoom ? "unset object 1\n" : "") << section.after();
    if (zoom) {
      // Its y range from the rows and samples within the zoom's x range.
      std::vector<double> ys;
      for (const auto& csv : {plot.stroboscopic_csv, plot.samples_csv}) {
        const auto rows = csv_columns(plot.directory / csv, {plot.parameter, plot.coordinate});
        for (size_t r = 0; r < rows[0].size(); ++r) {
          const double px = number_or_nan(rows[0][r]);
          if (px >= zoom->first && px <= zoom->second) ys.push_back(number_or_nan(rows[1][r]));
        }
      }
      for (const auto& point : points)
        if (point.x >= zoom->first && point.x <= zoom->second) ys.push_back(point.y);
      s << y_range_of(ys) << "unset key\n"
        << "set label 2 'zoom on the shaded interval above' at graph 0.01, graph 0.96 left "
           "font 'sans,9' tc rgb '#555555'\n";
      section_plot(s, numbered_markers(points, zoom->first, zoom->second, false));
      s << "unset label 2\nset key outside right top vertical\nset autoscale y\n";
    }
    s << largest.settings(autoscale) << exponent_range(plot);
    if (range) s << "set xrange [" << range->first << ':' << range->second << "]\n";
    s << "set tmargin 1\nset xlabel " << quoted(axis_label(plot.parameter)) << "\nset ylabel "
      << quoted(axis_label("largest_exponent")) << "\nplot ";
    // Each branch dashed whole, solid over its stable rows: the step where stability
    // changes stays drawn (dashed).
    if (plot.branches > 0)
      s << branches("largest_exponent", "column('stable') > 0", "lw 1.6 lc rgb '#27ae60'",
                    "ln|mu_1| / (n T) on the branches (Floquet)")
        << ", \\\n     "
        << branches("largest_exponent", "1", "lw 1.2 dt 2 lc rgb '#27ae60'",
                    "the same, unstable")
        << ", \\\n     ";
    s << quoted(plot.integration_csv) << " using " << p
      << ":'lambda_1' with points pt 7 ps 0.6 lc rgb '#1f4e9a' title 'lambda_1 (direct integration)', \\\n"
      << "     0 with lines lw 0.8 lc rgb 'gray' notitle\n"
      << largest.after() << "unset multiplot\n";
    return s.str();
  });
}

}  // namespace vicont
