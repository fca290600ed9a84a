//===- SemaCasts.cpp - Conversions by type name, and round() -------------===//
//
// float32(x), int(x), np.int8(v), float('inf'): C's conversions with
// Python's constants folded (and refused where NumPy 2 raises); round(x)
// and round(x, ndigits), which convert a float to an integer too.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace pyk::sema {

using namespace ast;
using llvm::dyn_cast;
using llvm::isa;

/// `value` truncated toward zero, as an int of `to`'s range; none for NaN,
/// an infinity or a value past the range.
static std::optional<ConstantValue> truncateToInteger(double value, ScalarKind to) {
  const unsigned bits = byteWidth(to) * 8;
  const bool isSigned = isSignedInteger(to);
  // Both ends are powers of two, exact in a double.
  const double lowest = isSigned ? -std::ldexp(1.0, int(bits) - 1) : 0.0;
  const double pastHighest = std::ldexp(1.0, isSigned ? int(bits) - 1 : int(bits));
  const double truncated = std::trunc(value);
  if (!(truncated >= lowest && truncated < pastHighest))
    return std::nullopt;
  if (truncated >= 0x1p63)
    return ConstantValue::ofUInt64(static_cast<uint64_t>(truncated));
  return ConstantValue::ofInt(static_cast<int64_t>(truncated));
}

/// Why the float constant `value` has no `to` value (Python's words for
/// NaN and the infinities).
static std::string floatNotConvertible(double value, ScalarKind to) {
  const std::string name = scalarName(to).data();
  if (std::isnan(value))
    return "cannot convert float NaN to " + name;
  if (std::isinf(value))
    return "cannot convert float " + std::string(value < 0 ? "-" : "") + "infinity to " + name;
  // The shortest digits that read back as `value`, as Python's repr.
  char digits[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(digits, sizeof digits, "%.*g", precision, value);
    if (std::strtod(digits, nullptr) == value)
      break;
  }
  return "float " + std::string(digits) + " does not fit in " + name;
}

/// float32(x), int(x), bool(x): C's conversion (int() truncates toward
/// zero, as Python's does); a float past an integer type's range gives the
/// nearest end of it, NaN gives 0 (lowered as a saturating Cast).
const Type *Sema::checkCast(CallExpr &expr, ScalarKind to) {
  const std::string name = scalarName(to).data();
  // Arity errors name the callee as written: int(), not int64().
  std::string spelled = name;
  if (auto *callee = dyn_cast<NameExpr>(expr.callee.get()))
    spelled = callee->name;
  else if (auto *attribute = dyn_cast<AttributeExpr>(expr.callee.get()))
    if (auto *module = dyn_cast<NameExpr>(attribute->object.get()))
      spelled = module->name + "." + attribute->attribute;
  if (!requirePositional(expr, spelled.c_str(), 1, 1))
    return setType(expr, types_.errorType());
  Expr &value = *expr.args.front();
  if (auto *text = dyn_cast<StringLiteralExpr>(&value); text && isFloat(to))
    return checkFloatFromString(expr, *text, to);
  const Type *type = checkValue(value);
  if (type->isError())
    return setType(expr, types_.errorType());
  if (!type->isScalar()) {
    error(value.range()) << "cannot convert " << describe(value) << " to " << name;
    return setType(expr, types_.errorType());
  }
  if (to != ScalarKind::Bool && !checkNotComplexToReal(type, value.range(), to, "convert"))
    return setType(expr, types_.errorType());
  // np.int8(200) raises in NumPy 2: a Python int must fit the type.
  if (value.isWeak && isInteger(to) && to != ScalarKind::Bool && !checkLiteralFits(value, to))
    return setType(expr, types_.errorType());
  // A complex value has no constant: ComplexMake makes it when the kernel runs.
  if (value.constant && !value.constant->exceedsInt64 && !isComplex(to)) {
    const ConstantValue &c = *value.constant;
    if (to == ScalarKind::Bool)
      expr.constant = ConstantValue::ofBool(c.asDouble() != 0);
    else if (isFloat(to))
      expr.constant = ConstantValue::ofFloat(to == ScalarKind::Float32 ? double(float(c.asDouble())) : c.asDouble());
    else if (c.kind != ConstantValue::Kind::Float)
      expr.constant = ConstantValue::ofInt(c.kind == ConstantValue::Kind::Bool ? c.boolValue : c.intValue);
    else if (std::optional<ConstantValue> truncated = truncateToInteger(c.floatValue, to))
      expr.constant = truncated;
    else {
      // At run time the conversion saturates; a constant that would is a
      // mistake, as int8(200) is.
      error(value.range()) << floatNotConvertible(c.floatValue, to);
      return setType(expr, types_.errorType());
    }
    if (expr.constant && isInteger(to) && !expr.constant->fitsIn(to))
      expr.constant.reset(); // wraps at run time, like the C cast it is
  }
  return setType(expr, types_.scalar(to));
}

