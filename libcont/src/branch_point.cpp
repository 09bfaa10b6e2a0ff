#include "libcont/branch_point.hpp"

#include <array>
#include <utility>

namespace libcont {

namespace {

constexpr std::array<std::pair<SpecialPointType, std::string_view>, 7> type_names = {{
    {SpecialPointType::Fold, "fold"},
    {SpecialPointType::PeriodDoubling, "period-doubling"},
    {SpecialPointType::NeimarkSacker, "neimark-sacker"},
    {SpecialPointType::Grazing, "grazing"},
    {SpecialPointType::ImpactSignature, "impact-signature"},
    {SpecialPointType::Custom, "custom"},
    {SpecialPointType::UserValue, "user-value"},
}};

}  // namespace

std::string to_string(SpecialPointType type) {
  for (const auto& [t, name] : type_names)
    if (t == type) return std::string(name);
  return "unknown";
}

std::optional<SpecialPointType> special_point_type(std::string_view name) {
  for (const auto& [t, text] : type_names)
    if (text == name && t != SpecialPointType::Custom) return t;
  return std::nullopt;
}

std::string SpecialPoint::type_name() const {
  return type == SpecialPointType::Custom ? custom_name : to_string(type);
}

void SpecialPoint::take_point(const BranchPoint& point) {
  u = point.u;
  lambda = point.lambda;
  tests = point.tests;
  data = point.data;
  chart = point.chart;
}

void SpecialPoint::set_grazing_kind(GrazingKind kind) {
  grazing_kind = kind;
  detail = to_string(kind);
}

}  // namespace libcont
