#pragma once
// A model as Python sees it: where it comes from (a catalogue name, a model file or a model
// description's JSON text), the parameter assignments made so far (in order, as text,
// exactly as vicont's --set gives them) and the configured system. Copies are made by
// replaying the assignments on a fresh model, so that a sweep's threads and a branch's
// restarts see the same system as vicont does with the same --system (or --model) and --set.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libcont/hybrid_system.hpp"
#include "libcont/sweep.hpp"

namespace libcont_python {

class ConfiguredSystem {
 public:
  using Assignments = std::vector<std::pair<std::string, std::string>>;
  enum class Source { Catalogue, ModelFile, ModelText };

  // Throws InputError naming an unknown system, a bad model file (its item) or a bad
  // parameter. `origin`: the catalogue name, the file's path or the JSON text;
  // `source_name` names a text in messages.
  ConfiguredSystem(Source source, std::string origin, Assignments assignments,
                  std::string source_name = "");
  ConfiguredSystem(std::string name, Assignments assignments)
      : ConfiguredSystem(Source::Catalogue, std::move(name), std::move(assignments)) {}

  // Sets parameters (one configure() for all, as vicont does); on an error nothing changes.
  void set(const Assignments& assignments);
  const libcont::HybridSystem& system() const { return *system_; }
  const std::string& name() const { return name_; }
  Source source() const { return source_; }
  const std::string& source_name() const { return source_name_; }
  const Assignments& assignments() const { return assignments_; }

  // A parameter's own name for an old one (eta: omega), with a Python warning saying so;
  // any other name as it is. Call it with the GIL held.
  std::string parameter_name(const std::string& given) const;

  // A fresh copy with every required parameter checked, ready to run.
  std::unique_ptr<libcont::HybridSystem> make() const;
  // The same as a factory for sweeps and basins (thread-safe: it shares nothing).
  libcont::SystemFactory factory() const;
  // This system with more assignments after its own.
  ConfiguredSystem with(const Assignments& more) const;

 private:
  std::function<std::unique_ptr<libcont::HybridSystem>()> base_;  // the model at its defaults
  Source source_;
  std::string name_;  // the origin
  std::string source_name_;
  Assignments assignments_;
  std::shared_ptr<libcont::HybridSystem> system_;
};

}  // namespace libcont_python
