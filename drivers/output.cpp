#include "output.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <system_error>

#include "atomic_file.hpp"
#include "libcont/derived_outputs.hpp"
#include "libcont/impact_measures.hpp"
#include "libcont/version.hpp"

namespace vicont {

namespace {

// Event names come from the models; quote them in case one ever holds a comma.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

void write_state(std::ostream& out, const libcont::Vector& x) {
  for (Eigen::Index i = 0; i < x.size(); ++i) out << ',' << number_text(x[i]);
}

void write_state_header(std::ostream& out, const libcont::HybridSystem& system,
                        const std::string& suffix) {
  for (const auto& name : system.state_names()) out << ',' << name << suffix;
}

}  // namespace

std::string number_text(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string table_cell(const std::string& text, size_t width) {
  return text + std::string(text.size() < width ? width - text.size() : 1, ' ');
}

std::string file_list_text(const std::filesystem::path& out, const std::vector<std::string>& files) {
  std::string names;
  for (const auto& file : files)
    names += (names.empty() ? "" : ", ") + std::filesystem::path(file).filename().string();
  return out.string() + "/{" + names + "}";
}

std::string rounded_text(double value, int digits) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

std::string event_kind_name(libcont::EventKind kind) {
  switch (kind) {
    case libcont::EventKind::Impact:
      return "impact";
    case libcont::EventKind::ContactStart:
      return "contact_start";
    case libcont::EventKind::ContactEnd:
      return "contact_end";
    case libcont::EventKind::StickStart:
      return "stick_start";
    case libcont::EventKind::StickEnd:
      return "stick_end";
    case libcont::EventKind::ModeSwitch:
      return "mode_switch";
    case libcont::EventKind::Terminal:
      return "terminal";
  }
  return "unknown";
}

void prepare_output_directory(const std::filesystem::path& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error || !std::filesystem::is_directory(directory))
    throw OutputError("cannot create output directory '" + directory.string() +
                      "': " + (error ? error.message() : "not a directory"));
}

void write_time_series_csv(const std::filesystem::path& file, const libcont::HybridSystem& system,
                           const std::vector<TrajectoryPoint>& points) {
  write_file_atomically(file, [&](std::ostream& out) {
    out << 't';
    write_state_header(out, system, "");
    const libcont::DerivedOutputs* derived = system.derived_outputs();
    const auto output_names = derived ? derived->output_names() : std::vector<std::string>{};
    for (const auto& name : output_names) out << ',' << csv_field(name);
    out << ",mode,event\n";
    libcont::Vector outputs(static_cast<Eigen::Index>(output_names.size()));
    for (const auto& p : points) {
      out << number_text(p.t);
      write_state(out, p.x);
      if (outputs.size() > 0) {
        derived->outputs(p.mode, p.t, p.x, outputs);
        write_state(out, outputs);
      }
      out << ',' << csv_field(system.mode_name(p.mode)) << ',';
      // Never an empty last field: gnuplot 5.4 reads one as a stale piece of another line.
      if (p.event >= 0)
        out << csv_field(system.event_spec(p.event_mode, p.event).name)
            << (p.after ? ":after" : ":before");
      else
        out << grid_sample_marker;
      out << '\n';
    }
  });
}

void write_events_csv(const std::filesystem::path& file, const libcont::HybridSystem& system,
                      const std::vector<libcont::EventRecord>& events) {
  write_file_atomically(file, [&](std::ostream& out) {
    out << "t,event,kind,mode_before,mode_after";
    write_state_header(out, system, "_before");
    write_state_header(out, system, "_after");
    out << ",relative_velocity\n";
    const libcont::ImpactMeasures& impact = libcont::impact_measures_or_zero(system);
    for (const auto& e : events) {
      out << number_text(e.t) << ',' << csv_field(system.event_spec(e.mode_before, e.event).name)
          << ',' << event_kind_name(e.kind) << ',' << csv_field(system.mode_name(e.mode_before))
          << ',' << csv_field(system.mode_name(e.mode_after));
      write_state(out, e.x_minus);
      write_state(out, e.x_plus);
      out << ',' << number_text(impact.relative_velocity(e.mode_before, e.event, e.t, e.x_minus))
          << '\n';
    }
  });
}

void write_poincare_csv(const std::filesystem::path& file, const libcont::HybridSystem& system,
                        const libcont::Matrix& samples, double t0, double period) {
  write_file_atomically(file, [&](std::ostream& out) {
    out << "k,t";
    write_state_header(out, system, "");
    out << '\n';
    for (Eigen::Index k = 0; k < samples.cols(); ++k) {
      out << k + 1 << ',' << number_text(t0 + static_cast<double>(k + 1) * period);
      write_state(out, samples.col(k));
      out << '\n';
    }
  });
}

void write_impacts_csv(const std::filesystem::path& file,
                       const libcont::ImpactStatistics& impacts) {
  write_file_atomically(file, [&](std::ostream& out) {
    out << "t,relative_velocity\n";
    for (size_t i = 0; i < impacts.impact_times.size(); ++i)
      out << number_text(impacts.impact_times[i]) << ','
          << number_text(i < impacts.impact_velocities.size() ? impacts.impact_velocities[i]
                                                              : std::nan(""))
          << '\n';
  });
}

nlohmann::ordered_json with_version(const nlohmann::ordered_json& document) {
  if (!document.is_object()) return document;
  nlohmann::ordered_json result = {{"version", libcont::version}};
  for (const auto& [key, value] : document.items())
    if (key != "version") result[key] = value;
  return result;
}

std::string json_text(const nlohmann::ordered_json& document) {
  return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void write_json_file(const std::filesystem::path& file, const nlohmann::ordered_json& value) {
  write_file_atomically(file,
                        [&](std::ostream& out) { out << json_text(with_version(value)) << '\n'; });
}

nlohmann::ordered_json finite_or_null(double value, const std::string& path,
                                      nlohmann::ordered_json& notes) {
  if (std::isfinite(value)) return value;
  notes[path] = number_text(value);
  return nullptr;
}

nlohmann::ordered_json finite_or_null_list(const libcont::Vector& values, const std::string& path,
                                           nlohmann::ordered_json& notes) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < values.size(); ++i)
    list.push_back(finite_or_null(values[i], path + "[" + std::to_string(i) + "]", notes));
  return list;
}

