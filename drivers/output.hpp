#pragma once
// The data files of a run (CSV and JSON), each written atomically (atomic_file.hpp).
// Numbers are written in the shortest form that reads back to the same double, so the
// files lose nothing; non-finite values appear as inf, -inf, nan in CSV.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "libcont/hybrid_system.hpp"
#include "libcont/impact_statistics.hpp"
#include "trajectory_recorder.hpp"

namespace vicont {

std::string number_text(double value);
// For tables and plot titles, where 17 digits would hide the value: %.6g by default.
std::string rounded_text(double value, int digits = 6);
// A cell of a text table: `text` padded to `width`, or followed by one space if it is as
// wide or wider, so that the next cell never runs into it.
std::string table_cell(const std::string& text, size_t width);
// The files a run wrote, by name inside their directory `out`: "out/{a.csv, b.png}".
std::string file_list_text(const std::filesystem::path& out, const std::vector<std::string>& files);

// The event column of a grid sample (not an event) in a time series.
inline constexpr const char* grid_sample_marker = "-";
std::string event_kind_name(libcont::EventKind kind);

// Creates the output directory (OutputError if impossible).
void prepare_output_directory(const std::filesystem::path& directory);

// t, <state names>, <output names>, mode, event: one row per grid sample (event "-"); two
// rows per event, the state just before ("NAME:before") and just after ("NAME:after").
// Output columns (DerivedOutputs::output_names, e.g. y and R) only for models that have them.
void write_time_series_csv(const std::filesystem::path& file, const libcont::HybridSystem& system,
                           const std::vector<TrajectoryPoint>& points);

// t, event, kind, mode_before, mode_after, <state>_before..., <state>_after...,
// relative_velocity (normal relative velocity just before the event).
void write_events_csv(const std::filesystem::path& file, const libcont::HybridSystem& system,
                      const std::vector<libcont::EventRecord>& events);

// k, t, <state names>: the stroboscopic samples x(t0 + k T), column k - 1 of `samples`.
void write_poincare_csv(const std::filesystem::path& file, const libcont::HybridSystem& system,
                        const libcont::Matrix& samples, double t0, double period);

// t, relative_velocity: every impact (or contact start) of the averaging phase.
void write_impacts_csv(const std::filesystem::path& file, const libcont::ImpactStatistics& impacts);

// Every JSON document vicont writes (files and --json on stdout) starts with "version":
// the version of vicont and libcont that wrote it. write_json_file adds it.
nlohmann::ordered_json with_version(const nlohmann::ordered_json& document);
// The text of a JSON document as vicont writes it (indented by 2). JSON text is UTF-8, but
// a path on Linux is bytes: a string that is not valid UTF-8 (an --out of bytes) has each
// invalid byte written as U+FFFD instead of failing the run.
std::string json_text(const nlohmann::ordered_json& document);
void write_json_file(const std::filesystem::path& file, const nlohmann::ordered_json& value);

// JSON has no infinities: a non-finite number becomes null, and `notes[path]` records what
// it was ("-inf", "inf", "nan") so that a reader can tell a collapse from missing data.
nlohmann::ordered_json finite_or_null(double value, const std::string& path,
                                      nlohmann::ordered_json& notes);
// A list of them, PATH[i] in the notes.
nlohmann::ordered_json finite_or_null_list(const libcont::Vector& values, const std::string& path,
                                           nlohmann::ordered_json& notes);

// Every non-finite number left anywhere in a summary becomes null with its note in
// "non_finite" (key path -> "inf", "-inf", "nan"; merged with notes already there) and a
// "non_finite_note" saying so: the promise of doc/cli.md for all fields, not only those
// that finite_or_null was asked for (an energy overflowing to inf, say).
void null_non_finite(nlohmann::ordered_json& summary);

// State as {"x": ..., "v": ...}.
nlohmann::ordered_json state_json(const libcont::HybridSystem& system, const libcont::Vector& x);

}  // namespace vicont
