#include "libcont/parameters.hpp"

#include <atomic>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace libcont {

namespace {

// Appended piecewise: GCC 12 warns (-Wrestrict) about its own inlined "'" + std::string.
std::string quoted(std::string_view s) {
  std::string q;
  q.reserve(s.size() + 2);
  q.append(1, '\'').append(s).append(1, '\'');
  return q;
}

void check(const Parameter& p, double value) {
  if (!std::isfinite(value))
    throw InputError("parameter " + quoted(p.name) + ": value must be a finite number");
  switch (p.constraint) {
    case Constraint::Any: break;
    case Constraint::Positive:
      if (!(value > 0.0))
        throw InputError("parameter " + quoted(p.name) + " must be positive (got " +
                         number_text(value) + ")");
      break;
    case Constraint::NonNegative:
      if (value < 0.0)
        throw InputError("parameter " + quoted(p.name) + " must be non-negative (got " +
                         number_text(value) + ")");
      break;
    case Constraint::UnitInterval:
      if (value < 0.0 || value > 1.0)
        throw InputError("parameter " + quoted(p.name) + " must lie in [0, 1] (got " +
                         number_text(value) + ")");
      break;
  }
}

// Stamps are drawn from one counter, so that no two states of any sets share one.
std::atomic<std::uint64_t> next_revision{1};

}  // namespace

void ParameterSet::mark_changed() {
  revision_ = next_revision.fetch_add(1, std::memory_order_relaxed);
}

double parse_number(std::string_view text, std::string_view item) {
  // strtod accepts forms from_chars rejects (leading '+'); require the whole text.
  std::string s(text);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t start = 0;
  while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start]))) ++start;
  s = s.substr(start);
  if (s.empty()) throw InputError(std::string(item) + ": empty value, expected a number");
  char* end = nullptr;
  const double value = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size())
    throw InputError(std::string(item) + ": " + quoted(s) + " is not a number");
  if (!std::isfinite(value))
    throw InputError(std::string(item) + ": " + quoted(s) + " is not a finite number");
  return value;
}

void ParameterSet::add(std::string name, double value, Constraint constraint,
                       std::string description) {
  Parameter p{std::move(name), value, constraint, std::move(description), {}, false, true, false, {}};
  check(p, value);
  parameters_.push_back(std::move(p));
  mark_changed();
}

void ParameterSet::add_optional(std::string name, Constraint constraint,
                                std::string description) {
  parameters_.push_back(
      Parameter{std::move(name), 0.0, constraint, std::move(description), {}, true, false, false, {}});
  mark_changed();
}

void ParameterSet::add_choice(std::string name, std::vector<std::string> choices,
                              std::string_view initial, std::string description) {
  Parameter p{std::move(name), 0.0, Constraint::Any, std::move(description), std::move(choices),
              false, true, false, {}};
  bool found = false;
  for (size_t i = 0; i < p.choices.size(); ++i)
    if (p.choices[i] == initial) {
      p.value = static_cast<double>(i);
      found = true;
    }
  if (!found) throw InputError("parameter " + quoted(p.name) + ": bad initial choice");
  parameters_.push_back(std::move(p));
  mark_changed();
}

void ParameterSet::add_required(std::string name, Constraint constraint,
                                std::string description) {
  parameters_.push_back(
      Parameter{std::move(name), 0.0, constraint, std::move(description), {}, false, false, true, {}});
  mark_changed();
}

void ParameterSet::check_required() const {
  for (const auto& p : parameters_)
    if (p.required && !p.given)
      throw InputError("parameter " + quoted(p.name) + " is required and has no default (" +
                       p.description + "): set it, e.g. --set " + p.name + "=VALUE");
}

void ParameterSet::set_units(
    std::initializer_list<std::pair<std::string_view, std::string_view>> units) {
  for (const auto& [name, unit] : units) find(name).unit = unit;
}

void ParameterSet::set_remaining_units(std::string_view unit) {
  for (auto& p : parameters_)
    if (p.unit.empty() && p.choices.empty()) p.unit = unit;
}

