#pragma once
// An arithmetic expression of a model file over named values: numbers, names, + - * / ^
// (right-associative, by std::pow), parentheses, unary minus, pi, the functions sqrt,
// exp, sin, cos, abs, and choose(i, a0, a1, ...), the argument a_i (i a choice parameter's
// index; NaN for an index out of range). Parsed once into a tree of nodes (recursive descent), evaluated at
// every configure(): in doubles for the model, and in dual numbers (value and derivative
// in one variable) for the derivative of the forcing in a parameter. The double path
// applies exactly the operations written, in the order written, so "k*a" gives the bits
// that k * a gives in C++.
#include <cmath>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace systems {

// A value and its derivative in one variable (forward-mode differentiation).
struct Dual {
  double value = 0.0, slope = 0.0;
};

class ModelExpression {
 public:
  // Looks a name up: its index among the values evaluate() gets, or none if unknown.
  using NameLookup = std::function<std::optional<int>(const std::string&)>;

  // A constant (a number written as a number in the file).
  explicit ModelExpression(double constant = 0.0);
  // Parses `text`; throws libcont::InputError "`where`: <what> at position P in "<text>""
  // for a syntax error or an unknown name (P counts characters from 1).
  static ModelExpression parse(const std::string& text, const NameLookup& lookup,
                               const std::string& where);

  double evaluate(std::span<const double> values) const;
  Dual evaluate(std::span<const Dual> values) const;

  // The indices of the values it reads, ascending, each once.
  const std::vector<int>& variables() const { return variables_; }
  // The text it was parsed from (a number's shortest text for a constant).
  const std::string& text() const { return text_; }

 private:
  enum class Op { Constant, Variable, Add, Subtract, Multiply, Divide, Power, Negate,
                  Sqrt, Exp, Sin, Cos, Abs, Choose };
  struct Node {
    Op op = Op::Constant;
    double constant = 0.0;
    int variable = 0;  // Variable: index into the values
    int left = -1, right = -1;  // operands (unary: left only; Choose: left the index)
    std::vector<int> choices;   // Choose: the alternatives
  };
  class Parser;

  template <class Number>
  Number evaluate_node(int node, std::span<const Number> values) const;

  std::vector<Node> nodes_;  // the root last
  std::vector<int> variables_;
  std::string text_;
};

}  // namespace systems
