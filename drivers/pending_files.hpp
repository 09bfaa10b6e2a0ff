#pragma once
// The files of a run are put in place together at its end, not one by one as they are
// written. Runs writing to the same --out at once would otherwise draw each other's data:
// a figure is drawn by gnuplot from the CSV files by name, and between one run writing
// its CSV and plotting it another run could have put its own CSV there. So, while files
// are held (main() holds them for every command), a committed StagedFile (atomic_file.hpp)
// stays under its private temporary name; plots read the run's own temporaries
// (plots.cpp links them into a private directory under their final names); publish()
// renames them all into place once the run is done. Each file still appears atomically;
// files meant to be seen at once (a sweep's checkpoint, read by --resume after a kill) are
// committed with Publication::Now.
#include <filesystem>
#include <utility>
#include <vector>

namespace vicont::pending_files {

// From now on committed files wait for publish().
void hold();
bool held();
// A committed file waiting: replaces one waiting for the same target (whose temporary
// is removed).
void add(const std::filesystem::path& temporary, const std::filesystem::path& target);
// The waiting files below `directory`: (path relative to it, temporary).
std::vector<std::pair<std::filesystem::path, std::filesystem::path>> below(
    const std::filesystem::path& directory);
// Where the content of `target` is now: its temporary while it waits, else itself.
std::filesystem::path current(const std::filesystem::path& target);
// Renames every waiting file into place, in the order written, and stops holding. Throws
// OutputError naming the first file that could not be moved (the others are still moved;
// the temporary of one that could not be is removed).
void publish();

}  // namespace vicont::pending_files
