#include "systems/model_expression.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <numbers>

#include "libcont/input_error.hpp"

namespace systems {

namespace {

// The operations in doubles: exactly the C++ ones.
double add(double a, double b) { return a + b; }
double subtract(double a, double b) { return a - b; }
double multiply(double a, double b) { return a * b; }
double divide(double a, double b) { return a / b; }
double power(double a, double b) { return std::pow(a, b); }
double negate(double a) { return -a; }
double square_root(double a) { return std::sqrt(a); }
double exponential(double a) { return std::exp(a); }
double sine(double a) { return std::sin(a); }
double cosine(double a) { return std::cos(a); }
double absolute(double a) { return std::abs(a); }
double constant_of(double c, const double*) { return c; }
double value_of(double a) { return a; }

// In dual numbers: the chain rule.
Dual add(Dual a, Dual b) { return {a.value + b.value, a.slope + b.slope}; }
Dual subtract(Dual a, Dual b) { return {a.value - b.value, a.slope - b.slope}; }
Dual multiply(Dual a, Dual b) { return {a.value * b.value, a.slope * b.value + a.value * b.slope}; }
Dual divide(Dual a, Dual b) {
  return {a.value / b.value, (a.slope * b.value - a.value * b.slope) / (b.value * b.value)};
}
Dual power(Dual a, Dual b) {
  const double value = std::pow(a.value, b.value);
  // A constant exponent needs no logarithm (a negative base with an integer exponent).
  if (b.slope == 0.0)
    return {value, a.slope == 0.0 ? 0.0 : b.value * std::pow(a.value, b.value - 1.0) * a.slope};
  return {value, value * (b.slope * std::log(a.value) + b.value * a.slope / a.value)};
}
Dual negate(Dual a) { return {-a.value, -a.slope}; }
Dual square_root(Dual a) {
  const double root = std::sqrt(a.value);
  return {root, a.slope / (2.0 * root)};
}
Dual exponential(Dual a) {
  const double e = std::exp(a.value);
  return {e, e * a.slope};
}
Dual sine(Dual a) { return {std::sin(a.value), std::cos(a.value) * a.slope}; }
Dual cosine(Dual a) { return {std::cos(a.value), -std::sin(a.value) * a.slope}; }
Dual absolute(Dual a) { return {std::abs(a.value), a.value < 0.0 ? -a.slope : a.slope}; }
Dual constant_of(double c, const Dual*) { return {c, 0.0}; }
double value_of(Dual a) { return a.value; }

std::string shortest_text(double value) { return libcont::number_text(value); }

}  // namespace

// Grammar (lowest binding first):
//   sum     := product (('+' | '-') product)*
//   product := unary (('*' | '/') unary)*
//   unary   := '-' unary | power
//   power   := atom ('^' unary)?          (right-associative; -a^2 = -(a^2))
//   atom    := number | name | name '(' sum ')' | '(' sum ')'
class ModelExpression::Parser {
 public:
  Parser(const std::string& text, const NameLookup& lookup, const std::string& where,
         ModelExpression& out)
      : text_(text), lookup_(lookup), where_(where), out_(out) {}

