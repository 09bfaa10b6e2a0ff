#include "sweep_point_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

#include "output.hpp"

namespace vicont {

namespace {

constexpr const char* format_line = "vicont-sweep-point 1";

std::string numbers_text(const libcont::Vector& values) {
  std::string text = std::to_string(values.size());
  for (Eigen::Index i = 0; i < values.size(); ++i) text += ' ' + number_text(values[i]);
  return text;
}

std::string numbers_text(const std::vector<double>& values) {
  return numbers_text(libcont::Vector(
      Eigen::Map<const libcont::Vector>(values.data(), static_cast<Eigen::Index>(values.size()))));
}

// Fields as whitespace-separated words, read in order; any failure sticks.
class Words {
 public:
  explicit Words(const std::string& text) : in_(text) {}
  bool ok() const { return ok_; }

  double number() {
    std::string word;
    if (!(in_ >> word)) return fail();
    double value = 0.0;
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (error != std::errc() || end != word.data() + word.size()) return fail();
    return value;
  }
  long whole() {
    const double value = number();
    // Range first: casting an out-of-range double to an integer is undefined.
    if (!(value >= 0.0 && value <= 1e15) || value != std::floor(value)) return fail();
    return static_cast<long>(value);
  }
  libcont::Vector vector() {
    const long size = whole();
    if (!ok_ || size > 1'000'000) {
      fail();
      return {};
    }
    libcont::Vector values(size);
    for (long i = 0; i < size; ++i) values[i] = number();
    return values;
  }
  bool at_end() {
    std::string rest;
    return !(in_ >> rest);
  }

