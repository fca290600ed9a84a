//===- ScalarTypes.cpp - The scalar element types --------------------------===//
#include "ScalarTypes.h"

#include <array>

namespace pyk {

bool isSignedInteger(ScalarKind kind) {
  return kind == ScalarKind::Int8 || kind == ScalarKind::Int16 || kind == ScalarKind::Int32 ||
         kind == ScalarKind::Int64;
}

bool isUnsignedInteger(ScalarKind kind) {
  return kind == ScalarKind::UInt8 || kind == ScalarKind::UInt16 || kind == ScalarKind::UInt32 ||
         kind == ScalarKind::UInt64;
}

bool isInteger(ScalarKind kind) {
  return isSignedInteger(kind) || isUnsignedInteger(kind);
}

bool isFloat(ScalarKind kind) {
  return kind == ScalarKind::Float16 || kind == ScalarKind::Float32 || kind == ScalarKind::Float64 ||
         kind == ScalarKind::BFloat16;
}

bool isComplex(ScalarKind kind) {
  return kind == ScalarKind::Complex64 || kind == ScalarKind::Complex128;
}

ScalarKind complexPart(ScalarKind complex) {
  return complex == ScalarKind::Complex64 ? ScalarKind::Float32 : ScalarKind::Float64;
}

ScalarKind complexHolding(ScalarKind kind) {
  if (isComplex(kind))
    return kind;
  const bool narrow = kind == ScalarKind::Float16 || kind == ScalarKind::BFloat16 || kind == ScalarKind::Float32;
  return narrow ? ScalarKind::Complex64 : ScalarKind::Complex128;
}

unsigned byteWidth(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool:
  case ScalarKind::Int8:
  case ScalarKind::UInt8:
    return 1;
  case ScalarKind::Int16:
  case ScalarKind::UInt16:
  case ScalarKind::Float16:
  case ScalarKind::BFloat16:
    return 2;
  case ScalarKind::Int32:
  case ScalarKind::UInt32:
  case ScalarKind::Float32:
    return 4;
  case ScalarKind::Int64:
  case ScalarKind::UInt64:
  case ScalarKind::Float64:
  case ScalarKind::Complex64:
    return 8;
  case ScalarKind::Complex128:
    return 16;
  }
  return 0;
}

std::string_view scalarName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::Int8:
    return "int8";
  case ScalarKind::Int16:
    return "int16";
  case ScalarKind::Int32:
    return "int32";
  case ScalarKind::Int64:
    return "int64";
  case ScalarKind::UInt8:
    return "uint8";
  case ScalarKind::UInt16:
    return "uint16";
  case ScalarKind::UInt32:
    return "uint32";
  case ScalarKind::UInt64:
    return "uint64";
  case ScalarKind::Float16:
    return "float16";
  case ScalarKind::Float32:
    return "float32";
  case ScalarKind::Float64:
    return "float64";
  case ScalarKind::BFloat16:
    return "bfloat16";
  case ScalarKind::Complex64:
    return "complex64";
  case ScalarKind::Complex128:
    return "complex128";
  }
  return "?";
}

std::optional<ScalarKind> scalarKindFromName(std::string_view name) {
  struct Spelling {
    std::string_view name;
    ScalarKind kind;
  };
  static constexpr std::array<Spelling, 44> spellings = {{
      {"bool", ScalarKind::Bool},      {"boolean", ScalarKind::Bool},   {"bool_", ScalarKind::Bool},
      {"b1", ScalarKind::Bool},        {"int8", ScalarKind::Int8},      {"i1", ScalarKind::Int8},
      {"int16", ScalarKind::Int16},    {"i2", ScalarKind::Int16},       {"int32", ScalarKind::Int32},
      {"i4", ScalarKind::Int32},       {"int64", ScalarKind::Int64},    {"i8", ScalarKind::Int64},
      {"intp", ScalarKind::Int64},     {"int", ScalarKind::Int64},      {"uint8", ScalarKind::UInt8},
      {"u1", ScalarKind::UInt8},       {"uint16", ScalarKind::UInt16},  {"u2", ScalarKind::UInt16},
      {"uint32", ScalarKind::UInt32},  {"u4", ScalarKind::UInt32},      {"uint64", ScalarKind::UInt64},
      {"u8", ScalarKind::UInt64},      {"uintp", ScalarKind::UInt64},   {"float16", ScalarKind::Float16},
      {"f2", ScalarKind::Float16},     {"half", ScalarKind::Float16},   {"float32", ScalarKind::Float32},
      {"f4", ScalarKind::Float32},     {"single", ScalarKind::Float32}, {"float64", ScalarKind::Float64},
      {"f8", ScalarKind::Float64},     {"double", ScalarKind::Float64}, {"float", ScalarKind::Float64},
      {"float_", ScalarKind::Float64}, {"int_", ScalarKind::Int64},     {"byte", ScalarKind::UInt8},
      {"bfloat16", ScalarKind::BFloat16},
      // Not Python's `complex`: complex(x) is a constructor (SemaComplex.cpp).
      {"complex64", ScalarKind::Complex64},
      {"c8", ScalarKind::Complex64},
      {"csingle", ScalarKind::Complex64},
      {"complex128", ScalarKind::Complex128},
      {"c16", ScalarKind::Complex128},
      {"cdouble", ScalarKind::Complex128},
      {"complex_", ScalarKind::Complex128},
  }};
  for (const Spelling &spelling : spellings)
    if (spelling.name == name)
      return spelling.kind;
  return std::nullopt;
}

std::optional<ScalarKind> scalarKindInModule(std::string_view module, std::string_view name) {
  // numba.byte is uint8, but NumPy's np.byte is C's signed char.
  if (name == "byte" && (module == "numpy" || module == "cupy"))
    return ScalarKind::Int8;
  return scalarKindFromName(name);
}

} // namespace pyk
