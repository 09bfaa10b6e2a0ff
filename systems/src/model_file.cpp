#include "systems/model_file.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "libcont/input_error.hpp"
#include "systems/linear_impact_system.hpp"

namespace systems {

namespace {

using Json = nlohmann::ordered_json;
using libcont::InputError;

std::string key_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}
std::string index_path(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string listed(const std::vector<std::string>& items) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i)
    text += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return text;
}

std::string type_name(const Json& value) {
  if (value.is_string()) return "the string \"" + value.get<std::string>() + "\"";
  return std::string("a ") + value.type_name();
}

// "q3" (appended rather than added: GCC 12 warns about "q" + std::to_string wrongly).
std::string numbered(const char* prefix, int i) {
  std::string name = prefix;
  name += std::to_string(i);
  return name;
}

bool is_identifier(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  return std::all_of(name.begin(), name.end(),
                     [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

const std::vector<std::string> law_names = {"hard", "soft", "hertz", "impact-model", "hertz-friction",
                                            "rheological"};

// The names the impact model adds (impact_model.hpp, add_impact_model_parameters).
const std::vector<std::string> impact_model_names = {"r",     "ks",       "cs",
                                                     "model", "relation", "stick_velocity"};

class Reader {
 public:
  explicit Reader(ModelDescription& d) : d_(d) {}

  void read(const Json& root) {
    if (!root.is_object()) fail("", "expected a JSON object, found " + type_name(root));
    expect_keys(root, "",
                {"name", "description", "parameters", "derived", "impact_model", "coordinates",
                 "velocities", "mass", "stiffness", "damping", "chain", "beam", "forcing", "contacts",
                 "amplitudes", "initial_state", "conditions", "units"});
    d_.name = root.contains("name") ? line(root["name"], "name") : default_name();
    if (root.contains("description")) d_.description = line(root["description"], "description");
    if (root.contains("parameters")) read_parameters(root["parameters"]);
    if (root.contains("units")) read_units(root["units"]);
    if (root.contains("impact_model")) read_impact_model(root["impact_model"]);
    if (root.contains("derived")) read_derived(root["derived"]);
    if (root.contains("conditions")) read_conditions(root["conditions"]);
    read_structure(root);
    if (root.contains("forcing")) read_forcing(root["forcing"]);
    if (root.contains("contacts")) {
      const Json& list = root["contacts"];
      if (!list.is_array()) fail("contacts", "expected an array of contacts");
      for (size_t i = 0; i < list.size(); ++i) d_.contacts.push_back(read_contact(list[i], index_path("contacts", i)));
    }
    if (root.contains("amplitudes")) {
      const Json& list = root["amplitudes"];
      if (!list.is_array()) fail("amplitudes", "expected an array of coordinate names");
      for (size_t i = 0; i < list.size(); ++i)
        d_.amplitude_coordinates.push_back(coordinate_index(list[i], index_path("amplitudes", i)));
    }
    if (root.contains("initial_state")) read_initial_state(root["initial_state"]);
    find_forcing_parameters();
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw InputError(d_.source + ": " + (path.empty() ? "" : path + ": ") + what);
  }

  // Every key known; "comment" is allowed anywhere and ignored.
  void expect_keys(const Json& object, const std::string& path,
                   const std::vector<std::string>& known, const std::string& owner = "") const {
    for (const auto& [key, value] : object.items()) {
      if (key == "comment" || std::find(known.begin(), known.end(), key) != known.end()) continue;
      fail(key_path(path, key), "unknown key" + (owner.empty() ? "" : " for " + owner) +
                                    " (expected " + listed(known) + ")");
    }
  }

  std::string text(const Json& value, const std::string& path) const {
    if (!value.is_string()) fail(path, "expected a string, found " + type_name(value));
    return value.get<std::string>();
  }
  // One line of text for summaries and plot titles: no control characters.
  std::string line(const Json& value, const std::string& path) const {
    std::string result = text(value, path);
    if (result.empty() || std::any_of(result.begin(), result.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
      fail(path, "expected one line of text, not empty and without control characters");
    return result;
  }
  // A name in mode and event names (columns of events.csv): letters, digits, _ and -.
  std::string label(const Json& value, const std::string& path) const {
    std::string result = text(value, path);
    if (result.empty() || !std::all_of(result.begin(), result.end(),
                                       [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '-'; }))
      fail(path, "'" + result + "' is not a name (letters, digits, _ and -)");
    return result;
  }
  double number(const Json& value, const std::string& path) const {
    if (!value.is_number()) fail(path, "expected a number, found " + type_name(value));
    return value.get<double>();
  }

  std::string default_name() const {
    const std::string stem = std::filesystem::path(d_.source).stem().string();
    return stem.empty() ? "model" : stem;
  }

  std::optional<int> lookup(const std::string& name) const {
    for (size_t i = 0; i < d_.parameters.size(); ++i)
      if (d_.parameters[i].name == name) return static_cast<int>(i);
    for (size_t i = 0; i < d_.derived.size(); ++i)
      if (d_.derived[i].name == name) return static_cast<int>(d_.parameters.size() + i);
    return std::nullopt;
  }

  ModelExpression expression(const Json& value, const std::string& path) const {
    if (value.is_number()) return ModelExpression(value.get<double>());
    if (!value.is_string())
      fail(path, "expected a number or an expression (a string), found " + type_name(value));
    return ModelExpression::parse(
        value.get<std::string>(), [this](const std::string& name) { return lookup(name); },
        d_.source + ": " + path);
  }

  void check_new_name(const std::string& name, const std::string& path) const {
    if (!is_identifier(name))
      fail(path, "'" + name + "' is not a name (letters, digits and _, not starting with a digit)");
    static const std::set<std::string> reserved = {"pi", "sqrt", "exp", "sin", "cos", "abs", "choose"};
    if (reserved.count(name)) fail(path, "'" + name + "' is reserved (a constant or a function)");
    if (lookup(name)) fail(path, "'" + name + "' is declared twice");
  }

  void read_parameters(const Json& object) {
    if (!object.is_object()) fail("parameters", "expected an object of named parameters");
    for (const auto& [name, entry] : object.items()) {
      const std::string path = key_path("parameters", name);
      check_new_name(name, path);
      ModelParameter p;
      p.name = name;
      if (entry.is_number()) {
        p.value = entry.get<double>();
      } else if (entry.is_object()) {
        expect_keys(entry, path, {"default", "rule", "description", "unit", "required", "choices", "otherwise",
                                  "old_names"});
        p.required = flag(entry, "required", path);
        p.optional = entry.contains("otherwise");
        if (entry.contains("choices")) {
          read_choices(entry, path, p);
        } else {
          if ((p.required || p.optional) == entry.contains("default"))
            fail(path, p.required   ? "a required parameter has no default"
                       : p.optional ? "a parameter derived 'otherwise' has no default"
                                    : "expected a default");
          if (p.required && p.optional) fail(path, "required or derived 'otherwise', not both");
          if (!p.required && !p.optional) p.value = number(entry["default"], key_path(path, "default"));
          // Before the name is declared: it may use the parameters above it only.
          if (p.optional) p.otherwise = expression(entry["otherwise"], key_path(path, "otherwise"));
        }
        if (entry.contains("rule")) p.rule = rule(entry["rule"], key_path(path, "rule"));
        if (entry.contains("description")) p.description = text(entry["description"], key_path(path, "description"));
        if (entry.contains("unit")) {
          p.unit = text(entry["unit"], key_path(path, "unit"));
          p.description += (p.description.empty() ? "[" : " [") + p.unit + "]";
        }
        if (entry.contains("old_names")) read_old_names(entry["old_names"], key_path(path, "old_names"), p);
      } else {
        fail(path, "expected a default value or an object with default, rule, description, unit");
      }
      d_.parameters.push_back(p);
    }
  }

  // "units": {"coordinates": "m", "time": "s", "parameters": "1"}, the units of q and t
  // (the state's units follow from them) and of every parameter without a "unit" of its own.
  void read_units(const Json& object) {
    if (!object.is_object()) fail("units", "expected an object with coordinates, time, parameters");
    expect_keys(object, "units", {"coordinates", "time", "parameters"});
    if (object.contains("parameters"))
      d_.parameter_unit = line(object["parameters"], key_path("units", "parameters"));
    if (object.contains("coordinates"))
      d_.coordinate_unit = line(object["coordinates"], key_path("units", "coordinates"));
    if (object.contains("time")) d_.time_unit = line(object["time"], key_path("units", "time"));
  }

  bool flag(const Json& object, const char* key, const std::string& path) const {
    if (!object.contains(key)) return false;
    if (!object[key].is_boolean()) fail(key_path(path, key), "expected true or false");
    return object[key].get<bool>();
  }

  // Earlier names of a parameter: names like the parameter's, none declared before.
  void read_old_names(const Json& list, const std::string& path, ModelParameter& p) const {
    if (!list.is_array()) fail(path, "expected an array of names");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string item = index_path(path, i);
      const std::string name = label(list[i], item);
      check_new_name(name, item);
      p.old_names.push_back(name);
    }
  }

  // A named choice: its names, and the default one of them (expressions see its index).
  void read_choices(const Json& entry, const std::string& path, ModelParameter& p) const {
    const Json& list = entry["choices"];
    if (!list.is_array() || list.empty()) fail(key_path(path, "choices"), "expected an array of names");
    for (size_t i = 0; i < list.size(); ++i) p.choices.push_back(label(list[i], index_path(key_path(path, "choices"), i)));
    for (const char* key : {"rule", "required", "otherwise", "unit"})
      if (entry.contains(key)) fail(key_path(path, key), "not for a choice");
    p.choice = entry.contains("default") ? text(entry["default"], key_path(path, "default")) : p.choices.front();
    if (std::find(p.choices.begin(), p.choices.end(), p.choice) == p.choices.end())
      fail(key_path(path, "default"), "'" + p.choice + "' is not one of the choices");
  }

  libcont::Constraint rule(const Json& value, const std::string& path) const {
    const std::string name = text(value, path);
    if (name == "positive") return libcont::Constraint::Positive;
    if (name == "non-negative") return libcont::Constraint::NonNegative;
    if (name == "any") return libcont::Constraint::Any;
    if (name == "unit-interval") return libcont::Constraint::UnitInterval;
    fail(path, "unknown rule '" + name + "'; expected positive, non-negative, any or unit-interval");
  }

  void read_impact_model(const Json& object) {
    if (!object.is_object()) fail("impact_model", "expected an object");
    expect_keys(object, "impact_model", {"restitution", "contact_stiffness", "resting"});
    ImpactModelDefaults defaults;
    if (object.contains("restitution"))
      defaults.restitution = number(object["restitution"], "impact_model.restitution");
    if (object.contains("contact_stiffness"))
      defaults.contact_stiffness = number(object["contact_stiffness"], "impact_model.contact_stiffness");
    if (object.contains("resting")) defaults.resting = text(object["resting"], "impact_model.resting");
    for (const auto& name : impact_model_names)
      if (lookup(name))
        fail(key_path("parameters", name), "'" + name + "' is also a parameter of impact_model");
    d_.impact_model = defaults;
  }

  void read_derived(const Json& object) {
    if (!object.is_object()) fail("derived", "expected an object of named expressions");
    for (const auto& [name, value] : object.items()) {
      const std::string path = key_path("derived", name);
      check_new_name(name, path);
      ModelExpression e = expression(value, path);  // before the name: no self-reference
      d_.derived.push_back({name, std::move(e)});
    }
  }

  void read_conditions(const Json& list) {
    if (!list.is_array()) fail("conditions", "expected an array of {\"positive\": EXPR, \"message\": TEXT}");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string path = index_path("conditions", i);
      if (!list[i].is_object()) fail(path, "expected {\"positive\": EXPR, \"message\": TEXT}");
      expect_keys(list[i], path, {"positive", "message"});
      if (!list[i].contains("positive") || !list[i].contains("message")) fail(path, "needs 'positive' and 'message'");
      d_.conditions.push_back({expression(list[i]["positive"], key_path(path, "positive")),
                               text(list[i]["message"], key_path(path, "message"))});
    }
  }

  ExpressionMatrix matrix(const Json& value, const std::string& path) const {
    if (!value.is_array()) {
      if (d_.size != 1) fail(path, "expected a " + std::to_string(d_.size) + " x " + std::to_string(d_.size) + " matrix (an array of rows)");
      return {{expression(value, path)}};
    }
    ExpressionMatrix rows;
    for (size_t i = 0; i < value.size(); ++i) {
      const std::string row_path = index_path(path, i);
      if (!value[i].is_array()) fail(row_path, "expected a row (an array), found " + type_name(value[i]));
      if (value[i].size() != value.size())
        fail(row_path, "has " + std::to_string(value[i].size()) + " entries in a matrix of " +
                           std::to_string(value.size()) + " rows (expected a square matrix)");
      ExpressionVector row;
      for (size_t j = 0; j < value[i].size(); ++j) row.push_back(expression(value[i][j], index_path(row_path, j)));
      rows.push_back(std::move(row));
    }
    if (d_.size > 0 && static_cast<int>(rows.size()) != d_.size)
      fail(path, "is " + std::to_string(rows.size()) + " x " + std::to_string(rows.size()) +
                     ", expected " + std::to_string(d_.size) + " x " + std::to_string(d_.size) +
                     " (the size of the mass matrix)");
    return rows;
  }

  void read_structure(const Json& root) {
    if (root.contains("chain") && root.contains("beam")) fail("beam", "given with a chain (one generator)");
    if (root.contains("chain") || root.contains("beam")) {
      const char* generator = root.contains("chain") ? "chain" : "beam";
      for (const char* key : {"mass", "stiffness", "damping"})
        if (root.contains(key)) fail(key, std::string("given with a ") + generator + " (the " + generator + " generates it)");
      if (root.contains("chain")) read_chain(root["chain"]);
      else read_beam(root["beam"]);
    } else {
      if (!root.contains("mass")) fail("", "no 'mass' (a matrix, or a number for one degree of freedom), no 'chain' and no 'beam'");
      const Json& mass = root["mass"];
      d_.size = mass.is_array() ? static_cast<int>(mass.size()) : 1;
      // As the chain's bound: the structure keeps dense n x n matrices per mode.
      if (d_.size < 1 || d_.size > 1000) fail("mass", "expected 1 to 1000 degrees of freedom");
      d_.mass = matrix(mass, "mass");
      if (root.contains("stiffness")) d_.stiffness = matrix(root["stiffness"], "stiffness");
      if (root.contains("damping")) d_.damping = matrix(root["damping"], "damping");
    }
    for (const auto& [key, target] : {std::pair{"coordinates", &d_.coordinates}, std::pair{"velocities", &d_.velocities}}) {
      if (!root.contains(key)) continue;
      const Json& list = root[key];
      if (!list.is_array() || static_cast<int>(list.size()) != d_.size)
        fail(key, "expected an array of " + std::to_string(d_.size) + " names (one per degree of freedom)");
      for (size_t i = 0; i < list.size(); ++i) {
        const std::string name = text(list[i], index_path(key, i));
        // They head the columns of CSV files and gnuplot scripts: plain names only.
        if (!is_identifier(name))
          fail(index_path(key, i), "'" + name + "' is not a name (letters, digits and _, not starting with a digit)");
        if (std::find(d_.coordinates.begin(), d_.coordinates.end(), name) != d_.coordinates.end() ||
            std::find(target->begin(), target->end(), name) != target->end())
          fail(index_path(key, i), "'" + name + "' is named twice");
        target->push_back(name);
      }
    }
  }

  // The n of a generator: the number of degrees of freedom.
  int generator_size(const Json& object, const std::string& path) {
    const Json& n = object.contains("n") ? object["n"] : Json();
    if (!n.is_number_integer() || !(n.get<double>() >= 1.0 && n.get<double>() <= 1000.0))
      fail(key_path(path, "n"), "expected a whole number of masses in [1, 1000]");
    d_.size = n.get<int>();
    return d_.size;
  }
  // An expression at object[key] if there is one; a required key missing is an error.
  void field(const Json& object, const std::string& path, const char* key, ModelExpression& target,
             bool required) const {
    if (object.contains(key)) target = expression(object[key], key_path(path, key));
    else if (required) fail(path, std::string("no '") + key + "'");
  }

  void read_chain(const Json& chain) {
    if (!chain.is_object()) fail("chain", "expected an object");
    expect_keys(chain, "chain", {"n", "mass", "stiffness", "damping", "spring_damping", "ends"});
    ChainGenerator g;
    g.count = generator_size(chain, "chain");
    field(chain, "chain", "mass", g.mass, true);
    field(chain, "chain", "stiffness", g.stiffness, true);
    field(chain, "chain", "damping", g.damping, false);
    field(chain, "chain", "spring_damping", g.spring_damping, false);
    if (chain.contains("ends")) {
      const std::string ends = text(chain["ends"], "chain.ends");
      if (ends == "fixed-free") g.first_fixed = true, g.last_fixed = false;
      else if (ends == "fixed-fixed") g.first_fixed = true, g.last_fixed = true;
      else if (ends == "free-free") g.first_fixed = false, g.last_fixed = false;
      else if (ends == "free-fixed") g.first_fixed = false, g.last_fixed = true;
      else fail("chain.ends", "unknown ends '" + ends + "'; expected fixed-free, fixed-fixed, free-fixed or free-free");
    }
    d_.chain = std::move(g);
  }

  void read_beam(const Json& beam) {
    if (!beam.is_object()) fail("beam", "expected an object");
    expect_keys(beam, "beam", {"n", "length", "EI", "mass", "tip_mass", "damping", "supports"});
    BeamGenerator g;
    g.count = generator_size(beam, "beam");
    field(beam, "beam", "length", g.length, true);
    field(beam, "beam", "EI", g.rigidity, true);
    field(beam, "beam", "mass", g.mass, true);
    field(beam, "beam", "tip_mass", g.tip_mass, false);
    field(beam, "beam", "damping", g.damping, false);
    if (beam.contains("supports")) {
      const std::string supports = text(beam["supports"], "beam.supports");
      if (supports == "pinned-pinned") g.supports = BeamSupports::PinnedPinned;
      else if (supports != "clamped-free") fail("beam.supports", "unknown supports '" + supports + "'; expected clamped-free or pinned-pinned");
    }
    if (g.supports == BeamSupports::PinnedPinned && beam.contains("tip_mass"))
      fail("beam.tip_mass", "only on a clamped-free beam");
    d_.beam = std::move(g);
  }

  // A coordinate's index from its name (or its 1-based number).
  int coordinate_index(const Json& value, const std::string& path) const {
    if (value.is_number_integer()) {
      const int i = value.get<int>();
      if (i < 1 || i > d_.size) fail(path, "no coordinate " + std::to_string(i) + " (1.." + std::to_string(d_.size) + ")");
      return i - 1;
    }
    return coordinate_named(text(value, path), path);
  }
  int coordinate_named(const std::string& name, const std::string& path) const {
    for (int i = 0; i < d_.size; ++i)
      if (name == coordinate_name(i)) return i;
    std::vector<std::string> known;
    for (int i = 0; i < d_.size; ++i) known.push_back(coordinate_name(i));
    fail(path, "no coordinate '" + name + "' (coordinates: " + listed(known) + ")");
  }
  // As the structure names them by default (impacting_structure.hpp).
  std::string coordinate_name(int i) const {
    if (!d_.coordinates.empty()) return d_.coordinates[static_cast<size_t>(i)];
    return d_.size == 1 ? "x" : numbered("q", i + 1);
  }

  // An array of one entry per degree of freedom, or an object by coordinate name (the
  // others zero).
  ExpressionVector by_coordinate(const Json& value, const std::string& path) const {
    ExpressionVector v(static_cast<size_t>(d_.size), ModelExpression(0.0));
    if (value.is_object()) {
      for (const auto& [name, entry] : value.items())
        v[static_cast<size_t>(coordinate_named(name, key_path(path, name)))] = expression(entry, key_path(path, name));
      return v;
    }
    if (d_.size == 1 && !value.is_array()) return {expression(value, path)};
    if (!value.is_array() || static_cast<int>(value.size()) != d_.size)
      fail(path, "expected " + std::to_string(d_.size) + " entries (one per degree of freedom) or an object by coordinate name");
    for (size_t i = 0; i < value.size(); ++i) v[i] = expression(value[i], index_path(path, i));
    return v;
  }

  void read_forcing(const Json& forcing) {
    if (!forcing.is_object()) fail("forcing", "expected an object");
    expect_keys(forcing, "forcing", {"frequency", "constant", "cos", "sin", "random"});
    if (forcing.contains("frequency")) d_.frequency = expression(forcing["frequency"], "forcing.frequency");
    if (forcing.contains("constant")) d_.constant_force = by_coordinate(forcing["constant"], "forcing.constant");
    if (forcing.contains("cos")) d_.cosine_force = by_coordinate(forcing["cos"], "forcing.cos");
    if (forcing.contains("sin")) d_.sine_force = by_coordinate(forcing["sin"], "forcing.sin");
    if ((forcing.contains("cos") || forcing.contains("sin")) && !forcing.contains("frequency"))
      fail("forcing", "harmonic forces need a 'frequency'");
    if (forcing.contains("random")) {
      for (const char* key : {"frequency", "cos", "sin"})
        if (forcing.contains(key))
          fail(key_path("forcing", key), "not with a random load (its period is the forcing period)");
      read_random(forcing["random"]);
    }
  }

  void read_random(const Json& random) {
    const std::string path = "forcing.random";
    if (!random.is_object()) fail(path, "expected an object");
    expect_keys(random, path, {"on", "sigma", "theta", "alpha", "components", "step", "seed"});
    if (!random.contains("on")) fail(path, "no 'on' (the load's weight on each coordinate)");
    RandomForcing r;
    r.weights = by_coordinate(random["on"], key_path(path, "on"));
    for (const auto& [key, target] : {std::pair{"sigma", &r.sigma}, std::pair{"theta", &r.theta},
                                      std::pair{"alpha", &r.alpha}, std::pair{"components", &r.components},
                                      std::pair{"step", &r.step}, std::pair{"seed", &r.seed}})
      if (random.contains(key)) *target = expression(random[key], key_path(path, key));
    d_.random_forcing = std::move(r);
  }

  // An array of 2 n entries (q, then v) or an object by coordinate and velocity name.
  void read_initial_state(const Json& value) {
    const size_t n = static_cast<size_t>(d_.size);
    d_.initial_state.assign(2 * n, ModelExpression(0.0));
    if (value.is_array()) {
      if (value.size() != 2 * n)
        fail("initial_state", "expected " + std::to_string(2 * n) + " entries (the coordinates, then the velocities)");
      for (size_t i = 0; i < value.size(); ++i) d_.initial_state[i] = expression(value[i], index_path("initial_state", i));
      return;
    }
    if (!value.is_object()) fail("initial_state", "expected an array or an object by coordinate and velocity name");
    for (const auto& [name, entry] : value.items()) {
      const std::string path = key_path("initial_state", name);
      size_t index = 2 * n;
      for (size_t i = 0; i < n; ++i) {
        if (name == coordinate_name(static_cast<int>(i))) index = i;
        if (name == velocity_name(static_cast<int>(i))) index = n + i;
      }
      if (index == 2 * n) fail(path, "no coordinate or velocity '" + name + "'");
      d_.initial_state[index] = expression(entry, path);
    }
  }
  std::string velocity_name(int i) const {
    if (!d_.velocities.empty()) return d_.velocities[static_cast<size_t>(i)];
    return d_.size == 1 ? "v" : numbered("v", i + 1);
  }

  ModelContact read_contact(const Json& object, const std::string& path);
  void read_surface(const Json& value, const std::string& path, ModelContact& c) const;
  void find_forcing_parameters();

  ModelDescription& d_;
};

ModelContact Reader::read_contact(const Json& object, const std::string& path) {
  if (!object.is_object()) fail(path, "expected an object (name, normal, surface, law, ...)");
  ModelContact c;
  static const std::vector<std::string> common = {"name", "closed_name", "normal", "surface", "law"};
  if (!object.contains("law")) fail(path, "no 'law' (" + listed(law_names) + ")");
  const std::string law = text(object["law"], key_path(path, "law"));
  std::vector<std::string> own;
  if (law == "hard") c.law = ModelContact::Law::Hard, own = {"restitution", "stick_velocity"};
  else if (law == "soft") c.law = ModelContact::Law::Soft, own = {"stiffness", "damping", "restitution", "mass", "relation"};
  else if (law == "hertz") c.law = ModelContact::Law::Hertz, own = {"stiffness", "exponent", "damping"};
  else if (law == "impact-model") c.law = ModelContact::Law::ImpactModel, own = {"mass"};
  else if (law == "hertz-friction") c.law = ModelContact::Law::HertzFriction, own = {"stiffness", "exponent", "restitution"};
  else if (law == "rheological") c.law = ModelContact::Law::Rheological, own = {"damper", "k1", "k2", "c", "T0"};
  else fail(key_path(path, "law"), "unknown law '" + law + "'; expected " + listed(law_names));
  std::vector<std::string> known = common;
  known.insert(known.end(), own.begin(), own.end());
  expect_keys(object, path, known, "a " + law + " contact");

  c.name = object.contains("name") ? label(object["name"], key_path(path, "name")) : numbered("contact", static_cast<int>(d_.contacts.size()) + 1);
  if (object.contains("closed_name")) c.closed_name = label(object["closed_name"], key_path(path, "closed_name"));
  if (!object.contains("normal")) fail(path, "no 'normal' (the gap's coefficients of the coordinates)");
  c.normal = by_coordinate(object["normal"], key_path(path, "normal"));
  if (object.contains("surface")) read_surface(object["surface"], key_path(path, "surface"), c);

  const auto field = [&](const char* key, ModelExpression& target, bool required) {
    if (object.contains(key)) target = expression(object[key], key_path(path, key));
    else if (required) fail(path, "a " + law + " contact needs '" + key + "'");
  };
  switch (c.law) {
    case ModelContact::Law::Hard:
      field("restitution", c.restitution, true);
      field("stick_velocity", c.stick_velocity, false);
      break;
    case ModelContact::Law::Soft:
      field("stiffness", c.stiffness, true);
      c.damping_from_restitution = object.contains("restitution");
      if (c.damping_from_restitution) {
        if (object.contains("damping")) fail(path, "give either 'damping' or 'restitution' (with 'mass'), not both");
        field("restitution", c.restitution, true);
        field("mass", c.mass, true);
        if (object.contains("relation")) {
          const std::string relation = text(object["relation"], key_path(path, "relation"));
          if (relation == "approximate") c.relation = libcont::EnergyRelation::Approximate;
          else if (relation != "exact") fail(key_path(path, "relation"), "unknown relation '" + relation + "'; expected exact or approximate");
        }
      } else {
        for (const char* key : {"mass", "relation"})
          if (object.contains(key)) fail(key_path(path, key), "only with 'restitution' (the damping derived from it)");
        field("damping", c.damping, false);
      }
      break;
    case ModelContact::Law::Hertz:
      field("stiffness", c.stiffness, true);
      field("exponent", c.exponent, false);
      field("damping", c.damping, false);
      break;
    case ModelContact::Law::HertzFriction:
      field("stiffness", c.stiffness, true);
      field("exponent", c.exponent, true);
      field("restitution", c.restitution, true);
      break;
    case ModelContact::Law::Rheological: {
      if (!object.contains("damper")) fail(path, "a rheological contact needs 'damper' (viscoelastic, viscoplastic or elastoplastic)");
      const std::string damper = text(object["damper"], key_path(path, "damper"));
      if (damper == "viscoelastic") c.damper = libcont::RheologicalLaw::Viscoelastic;
      else if (damper == "viscoplastic") c.damper = libcont::RheologicalLaw::ElasticViscoplastic;
      else if (damper == "elastoplastic") c.damper = libcont::RheologicalLaw::Elastoplastic;
      else fail(key_path(path, "damper"), "unknown damper '" + damper + "'; expected viscoelastic, viscoplastic or elastoplastic");
      field("k1", c.stiffness, true);
      field("k2", c.second_stiffness, c.damper != libcont::RheologicalLaw::ElasticViscoplastic);
      field("c", c.damping, c.damper != libcont::RheologicalLaw::Elastoplastic);
      field("T0", c.limit_force, c.damper != libcont::RheologicalLaw::Viscoelastic);
      break;
    }
    case ModelContact::Law::ImpactModel:
      if (!d_.impact_model) fail(key_path(path, "law"), "impact-model needs a top-level 'impact_model' (its parameters)");
      field("mass", c.mass, true);
      break;
  }
  return c;
}

void Reader::read_surface(const Json& value, const std::string& path, ModelContact& c) const {
  if (!value.is_object()) {
    c.offset = expression(value, path);  // a fixed stop
    return;
  }
  expect_keys(value, path, {"offset", "sine", "cosine", "amplitude", "phase"});
  if (value.contains("offset")) c.offset = expression(value["offset"], key_path(path, "offset"));
  const bool polar = value.contains("amplitude") || value.contains("phase");
  if (polar && (value.contains("sine") || value.contains("cosine")))
    fail(path, "give either sine and cosine or amplitude and phase");
  c.moves = polar || value.contains("sine") || value.contains("cosine");
  if (c.moves && d_.random_forcing) fail(path, "a surface cannot move under a random load (no forcing frequency)");
  if (value.contains("sine")) c.sine = expression(value["sine"], key_path(path, "sine"));
  if (value.contains("cosine")) c.cosine = expression(value["cosine"], key_path(path, "cosine"));
  if (polar) {
    c.polar = true;
    if (value.contains("amplitude")) c.sine = expression(value["amplitude"], key_path(path, "amplitude"));
    if (value.contains("phase")) c.cosine = expression(value["phase"], key_path(path, "phase"));
  }
}

// A parameter read by the forcing vectors (directly or through derived values) and by
// nothing else: the modes stay affine in it, and its harmonic derivative is exact.
void Reader::find_forcing_parameters() {
  const int count = static_cast<int>(d_.parameters.size());
  // The parameters each value reads: a parameter itself and, derived unless given, those
  // its `otherwise` reads; a derived value those of its expression.
  std::vector<std::set<int>> value_reads;
  const auto reads = [&](const ModelExpression& e) {
    std::set<int> result;
    for (int v : e.variables()) result.insert(value_reads[static_cast<size_t>(v)].begin(), value_reads[static_cast<size_t>(v)].end());
    return result;
  };
  for (int i = 0; i < count; ++i) {
    const auto& otherwise = d_.parameters[static_cast<size_t>(i)].otherwise;
    std::set<int> own = otherwise ? reads(*otherwise) : std::set<int>{};
    own.insert(i);
    value_reads.push_back(std::move(own));
  }
  for (const auto& value : d_.derived) value_reads.push_back(reads(value.expression));
  std::set<int> in_forcing, elsewhere;
  const auto add = [&](std::set<int>& target, const ModelExpression& e) {
    const auto r = reads(e);
    target.insert(r.begin(), r.end());
  };
  for (const auto* v : {&d_.constant_force, &d_.cosine_force, &d_.sine_force})
    for (const auto& e : *v) add(in_forcing, e);
  if (const auto& r = d_.random_forcing) {
    for (const auto& e : r->weights) add(in_forcing, e);
    for (const auto* e : {&r->sigma, &r->theta, &r->alpha, &r->components, &r->step, &r->seed}) add(elsewhere, *e);
  }
  for (const auto* m : {&d_.mass, &d_.stiffness, &d_.damping})
    for (const auto& row : *m)
      for (const auto& e : row) add(elsewhere, e);
  if (d_.chain)
    for (const auto* e : {&d_.chain->mass, &d_.chain->stiffness, &d_.chain->damping, &d_.chain->spring_damping})
      add(elsewhere, *e);
  if (d_.beam)
    for (const auto* e : {&d_.beam->length, &d_.beam->rigidity, &d_.beam->mass, &d_.beam->tip_mass, &d_.beam->damping})
      add(elsewhere, *e);
  add(elsewhere, d_.frequency);
  for (const auto& c : d_.contacts) {
    for (const auto& e : c.normal) add(elsewhere, e);
    for (const auto* e : {&c.offset, &c.sine, &c.cosine, &c.restitution, &c.stick_velocity, &c.stiffness,
                          &c.damping, &c.exponent, &c.mass, &c.second_stiffness, &c.limit_force})
      add(elsewhere, *e);
  }
  for (int p : in_forcing)
    if (!elsewhere.count(p)) d_.forcing_parameters.push_back(p);
}

}  // namespace

std::shared_ptr<const ModelDescription> parse_model_description(const std::string& text,
                                                                const std::string& source_name) {
  auto description = std::make_shared<ModelDescription>();
  description->source = source_name;
  description->text = text;
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::exception& error) {  // a syntax error, or a number out of range
    throw InputError(source_name + ": not valid JSON (" + error.what() + ")");
  }
  Reader(*description).read(root);
  return description;
}

std::shared_ptr<const ModelDescription> read_model_description(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path.string() + ": cannot read the model file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_model_description(text.str(), path.string());
}

std::unique_ptr<libcont::HybridSystem> model_from_file(const std::filesystem::path& path) {
  return std::make_unique<LinearImpactSystem>(read_model_description(path));
}

std::unique_ptr<libcont::HybridSystem> model_from_json_text(const std::string& text,
                                                            const std::string& source_name) {
  return std::make_unique<LinearImpactSystem>(parse_model_description(text, source_name));
}

}  // namespace systems
