// libcont.System: a catalogue model by name with its parameters, and libcont.systems(), the
// catalogue. Parameter values are given as numbers or, for choices, words; they reach the
// model as the text vicont's --set would give it.
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "configured_system.hpp"
#include "libcont/input_error.hpp"
#include "python_values.hpp"
#include "systems/catalogue.hpp"

namespace py = pybind11;

namespace libcont_python {

namespace {

std::string rule_text(const libcont::Parameter& p) {
  if (!p.choices.empty()) {
    std::string text;
    for (const auto& choice : p.choices) text += (text.empty() ? "" : " | ") + choice;
    return text;
  }
  switch (p.constraint) {
    case libcont::Constraint::Positive: return "> 0";
    case libcont::Constraint::NonNegative: return ">= 0";
    case libcont::Constraint::UnitInterval: return "in [0, 1]";
    case libcont::Constraint::Any: break;
  }
  return "any number";
}

py::object value_of(const libcont::Parameter& p) {
  if (!p.choices.empty()) return py::str(p.choices[static_cast<size_t>(p.value)]);
  if (!p.given) return py::none();
  return py::float_(p.value);
}

py::dict parameters_of(const ConfiguredSystem& s) {
  py::dict values;
  for (const auto& p : s.system().parameters().all()) values[py::str(p.name)] = value_of(p);
  return values;
}

py::list describe(const ConfiguredSystem& s) {
  py::list rows;
  for (const auto& p : s.system().parameters().all()) {
    py::dict row;
    row["name"] = p.name;
    row["value"] = value_of(p);
    row["rule"] = rule_text(p);
    row["description"] = p.description;
    row["unit"] = p.unit;  // "1": nondimensional; "": not declared
    row["required"] = p.required;
    row["optional"] = p.optional;
    rows.append(row);
  }
  return rows;
}

py::object item(const ConfiguredSystem& s, const std::string& name) {
  for (const auto& p : s.system().parameters().all())
    if (p.name == name) return value_of(p);
  throw py::key_error("system " + s.system().name() + " has no parameter '" + name + "'");
}

}  // namespace

void bind_systems(py::module_& m) {
  m.def("systems", [] {
    py::list entries;
    for (const auto& entry : systems::catalogue())
      entries.append(py::make_tuple(entry.name, entry.description));
    return entries;
  });
  py::class_<ConfiguredSystem>(m, "System")
      .def(py::init([](const std::string& name, const py::dict& values) {
             return ConfiguredSystem(name, assignments_from(values));
           }),
           py::arg("name"), py::arg("parameters") = py::dict())
      .def_static("from_model_file",
                  [](const std::string& path, const py::dict& values) {
                    return ConfiguredSystem(ConfiguredSystem::Source::ModelFile, path,
                                           assignments_from(values));
                  })
      .def_static("from_model_text",
                  [](const std::string& text, const std::string& source_name, const py::dict& values) {
                    return ConfiguredSystem(ConfiguredSystem::Source::ModelText, text,
                                           assignments_from(values), source_name);
                  })
      .def("set", [](ConfiguredSystem& s, const py::dict& values) { s.set(assignments_from(values)); })
      .def("copy", [](const ConfiguredSystem& s) { return s.with({}); })
      .def("with_parameters",
           [](const ConfiguredSystem& s, const py::dict& values) { return s.with(assignments_from(values)); })
      .def_property_readonly("name", [](const ConfiguredSystem& s) { return s.system().name(); })
      .def_property_readonly("origin", &ConfiguredSystem::name)
      .def_property_readonly("parameters", &parameters_of)
      .def_property_readonly("assignments", &ConfiguredSystem::assignments)
      .def_property_readonly("state_names",
                             [](const ConfiguredSystem& s) { return s.system().state_names(); })
      .def_property_readonly("dimension", [](const ConfiguredSystem& s) { return s.system().dimension(); })
      .def_property_readonly("forcing_period",
                             [](const ConfiguredSystem& s) { return s.system().forcing_period(); })
      .def_property_readonly("mode_names",
                             [](const ConfiguredSystem& s) {
                               std::vector<std::string> names;
                               for (int k = 0; k < s.system().mode_count(); ++k)
                                 names.push_back(s.system().mode_name(k));
                               return names;
                             })
      .def_property_readonly("default_state",
                             [](const ConfiguredSystem& s) { return to_array(s.system().default_initial_state()); })
      .def("describe", &describe)
      .def("__getitem__", &item)
      .def("__contains__",
           [](const ConfiguredSystem& s, const std::string& name) {
             return s.system().parameters().contains(name);
           })
      .def(py::pickle(
          [](const ConfiguredSystem& s) {
            return py::make_tuple(static_cast<int>(s.source()), s.name(), s.assignments(),
                                  s.source_name());
          },
          [](const py::tuple& t) {
            return ConfiguredSystem(static_cast<ConfiguredSystem::Source>(t[0].cast<int>()),
                                   t[1].cast<std::string>(),
                                   t[2].cast<ConfiguredSystem::Assignments>(),
                                   t[3].cast<std::string>());
          }));
}

}  // namespace libcont_python
