#pragma once
// Models without C++: a JSON model file (doc/models/model-files.md) read into a
// LinearImpactSystem. Every error is a libcont::InputError naming the file, the JSON path
// of the bad item (contacts[1].law) and what was expected; unknown keys are errors.
#include <filesystem>
#include <memory>
#include <string>

#include "libcont/hybrid_system.hpp"
#include "systems/model_description.hpp"

namespace systems {

// The description in `text`; `source_name` names it in messages (a file's path).
std::shared_ptr<const ModelDescription> parse_model_description(const std::string& text,
                                                                const std::string& source_name);
// The description in the file at `path`.
std::shared_ptr<const ModelDescription> read_model_description(const std::filesystem::path& path);

// The model, configured at its defaults.
std::unique_ptr<libcont::HybridSystem> model_from_file(const std::filesystem::path& path);
std::unique_ptr<libcont::HybridSystem> model_from_json_text(const std::string& text,
                                                            const std::string& source_name);

}  // namespace systems