  void parse() {
    // Bounds on the recursion of parsing and evaluating (a hostile file must not overflow
    // the stack): a left-deep sum of 10000 characters is 5000 levels at most.
    if (text_.size() > 10000) fail("expression longer than 10000 characters");
    skip_space();
    if (at_end()) fail("empty expression");
    sum();
    skip_space();
    if (!at_end()) fail(std::string("unexpected '") + text_[pos_] + "'");
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw libcont::InputError(where_ + ": " + what + " at position " + std::to_string(pos_ + 1) +
                              " in \"" + text_ + "\"");
  }
  bool at_end() const { return pos_ >= text_.size(); }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool take(char c) {
    skip_space();
    if (at_end() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  int emit(Node node) {
    out_.nodes_.push_back(node);
    return static_cast<int>(out_.nodes_.size()) - 1;
  }
  int binary(Op op, int left, int right) { return emit({op, 0.0, 0, left, right, {}}); }

  // Every recursion passes here or through unary(): the depth of parentheses, calls,
  // signs and powers.
  struct Nested {
    explicit Nested(Parser& parser) : parser_(parser) {
      if (++parser_.depth_ > 200) parser_.fail("nested more than 200 levels deep");
    }
    ~Nested() { --parser_.depth_; }
    Parser& parser_;
  };

  int sum() {
    const Nested nested(*this);
    int left = product();
    for (;;) {
      if (take('+')) left = binary(Op::Add, left, product());
      else if (take('-')) left = binary(Op::Subtract, left, product());
      else return left;
    }
  }
  int product() {
    int left = unary();
    for (;;) {
      if (take('*')) left = binary(Op::Multiply, left, unary());
      else if (take('/')) left = binary(Op::Divide, left, unary());
      else return left;
    }
  }
  int unary() {
    const Nested nested(*this);
    if (take('-')) return emit({Op::Negate, 0.0, 0, unary(), -1, {}});
    const int base = atom();
    if (take('^')) return binary(Op::Power, base, unary());
    return base;
  }
  int atom() {
    skip_space();
    if (at_end()) fail("expected a number, a name or '('");
    const char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      const int inner = sum();
      if (!take(')')) fail("expected ')'");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
    fail(std::string("expected a number, a name or '(' but found '") + c + "'");
  }
  int number() {
    double value = 0.0;
    const char* begin = text_.data() + pos_;
    const auto [end, error] = std::from_chars(begin, text_.data() + text_.size(), value);
    if (error != std::errc() || !std::isfinite(value)) fail("malformed number");
    pos_ += static_cast<size_t>(end - begin);
    return emit({Op::Constant, value, 0, -1, -1, {}});
  }
  int name() {
    const size_t start = pos_;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    const std::string word = text_.substr(start, pos_ - start);
    skip_space();
    if (!at_end() && text_[pos_] == '(') return call(word, start);
    if (const auto index = lookup_(word)) {
      auto& used = out_.variables_;
      if (std::find(used.begin(), used.end(), *index) == used.end()) used.push_back(*index);
      return emit({Op::Variable, 0.0, *index, -1, -1, {}});
    }
    if (word == "pi") return emit({Op::Constant, std::numbers::pi, 0, -1, -1, {}});
    pos_ = start;
    fail("unknown parameter '" + word + "'");
  }
  int call(const std::string& function, size_t start) {
    if (function == "choose") {
      ++pos_;  // '('
      const int index = sum();
      std::vector<int> choices;
      while (take(',')) choices.push_back(sum());
      if (choices.empty()) fail("expected ',' and the alternatives after the index of choose");
      if (!take(')')) fail("expected ')' after the alternatives of choose");
      return emit({Op::Choose, 0.0, 0, index, -1, std::move(choices)});
    }
    static const std::pair<const char*, Op> functions[] = {
        {"sqrt", Op::Sqrt}, {"exp", Op::Exp}, {"sin", Op::Sin}, {"cos", Op::Cos}, {"abs", Op::Abs}};
    for (const auto& [known, op] : functions)
      if (function == known) {
        ++pos_;  // '('
        const int argument = sum();
        if (!take(')')) fail("expected ')' after the argument of " + function);
        return emit({op, 0.0, 0, argument, -1, {}});
      }
    pos_ = start;
    fail("unknown function '" + function + "' (known: sqrt, exp, sin, cos, abs, choose)");
  }

  const std::string& text_;
  const NameLookup& lookup_;
  const std::string& where_;
  ModelExpression& out_;
  size_t pos_ = 0;
  int depth_ = 0;
};

ModelExpression::ModelExpression(double constant) : text_(shortest_text(constant)) {
  nodes_.push_back({Op::Constant, constant, 0, -1, -1, {}});
}

ModelExpression ModelExpression::parse(const std::string& text, const NameLookup& lookup,
                                       const std::string& where) {
  ModelExpression expression;
  expression.nodes_.clear();
  expression.text_ = text;
  Parser(text, lookup, where, expression).parse();
  std::sort(expression.variables_.begin(), expression.variables_.end());
  return expression;
}

template <class Number>
Number ModelExpression::evaluate_node(int index, std::span<const Number> values) const {
  const Node& n = nodes_[static_cast<size_t>(index)];
  const auto left = [&] { return evaluate_node(n.left, values); };
  const auto right = [&] { return evaluate_node(n.right, values); };
  switch (n.op) {
    case Op::Constant: return constant_of(n.constant, static_cast<const Number*>(nullptr));
    case Op::Variable: return values[static_cast<size_t>(n.variable)];
    case Op::Add: return add(left(), right());
    case Op::Subtract: return subtract(left(), right());
    case Op::Multiply: return multiply(left(), right());
    case Op::Divide: return divide(left(), right());
    case Op::Power: return power(left(), right());
    case Op::Negate: return negate(left());
    case Op::Sqrt: return square_root(left());
    case Op::Exp: return exponential(left());
    case Op::Sin: return sine(left());
    case Op::Cos: return cosine(left());
    case Op::Abs: return absolute(left());
    case Op::Choose: {
      const double index = value_of(left());
      if (!(index >= 0.0) || index != std::floor(index) || index >= static_cast<double>(n.choices.size()))
        return constant_of(std::numeric_limits<double>::quiet_NaN(), static_cast<const Number*>(nullptr));
      return evaluate_node(n.choices[static_cast<size_t>(index)], values);
    }
  }
  return constant_of(0.0, static_cast<const Number*>(nullptr));
}

double ModelExpression::evaluate(std::span<const double> values) const {
  return evaluate_node(static_cast<int>(nodes_.size()) - 1, values);
}

Dual ModelExpression::evaluate(std::span<const Dual> values) const {
  return evaluate_node(static_cast<int>(nodes_.size()) - 1, values);
}

}  // namespace systems