 private:
  double fail() {
    ok_ = false;
    return 0.0;
  }
  std::istringstream in_;
  bool ok_ = true;
};

std::optional<libcont::SweepPass> pass_named(const std::string& name) {
  for (auto pass : {libcont::SweepPass::Up, libcont::SweepPass::Down, libcont::SweepPass::Fixed})
    if (libcont::to_string(pass) == name) return pass;
  return std::nullopt;
}

std::optional<libcont::FlowStatus> status_named(const std::string& name) {
  using libcont::FlowStatus;
  for (auto status : {FlowStatus::Success, FlowStatus::TerminalEvent, FlowStatus::StepFailure,
                      FlowStatus::TooManySteps, FlowStatus::EventStorm, FlowStatus::GrazingEvent,
                      FlowStatus::BadState})
    if (libcont::to_string(status) == name) return status;
  return std::nullopt;
}

// Messages go on one line of the record.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

}  // namespace

std::string point_name(const libcont::SweepPointKey& key, bool grid) {
  char index[32];
  if (grid)
    std::snprintf(index, sizeof index, "%05dx%05d", key.index, key.second_index);
  else
    std::snprintf(index, sizeof index, "%05d", key.index);
  return libcont::to_string(key.pass) + "-ic" + std::to_string(key.initial_condition) + "-" +
         index;
}

std::string point_text(const libcont::SweepPoint& p, bool grid) {
  std::ostringstream out;
  out << format_line << '\n'
      << "pass " << libcont::to_string(p.key.pass) << '\n'
      << "initial_condition " << p.key.initial_condition << '\n'
      << "index " << p.key.index << '\n'
      << "parameter " << number_text(p.parameter) << '\n';
  if (grid)
    out << "second_index " << p.key.second_index << '\n'
        << "second_parameter " << number_text(p.second_parameter) << '\n';
  out << "status " << libcont::to_string(p.status) << '\n'
      << "message " << one_line(p.message) << '\n'
      << "exponents " << numbers_text(p.exponents) << '\n'
      << "exponent_sum " << number_text(p.exponent_sum) << '\n'
      << "exponent_errors " << numbers_text(p.exponent_errors) << '\n'
      << "exponent_sum_error " << number_text(p.exponent_sum_error) << '\n'
      << "z " << p.p << ' ' << p.n << '\n'
      << "impacts_per_period " << number_text(p.impacts_per_period) << '\n'
      << "energy_per_period " << number_text(p.energy_per_period) << '\n'
      << "velocities " << p.velocities.count << ' ' << number_text(p.velocities.mean) << ' '
      << number_text(p.velocities.rms) << ' ' << number_text(p.velocities.min) << ' '
      << number_text(p.velocities.max) << ' ' << number_text(p.velocities.slowest) << '\n'
      << "averaged_periods " << p.averaged_periods << '\n'
      << "samples " << p.samples.size() << '\n';
  for (const auto& sample : p.samples) out << "sample " << numbers_text(sample) << '\n';
  out << "impact_velocities " << numbers_text(p.impact_velocities) << '\n'
      << "final_state " << numbers_text(p.final_state) << '\n'
      << "fallbacks " << p.fallbacks << ' ' << number_text(p.first_fallback_time) << '\n'
      << "end\n";
  return out.str();
}

std::optional<libcont::SweepPoint> parse_point_text(const std::string& text, std::string& error) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != format_line) {
    error = "not a sweep point record (first line is not '" + std::string(format_line) + "')";
    return std::nullopt;
  }
  // Each field once, by name; samples are the one repeated field, in order.
  std::map<std::string, std::string> fields;
  std::vector<std::string> samples;
  bool ended = false;
  while (std::getline(in, line)) {
    if (line == "end") {
      ended = true;
      break;
    }
    const auto space = line.find(' ');
    const std::string key = line.substr(0, space);
    const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "sample")
      samples.push_back(value);
    else if (!fields.emplace(key, value).second) {
      error = "field '" + key + "' appears twice";
      return std::nullopt;
    }
  }
  if (!ended) {
    error = "the record has no 'end' line (truncated)";
    return std::nullopt;
  }
  for (const char* key : {"pass", "initial_condition", "index", "parameter", "status", "message",
                          "exponents", "exponent_sum", "z", "impacts_per_period",
                          "energy_per_period", "velocities", "averaged_periods", "samples",
                          "impact_velocities", "final_state"})
    if (!fields.count(key)) {
      error = std::string("field '") + key + "' is missing";
      return std::nullopt;
    }

  libcont::SweepPoint p;
  const auto pass = pass_named(fields["pass"]);
  const auto status = status_named(fields["status"]);
  if (!pass || !status) {
    error = !pass ? "unknown pass '" + fields["pass"] + "'" : "unknown status '" + fields["status"] + "'";
    return std::nullopt;
  }
  p.key.pass = *pass;
  p.status = *status;
  p.message = fields["message"];

  bool ok = true;
  std::string bad_field;
  // Reads one field completely: every word used, none left over.
  auto read = [&](const std::string& key, auto&& parse) {
    Words words(fields[key]);
    parse(words);
    if (ok && (!words.ok() || !words.at_end())) {
      ok = false;
      bad_field = key;
    }
  };
  read("initial_condition", [&](Words& w) { p.key.initial_condition = static_cast<int>(w.whole()); });
  read("index", [&](Words& w) { p.key.index = static_cast<int>(w.whole()); });
  read("parameter", [&](Words& w) { p.parameter = w.number(); });
  if (fields.count("second_index"))  // a grid's cell
    read("second_index", [&](Words& w) { p.key.second_index = static_cast<int>(w.whole()); });
  if (fields.count("second_parameter"))
    read("second_parameter", [&](Words& w) { p.second_parameter = w.number(); });
  read("exponents", [&](Words& w) { p.exponents = w.vector(); });
  read("exponent_sum", [&](Words& w) { p.exponent_sum = w.number(); });
  // Records written before the standard errors existed have none: NaN.
  if (fields.count("exponent_errors"))
    read("exponent_errors", [&](Words& w) { p.exponent_errors = w.vector(); });
  else
    p.exponent_errors = libcont::Vector::Constant(p.exponents.size(), std::nan(""));
  if (fields.count("exponent_sum_error"))
    read("exponent_sum_error", [&](Words& w) { p.exponent_sum_error = w.number(); });
  read("z", [&](Words& w) {
    p.p = static_cast<int>(w.whole());
    p.n = static_cast<int>(w.whole());
  });
  read("impacts_per_period", [&](Words& w) { p.impacts_per_period = w.number(); });
  read("energy_per_period", [&](Words& w) { p.energy_per_period = w.number(); });
  read("velocities", [&](Words& w) {
    p.velocities.count = w.whole();
    p.velocities.mean = w.number();
    p.velocities.rms = w.number();
    p.velocities.min = w.number();
    p.velocities.max = w.number();
    p.velocities.slowest = w.number();
  });
  read("averaged_periods", [&](Words& w) { p.averaged_periods = static_cast<int>(w.whole()); });
  if (fields.count("fallbacks"))  // absent from the points of earlier versions: none counted
    read("fallbacks", [&](Words& w) {
      p.fallbacks = w.whole();
      p.first_fallback_time = w.number();
    });
  long sample_count = 0;
  read("samples", [&](Words& w) { sample_count = w.whole(); });
  for (const auto& sample : samples) {
    Words words(sample);
    p.samples.push_back(words.vector());
    if (ok && (!words.ok() || !words.at_end())) {
      ok = false;
      bad_field = "sample";
    }
  }
  read("impact_velocities", [&](Words& w) {
    const libcont::Vector v = w.vector();
    p.impact_velocities.assign(v.data(), v.data() + v.size());
  });
  read("final_state", [&](Words& w) { p.final_state = w.vector(); });
  if (!ok) {
    error = "field '" + bad_field + "' is not valid";
    return std::nullopt;
  }
  if (sample_count != static_cast<long>(p.samples.size())) {
    error = "expected " + std::to_string(sample_count) + " samples, found " +
            std::to_string(p.samples.size());
    return std::nullopt;
  }
  return p;
}

}  // namespace vicont
