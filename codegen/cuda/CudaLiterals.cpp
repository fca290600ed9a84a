//===- CudaLiterals.cpp - constants as CUDA C++ literals -------------------===//
//
// Scalars print as the shortest literal that reads back as the same value;
// NumPy array constants become __constant__ arrays at file scope.
//
//===----------------------------------------------------------------------===//
#include "CudaLiterals.h"

#include "CudaNames.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pyk::cuda {

using namespace ir;

namespace {

double valueOfBits(uint64_t bits, ScalarKind kind) {
  if (kind == ScalarKind::Float32) {
    const uint32_t narrow = static_cast<uint32_t>(bits);
    float value;
    std::memcpy(&value, &narrow, sizeof value);
    return value;
  }
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

Code floatConstant(double value, bool isDouble) {
  if (std::isnan(value))
    return {isDouble ? "__longlong_as_double(0x7ff8000000000000ll)" : "__int_as_float(0x7fc00000)", Postfix};
  if (std::isinf(value)) {
    std::string inf = isDouble ? "__longlong_as_double(0x7ff0000000000000ll)" : "__int_as_float(0x7f800000)";
    return value < 0 ? Code{"-" + inf, Prefix} : Code{inf, Postfix};
  }
  // The shortest text that reads back as the same value.
  std::string text;
  for (int digits = isDouble ? 15 : 6; digits <= 17; ++digits) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    text = buffer;
    if (isDouble ? std::strtod(buffer, nullptr) == value : std::strtof(buffer, nullptr) == float(value))
      break;
  }
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  if (!isDouble)
    text += "f";
  return {text, value < 0 ? Prefix : Postfix};
}

} // namespace

Code constant(const Constant &c) {
  const ir::Type &type = c.type();
  switch (type.scalar) {
  case ScalarKind::Bool:
    return {c.intValue ? "true" : "false", Postfix};
  case ScalarKind::Float16:
    // The float16 value (lowerFloat16 rounded it), which a float holds.
    return {"__half(" + floatConstant(c.floatValue, false).text + ")", Postfix};
  case ScalarKind::BFloat16:
    return {"__nv_bfloat16(" + floatConstant(c.floatValue, false).text + ")", Postfix};
  case ScalarKind::Float32:
  case ScalarKind::Float64:
    return floatConstant(c.floatValue, type.scalar == ScalarKind::Float64);
  case ScalarKind::UInt64:
    return {std::to_string(static_cast<uint64_t>(c.intValue)) + "ull", Postfix};
  case ScalarKind::UInt32:
    return {std::to_string(static_cast<uint64_t>(c.intValue)) + "u", Postfix};
  case ScalarKind::Int64:
    if (c.intValue == INT64_MIN)
      return {"(-9223372036854775807ll - 1)", Postfix};
    if (c.intValue < INT32_MIN || c.intValue > INT32_MAX)
      return {std::to_string(c.intValue) + "ll", c.intValue < 0 ? Prefix : Postfix};
    [[fallthrough]];
  default:
    return {std::to_string(c.intValue), c.intValue < 0 ? Prefix : Postfix};
  }
}

std::string constantArrayName(const Variable &var) {
  return "pyk_const_" + var.constantName;
}

/// A NumPy array constant as a __constant__ array at file scope. Finite
/// floats are written as literals; an array holding an infinity or a NaN
/// is written as the elements' bits, which a static initialiser can hold
/// (__int_as_float cannot be called there).
void constantArray(const Variable &var, llvm::raw_ostream &os) {
  const ScalarKind kind = var.type.scalar;
  bool finite = true;
  if (isFloat(kind))
    for (uint64_t bits : var.constantBits)
      finite = finite && std::isfinite(valueOfBits(bits, kind));
  // A 16-bit float's array is always its bits: neither __half nor
  // __nv_bfloat16 has a constructor a static initialiser can call.
  const bool narrow = kind == ScalarKind::Float16 || kind == ScalarKind::BFloat16;
  const bool asBits = !finite || narrow;
  std::string element = cudaScalarType(kind);
  if (asBits)
    element = narrow ? "uint16_t" : kind == ScalarKind::Float32 ? "uint32_t" : "uint64_t";
  // static: the file's own, also when nvcc compiles it relocatable (-rdc).
  os << "static __constant__ " << element << " " << constantArrayName(var) << "[";
  for (size_t axis = 0; axis < var.fixedShape.size(); ++axis)
    os << (axis ? " * " : "") << var.fixedShape[axis];
  os << "] = {";
  for (size_t i = 0; i < var.constantBits.size(); ++i) {
    os << (i ? ", " : "") << (i % 8 == 0 ? "\n    " : "");
    const uint64_t bits = var.constantBits[i];
    if (asBits) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer,
                    narrow                        ? "0x%04llx"
                    : kind == ScalarKind::Float32 ? "0x%08llxu"
                                                  : "0x%016llxull",
                    static_cast<unsigned long long>(bits));
      os << buffer;
    } else if (isFloat(kind)) {
      os << floatConstant(valueOfBits(bits, kind), kind == ScalarKind::Float64).text;
    } else if (kind == ScalarKind::Bool) {
      os << (bits ? "true" : "false");
    } else {
      const unsigned width = byteWidth(kind) * 8;
      const bool isSigned = isSignedInteger(kind);
      int64_t value = static_cast<int64_t>(bits);
      if (isSigned && width < 64 && (bits >> (width - 1)) & 1)
        value = static_cast<int64_t>(bits | ~((uint64_t(1) << width) - 1));
      if (!isSigned)
        os << bits << (width == 64 ? "ull" : "u");
      else if (value == INT64_MIN)
        os << "(-9223372036854775807ll - 1)";
      else
        os << value << (width == 64 ? "ll" : "");
    }
  }
  os << "\n};\n";
}

} // namespace pyk::cuda
