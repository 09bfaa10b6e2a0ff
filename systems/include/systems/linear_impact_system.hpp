#pragma once
// A linear structure with unilateral contacts read from a model file
// (doc/models/model-files.md, model_file.hpp): its parameters are the file's, its
// configure() evaluates the file's expressions at the current values and declares the
// structure, so it runs on the same generated code as the shipped models (affine modes on
// the exact flow). Parameters that only the forcing reads are declared forcing parameters,
// their harmonic derivative from the expressions in dual numbers. A random load is an
// additional force (its modes are integrated) whose period is the forcing period.
#include <memory>
#include <optional>

#include "libcont/random_loading.hpp"

#include "libcont/impacting_structure.hpp"
#include "systems/model_description.hpp"

namespace systems {

class LinearImpactSystem : public libcont::ImpactingStructure {
 public:
  // Adds the description's parameters (and the impact model's) at their defaults and
  // configures; throws libcont::InputError naming the file and the item.
  explicit LinearImpactSystem(std::shared_ptr<const ModelDescription> description);

  std::string name() const override { return description_->name; }
  double forcing_period() const override;
  std::vector<int> displacement_coordinates() const override;
  // The file's initial_state at the current values (zero without one).
  libcont::Vector default_initial_state() const override;
  void configure() override;

  const ModelDescription& description() const { return *description_; }
  // Shared by copies (one per thread of a sweep): parsed once.
  const std::shared_ptr<const ModelDescription>& shared_description() const { return description_; }

 protected:
  bool has_additional_force() const override { return random_.has_value(); }
  void additional_force(double t, libcont::ConstVectorRef q, libcont::ConstVectorRef v,
                        libcont::VectorRef force) const override;
  // Zero: the load depends on t alone.
  void additional_force_jacobian(double t, libcont::ConstVectorRef q, libcont::ConstVectorRef v,
                                 libcont::MatrixRef d_dq, libcont::MatrixRef d_dv) const override;
  void force_parameter_derivative(int parameter, double t, libcont::ConstVectorRef q,
                                  libcont::ConstVectorRef v, libcont::VectorRef df_dp) const override;

 private:
  // The current values: parameters (NaN for a required one not yet set), then the derived
  // values in order.
  std::vector<double> values() const;
  // M, K, C from the matrices or a generator; M checked (symmetric positive definite).
  void structure_matrices(std::span<const double> values, libcont::LinearStructure& s) const;
  void check_mass(const libcont::Matrix& mass, const std::string& where) const;
  libcont::UnilateralContact contact(size_t index, std::span<const double> values) const;
  // Under a random load the derivatives go to random_derivatives_ (no harmonic part).
  std::vector<libcont::ForcingParameter> forcing_parameters(std::span<const double> values);
  std::optional<libcont::RandomLoading> random_load(std::span<const double> values) const;

  std::shared_ptr<const ModelDescription> description_;
  std::optional<libcont::RandomLoading> random_;
  libcont::Vector random_weights_;
  // Per forcing parameter under a random load: D_p of the constant force and of the weights.
  struct RandomDerivative {
    libcont::Vector constant_force, weights;
  };
  std::vector<RandomDerivative> random_derivatives_;
};

}  // namespace systems