const Type *Sema::checkFloatFromString(CallExpr &expr, StringLiteralExpr &text, ScalarKind to) {
  // float('inf'), float('-nan'), np.float32('1e-3'): Python reads the
  // string once, so it is a constant, a Python float as a literal is.
  setType(text, types_.voidType());
  std::string spelled = text.value;
  const size_t first = spelled.find_first_not_of(" \t\n");
  const size_t last = spelled.find_last_not_of(" \t\n");
  spelled = first == std::string::npos ? "" : spelled.substr(first, last - first + 1);
  std::string lower = spelled;
  for (char &c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool negative = !lower.empty() && lower[0] == '-';
  const std::string_view unsigned_ =
      std::string_view(lower).substr(!lower.empty() && (lower[0] == '-' || lower[0] == '+') ? 1 : 0);
  std::optional<double> parsed;
  if (unsigned_ == "inf" || unsigned_ == "infinity")
    parsed = negative ? -__builtin_inf() : __builtin_inf();
  else if (unsigned_ == "nan")
    parsed = __builtin_nan("");
  else if (!spelled.empty() && spelled.find('_') == std::string::npos) {
    char *end = nullptr;
    const double number = std::strtod(spelled.c_str(), &end);
    if (end == spelled.c_str() + spelled.size() && spelled.find_first_of("xXpP") == std::string::npos)
      parsed = number;
  }
  if (text.flavor != StringLiteralExpr::Flavor::Text || !parsed) {
    error(text.range()) << "could not convert string to float: only a number, 'inf', '-inf' or 'nan' is a "
                           "constant pyk can read";
    return setType(expr, types_.errorType());
  }
  expr.isWeak = to == ScalarKind::Float64 && isa<NameExpr>(*expr.callee);
  expr.constant = ConstantValue::ofFloat(to == ScalarKind::Float32 ? double(float(*parsed)) : *parsed);
  return setType(expr, types_.scalar(to));
}

/// round(x): Python's rounding to the nearest integer, halves to even,
/// giving an int64 (an integer rounds to itself). round(x, ndigits) is not
/// supported yet.
const Type *Sema::checkRound(CallExpr &expr) {
  // round(x, ndigits=2) is Python's round(x, 2).
  if (expr.args.size() == 1 && expr.keywords.size() == 1 && expr.keywords[0].name == "ndigits") {
    expr.args.push_back(std::move(expr.keywords[0].value));
    expr.keywords.clear();
  }
  for (KeywordArgument &keyword : expr.keywords) {
    if (keyword.name == "ndigits")
      error(keyword.nameRange) << "round() is given ndigits by position and by name; pass it once";
    else
      error(keyword.nameRange) << "round() takes only the keyword ndigits, not '" << keyword.name << "'";
    return setType(expr, types_.errorType());
  }
  if (!requirePositional(expr, "round", 1, 2))
    return setType(expr, types_.errorType());
  if (expr.args.size() == 2)
    return checkRoundDigits(expr);
  const Type *type = checkOneNumber(expr, "round");
  if (!type)
    return setType(expr, types_.errorType());
  if (isComplex(type->scalarKind())) {
    error(expr.args.front()->range()) << "round() needs a real number, not " << type->str();
    return setType(expr, types_.errorType());
  }
  Expr &value = *expr.args.front();
  if (const auto &c = value.constant; c && c->kind == ConstantValue::Kind::Float) {
    const double rounded = std::nearbyint(c->floatValue);
    expr.constant = truncateToInteger(rounded, ScalarKind::Int64);
    if (!expr.constant) {
      error(value.range()) << floatNotConvertible(rounded, ScalarKind::Int64);
      return setType(expr, types_.errorType());
    }
  } else if (c)
    expr.constant = c->kind == ConstantValue::Kind::Bool ? ConstantValue::ofInt(c->boolValue) : *c;
  expr.isWeak = value.isWeak;
  return setType(expr,
                 isFloat(type->scalarKind()) || type->scalarKind() == ScalarKind::Bool ? types_.int64Type() : type);
}

/// round(x, ndigits): a float rounded to a multiple of 10**-ndigits, halves
/// to even, in x's type (NumPy's method: scale, round, scale back); an int
/// is its own value for ndigits >= 0.
const Type *Sema::checkRoundDigits(CallExpr &expr) {
  const Type *type = checkValue(*expr.args[0]);
  const Type *digitsType = checkValue(*expr.args[1]);
  if (type->isError() || digitsType->isError())
    return setType(expr, types_.errorType());
  if (!type->isScalar()) {
    error(expr.args[0]->range()) << "round() needs a number, not " << describe(*expr.args[0]);
    return setType(expr, types_.errorType());
  }
  if (!digitsType->isScalar() || !isInteger(digitsType->scalarKind())) {
    error(expr.args[1]->range()) << "round()'s number of digits must be an integer, not " << digitsType->str();
    return setType(expr, types_.errorType());
  }
  const auto &digits = expr.args[1]->constant;
  if (!isFloat(type->scalarKind())) {
    if (!digits || digits->intValue < 0) {
      notSupportedYet(expr.args[1]->range(), "round() of an integer to a number of digits that may be negative");
      return setType(expr, types_.errorType());
    }
    expr.constant = expr.args[0]->constant;
    if (expr.constant && expr.constant->kind == ConstantValue::Kind::Bool)
      expr.constant = ConstantValue::ofInt(expr.constant->boolValue);
    expr.isWeak = expr.args[0]->isWeak;
    return setType(expr, type->scalarKind() == ScalarKind::Bool ? types_.int64Type() : type);
  }
  expr.isWeak = expr.args[0]->isWeak;
  return setType(expr, type);
}

} // namespace pyk::sema
