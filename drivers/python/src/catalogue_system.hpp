#pragma once
// A catalogue model as Python sees it: its name, the parameter assignments made so far (in
// order, as text, exactly as vicont's --set gives them) and the configured system. Copies
// are made by replaying the assignments on a fresh model, so that a sweep's threads and a
// branch's restarts see the same system as vicont does with the same --set options.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libcont/hybrid_system.hpp"
#include "libcont/sweep.hpp"

namespace libcont_python {

class CatalogueSystem {
 public:
  using Assignments = std::vector<std::pair<std::string, std::string>>;

  // Throws InputError naming an unknown system or a bad parameter.
  CatalogueSystem(std::string name, Assignments assignments);

  // Sets parameters (one configure() for all, as vicont does); on an error nothing changes.
  void set(const Assignments& assignments);
  const libcont::HybridSystem& system() const { return *system_; }
  const std::string& name() const { return name_; }
  const Assignments& assignments() const { return assignments_; }

  // A fresh copy with every required parameter checked, ready to run.
  std::unique_ptr<libcont::HybridSystem> make() const;
  // The same as a factory for sweeps and basins (thread-safe: it shares nothing).
  libcont::SystemFactory factory() const;
  // This system with more assignments after its own.
  CatalogueSystem with(const Assignments& more) const;

 private:
  std::string name_;
  Assignments assignments_;
  std::shared_ptr<libcont::HybridSystem> system_;
};

}  // namespace libcont_python