void ParameterSet::add_alias(std::string alias, std::string name) {
  find(name);  // an alias of nothing is a bug of the system
  if (contains(alias)) throw std::logic_error("parameter alias " + alias + " is taken");
  aliases_.emplace_back(std::move(alias), std::move(name));
}

bool ParameterSet::is_alias(std::string_view name) const {
  for (const auto& [alias, target] : aliases_)
    if (alias == name) return true;
  return false;
}

std::vector<std::string> ParameterSet::aliases_of(std::string_view name) const {
  std::vector<std::string> result;
  for (const auto& [alias, target] : aliases_)
    if (target == name) result.push_back(alias);
  return result;
}

std::string ParameterSet::canonical(std::string_view name) const {
  for (const auto& [alias, target] : aliases_)
    if (alias == name) return target;
  return std::string(name);
}

bool ParameterSet::contains(std::string_view name) const {
  if (is_alias(name)) return true;
  for (const auto& p : parameters_)
    if (p.name == name) return true;
  return false;
}

Parameter& ParameterSet::find(std::string_view given) {
  const std::string name = canonical(given);
  for (auto& p : parameters_)
    if (p.name == name) return p;
  std::string known;
  for (const auto& p : parameters_) known += (known.empty() ? "" : ", ") + p.name;
  throw InputError("unknown parameter " + quoted(name) + " (known: " + known + ")");
}

const Parameter& ParameterSet::find(std::string_view name) const {
  return const_cast<ParameterSet*>(this)->find(name);
}

ParameterSet::Saved ParameterSet::save(std::string_view name) const {
  const Parameter& p = find(name);
  return {static_cast<size_t>(&p - parameters_.data()), p.value, p.given};
}

void ParameterSet::restore(const Saved& saved) {
  Parameter& p = parameters_.at(saved.index);
  p.value = saved.value;
  p.given = saved.given;
  mark_changed();
}

double ParameterSet::operator[](std::string_view name) const {
  const Parameter& p = find(name);
  if (!p.given) throw InputError("parameter " + quoted(p.name) + " is not set");
  return p.value;
}

const std::string& ParameterSet::choice(std::string_view name) const {
  const Parameter& p = find(name);
  if (p.choices.empty()) throw InputError("parameter " + quoted(p.name) + " is not a choice");
  return p.choices[static_cast<size_t>(p.value)];
}

bool ParameterSet::given(std::string_view name) const { return find(name).given; }

void ParameterSet::set(std::string_view name, double value) {
  Parameter& p = find(name);
  if (!p.choices.empty())
    throw InputError("parameter " + quoted(p.name) + " is a choice, not a number");
  check(p, value);
  p.value = value;
  p.given = true;
  mark_changed();
}

void ParameterSet::set_from_text(std::string_view name, std::string_view text) {
  Parameter& p = find(name);
  if (p.choices.empty()) {
    set(name, parse_number(text, "parameter " + quoted(p.name)));
    return;
  }
  for (size_t i = 0; i < p.choices.size(); ++i)
    if (p.choices[i] == text) {
      p.value = static_cast<double>(i);
      mark_changed();
      return;
    }
  std::string known;
  for (const auto& c : p.choices) known += (known.empty() ? "" : " | ") + c;
  throw InputError("parameter " + quoted(p.name) + ": " + quoted(text) + " is not one of " + known);
}

void ParameterSet::unset(std::string_view name) {
  Parameter& p = find(name);
  if (!p.optional) throw InputError("parameter " + quoted(p.name) + " cannot be unset");
  p.given = false;
  mark_changed();
}

std::string ParameterSet::value_text(const Parameter& p) const {
  if (!p.choices.empty()) return p.choices[static_cast<size_t>(p.value)];
  if (!p.given) return p.required ? "required" : "auto";
  std::ostringstream out;
  out.precision(12);
  out << p.value;
  return out.str();
}

}  // namespace libcont
