//===- SymbolNames.cpp - Names that generated C++ and PTX may not use ------===//
#include "SymbolNames.h"

#include <algorithm>
#include <array>

namespace pyk::ir {

namespace {

// Sorted, for binary search.
constexpr std::array<std::string_view, 250> reservedNames = {
    "BUFSIZ", "CHAR_BIT", "DBL_MAX", "DBL_MIN", "EOF", "EXIT_FAILURE", "EXIT_SUCCESS", "FLT_MAX", "FLT_MIN",
    "HUGE_VAL", "HUGE_VALF", "INFINITY", "INT16_MAX", "INT32_MAX", "INT32_MIN", "INT64_MAX", "INT64_MIN",
    "INT8_MAX", "INT_MAX", "INT_MIN", "LLONG_MAX", "LONG_MAX", "M_E", "M_PI", "NAN", "NULL", "RAND_MAX",
    "SIZE_MAX", "UINT32_MAX", "UINT64_MAX", "UINT_MAX", "abort", "abs", "acos", "acosf", "acosh", "acoshf",
    "alignas", "alignof", "and_eq", "asin", "asinf", "asinh", "asinhf", "asm", "assert", "atan", "atan2",
    "atan2f", "atanf", "atanh", "atanhf", "atof", "atoi", "auto", "bitand", "bitor", "blockDim", "blockIdx",
    "bool", "calloc", "case", "catch", "cbrt", "cbrtf", "ceil", "ceilf", "char", "char16_t", "char32_t",
    "char8_t", "clock", "co_await", "co_return", "co_yield", "compl", "concept", "const", "const_cast",
    "consteval", "constexpr", "constinit", "copysign", "copysignf", "cos", "cosf", "cosh", "coshf", "decltype",
    "default", "delete", "dim3", "do", "double", "dynamic_cast", "enum", "erf", "erfc", "erfcf", "erff", "errno",
    "exit", "exp", "exp10", "exp2", "exp2f", "expf", "explicit", "expm1", "expm1f", "export", "extern", "fabs",
    "fabsf", "false", "float", "floor", "floorf", "fma", "fmaf", "fmax", "fmaxf", "fmin", "fminf", "fmod",
    "fmodf", "free", "frexp", "friend", "goto", "gridDim", "hypot", "hypotf", "inline", "int", "int16_t",
    "int32_t", "int64_t", "int8_t", "isfinite", "isinf", "isnan", "labs", "ldexp", "lgamma", "lgammaf", "llabs",
    "llrint", "llround", "log", "log10", "log10f", "log1p", "log1pf", "log2", "log2f", "logf", "long", "lrint",
    "lround", "main", "malloc", "max", "memcpy", "memset", "min", "modf", "mutable", "namespace", "nan", "new",
    "noexcept", "not_eq", "nullptr", "offsetof", "operator", "or_eq", "pow", "powf", "printf", "private",
    "protected", "public", "puts", "qsort", "rand", "realloc", "register", "reinterpret_cast", "remainder",
    "requires", "rint", "round", "roundf", "rsqrt", "rsqrtf", "short", "signed", "sin", "sincos", "sinf", "sinh",
    "sinhf", "size_t", "sizeof", "sprintf", "sqrt", "sqrtf", "srand", "static", "static_assert", "static_cast",
    "std", "stderr", "stdin", "stdout", "strlen", "struct", "switch", "tan", "tanf", "tanh", "tanhf", "template",
    "tgamma", "tgammaf", "this", "threadIdx", "thread_local", "throw", "true", "trunc", "truncf", "typedef",
    "typeid", "typename", "uint16_t", "uint32_t", "uint64_t", "uint8_t", "union", "unsigned", "using", "virtual",
    "void", "volatile", "warpSize", "wchar_t", "xor", "xor_eq"};

} // namespace

bool isReservedInCxx(std::string_view name) {
  if (std::binary_search(reservedNames.begin(), reservedNames.end(), name))
    return true;
  // pyk_ prefixes the names pyk generates next to the user's.
  if (name.substr(0, 4) == "pyk_")
    return true;
  return name.find("__") != std::string_view::npos ||
         (name.size() > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z');
}

std::string kernelSymbol(std::string_view pykName) {
  if (isReservedInCxx(pykName))
    return "pyk_" + std::string(pykName);
  return std::string(pykName);
}

std::string cpuEntrySymbol(std::string_view unitId, std::string_view kernelSymbol) {
  std::string symbol = "pyk_cpu_";
  if (!unitId.empty())
    symbol.append(unitId).push_back('_');
  return symbol.append(kernelSymbol);
}

std::string fileNamespace(std::string_view baseName) {
  std::string name;
  for (char c : baseName) {
    const bool identifierChar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    const char kept = identifierChar ? c : '_';
    if (kept == '_' && !name.empty() && name.back() == '_')
      continue;
    name.push_back(kept);
  }
  // A leading digit or a leading `_` and capital cannot start it.
  if (name.empty() || (name[0] >= '0' && name[0] <= '9') || (name[0] == '_' && name.size() > 1 && name[1] >= 'A' && name[1] <= 'Z'))
    name.insert(0, "pyk_");
  if (name.back() != '_')
    name.push_back('_');
  return name + "pyk";
}

} // namespace pyk::ir