namespace {

void null_non_finite_below(nlohmann::ordered_json& value, const std::string& path,
                           nlohmann::ordered_json& notes) {
  if (value.is_number_float()) {
    value = finite_or_null(value.get<double>(), path, notes);
  } else if (value.is_object()) {
    for (auto& [key, member] : value.items())
      null_non_finite_below(member, path.empty() ? key : path + "." + key, notes);
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i)
      null_non_finite_below(value[i], path + "[" + std::to_string(i) + "]", notes);
  }
}

}  // namespace

void null_non_finite(nlohmann::ordered_json& summary) {
  nlohmann::ordered_json notes = nlohmann::ordered_json::object();
  for (auto& [key, member] : summary.items())
    if (key != "non_finite") null_non_finite_below(member, key, notes);
  if (notes.empty()) return;
  nlohmann::ordered_json& all = summary["non_finite"];
  for (auto& [key, text] : notes.items()) all[key] = text;
  if (!summary.contains("non_finite_note"))
    summary["non_finite_note"] = "JSON has no infinity: these fields are null";
}

nlohmann::ordered_json state_json(const libcont::HybridSystem& system, const libcont::Vector& x) {
  nlohmann::ordered_json result = nlohmann::ordered_json::object();
  const auto names = system.state_names();
  for (size_t i = 0; i < names.size() && static_cast<Eigen::Index>(i) < x.size(); ++i)
    result[names[i]] = std::isfinite(x[static_cast<Eigen::Index>(i)])
                           ? nlohmann::ordered_json(x[static_cast<Eigen::Index>(i)])
                           : nlohmann::ordered_json(nullptr);
  return result;
}

}  // namespace vicont
