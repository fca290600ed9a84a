//===- ScalarTypes.h - The scalar element types, as NumPy names them ------===//
//
// Every stage speaks of scalar types: Sema's types are built on them, the
// IR's types are them, and the backends map them to their targets.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_BASIC_SCALARTYPES_H
#define PYK_BASIC_SCALARTYPES_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace pyk {

/// The scalar element types, as NumPy names them.
enum class ScalarKind : uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
  Float32,
  Float64,
  /// Numba's bfloat16 (CUDA's __nv_bfloat16): float32's exponent, 8 bits of
  /// precision. After the others, so that the kinds before keep their
  /// order, as the complex kinds after it do.
  BFloat16,
  /// Two floats, the real part then the imaginary (NumPy's complex64 and
  /// complex128, C++'s std::complex<float> and <double>).
  Complex64,
  Complex128,
};
/// The last kind, where a loop over every kind ends.
inline constexpr ScalarKind lastScalarKind = ScalarKind::Complex128;

bool isInteger(ScalarKind kind);
bool isSignedInteger(ScalarKind kind);
bool isUnsignedInteger(ScalarKind kind);
/// Real floating-point kinds (not complex).
bool isFloat(ScalarKind kind);
bool isComplex(ScalarKind kind);
/// The kind of a complex kind's parts (float32, float64).
ScalarKind complexPart(ScalarKind complex);
/// The complex kind whose parts hold `kind`'s values as NumPy promotes
/// them: float16, bfloat16 and float32 give complex64, the rest complex128.
ScalarKind complexHolding(ScalarKind kind);
/// Size in bytes (bool is one byte).
unsigned byteWidth(ScalarKind kind);
/// NumPy's name: "float32", "int64", "bool".
std::string_view scalarName(ScalarKind kind);
/// Resolves NumPy, Numba and Python spellings ("float32", "f4", "intp",
/// "boolean", "int" ...) of a scalar type. Python's `int`, `float` and
/// `bool` are int64, float64 and bool, as in Numba.
std::optional<ScalarKind> scalarKindFromName(std::string_view name);
/// The same, for a name taken from `module` ("numpy", "numba.types", ...):
/// NumPy's `byte` is int8 where Numba's is uint8.
std::optional<ScalarKind> scalarKindInModule(std::string_view module, std::string_view name);

} // namespace pyk

#endif // PYK_BASIC_SCALARTYPES_H
