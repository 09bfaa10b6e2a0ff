#pragma once
// A linear structure with unilateral contacts read from a model file
// (doc/models/model-files.md, model_file.hpp): its parameters are the file's, its
// configure() evaluates the file's expressions at the current values and declares the
// structure, so it runs on the same generated code as the shipped models (affine modes on
// the exact flow). Parameters that only the forcing reads are declared forcing parameters,
// their harmonic derivative from the expressions in dual numbers.
#include <memory>

#include "libcont/impacting_structure.hpp"
#include "systems/model_description.hpp"

namespace systems {

class LinearImpactSystem : public libcont::ImpactingStructure {
 public:
  // Adds the description's parameters (and the impact model's) at their defaults and
  // configures; throws libcont::InputError naming the file and the item.
  explicit LinearImpactSystem(std::shared_ptr<const ModelDescription> description);

  std::string name() const override { return description_->name; }
  std::vector<int> displacement_coordinates() const override;
  // The file's initial_state at the current values (zero without one).
  libcont::Vector default_initial_state() const override;
  void configure() override;

  const ModelDescription& description() const { return *description_; }
  // Shared by copies (one per thread of a sweep): parsed once.
  const std::shared_ptr<const ModelDescription>& shared_description() const { return description_; }

 private:
  // The current values: parameters (NaN for a required one not yet set), then the derived
  // values in order.
  std::vector<double> values() const;
  libcont::Matrix mass_matrix(std::span<const double> values) const;
  libcont::UnilateralContact contact(size_t index, std::span<const double> values) const;
  std::vector<libcont::ForcingParameter> forcing_parameters(std::span<const double> values) const;

  std::shared_ptr<const ModelDescription> description_;
};

}  // namespace systems
