//===- Builtins.cpp - Names of the builtins pyk implements ----------------===//
#include "Builtins.h"

#include <array>

namespace pyk {

namespace {
struct BuiltinEntry {
  Builtin id;
  std::string_view name;
};

constexpr BuiltinEntry builtinTable[] = {
#define PYK_BUILTIN(Id, Name, Arity) {Builtin::Id, Name},
#include "Builtins.def"
};
} // namespace

std::string_view builtinName(Builtin builtin) {
  for (const BuiltinEntry &entry : builtinTable)
    if (entry.id == builtin)
      return entry.name;
  return "<none>";
}

std::optional<Builtin> builtinFromName(std::string_view name) {
  for (const BuiltinEntry &entry : builtinTable)
    if (entry.name == name && entry.id != Builtin::ArrayShape && entry.id != Builtin::ArraySize &&
        entry.id != Builtin::ArrayNdim)
      return entry.id;
  return std::nullopt;
}

const MathFunctionInfo *mathFunction(std::string_view name) {
  using R = MathFunctionInfo::Result;
  static constexpr MathFunctionInfo functions[] = {
      {"sqrt", "sqrt", 1, R::Float},       {"exp", "exp", 1, R::Float},         {"expm1", "expm1", 1, R::Float},
      {"log", "log", 1, R::Float},         {"log2", "log2", 1, R::Float},       {"log10", "log10", 1, R::Float},
      {"log1p", "log1p", 1, R::Float},     {"sin", "sin", 1, R::Float},         {"cos", "cos", 1, R::Float},
      {"tan", "tan", 1, R::Float},         {"asin", "asin", 1, R::Float},       {"acos", "acos", 1, R::Float},
      {"atan", "atan", 1, R::Float},       {"atan2", "atan2", 2, R::Float},     {"sinh", "sinh", 1, R::Float},
      {"cosh", "cosh", 1, R::Float},       {"tanh", "tanh", 1, R::Float},       {"asinh", "asinh", 1, R::Float},
      {"acosh", "acosh", 1, R::Float},     {"atanh", "atanh", 1, R::Float},     {"pow", "pow", 2, R::Float},
      {"fabs", "fabs", 1, R::Float},       {"fmod", "fmod", 2, R::Float},       {"copysign", "copysign", 2, R::Float},
      {"hypot", "hypot", 2, R::Float},     {"erf", "erf", 1, R::Float},         {"erfc", "erfc", 1, R::Float},
      {"gamma", "tgamma", 1, R::Float},    {"lgamma", "lgamma", 1, R::Float},   {"floor", "floor", 1, R::Int64},
      {"ceil", "ceil", 1, R::Int64},       {"trunc", "trunc", 1, R::Int64},     {"isnan", "isnan", 1, R::Bool},
      {"isinf", "isinf", 1, R::Bool},      {"isfinite", "isfinite", 1, R::Bool},
  };
  for (const MathFunctionInfo &function : functions)
    if (function.name == name)
      return &function;
  return nullptr;
}

std::optional<double> mathConstant(std::string_view name) {
  if (name == "pi")
    return 3.141592653589793;
  if (name == "e")
    return 2.718281828459045;
  if (name == "tau")
    return 6.283185307179586;
  if (name == "inf")
    return __builtin_inf();
  if (name == "nan")
    return __builtin_nan("");
  return std::nullopt;
}

bool isKnownUnimplementedBuiltin(std::string_view name) {
  // The GPU and Python vocabulary of LANGUAGE.md that later work implements.
  static constexpr std::string_view planned[] = {
      // Memory
      "cuda.const.array_like",
      // Warp operations
      "cuda.match_all_sync",
      // Math functions pyk does not have yet
      "math.radians", "math.degrees", "math.frexp", "math.ldexp",
  };
  for (std::string_view candidate : planned)
    if (candidate == name)
      return true;
  return false;
}

bool isUnsupportedPythonBuiltin(std::string_view name) {
  static constexpr std::string_view builtins[] = {
      "aiter",     "all",     "anext",    "any",        "ascii",        "bin",          "breakpoint", "bytearray",
      "bytes",     "callable", "chr",     "classmethod", "compile",     "complex",      "delattr",    "dict",
      "dir",       "divmod",  "enumerate", "eval",      "exec",         "filter",       "format",     "frozenset",
      "getattr",   "globals", "hasattr",  "hash",       "help",         "hex",          "id",         "input",
      "isinstance", "issubclass", "iter", "list",       "locals",       "map",          "memoryview", "next",
      "object",    "oct",     "open",     "ord",        "pow",          "property",     "repr",       "reversed",
      "set",       "setattr", "slice",    "sorted",     "staticmethod", "str",          "sum",        "super",
      "tuple",     "type",    "vars",     "zip",
  };
  for (std::string_view candidate : builtins)
    if (candidate == name)
      return true;
  return false;
}

} // namespace pyk
