//===- Builtins.h - Names of the builtins pyk implements ------------------===//
//
// The identity of each builtin (cuda.grid, cuda.threadIdx.x, ...) that Sema
// resolves names and attributes to. What a builtin means is decided in Sema
// (its type) and in lowering (its IR); this file only names them.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_FRONTEND_BUILTINS_H
#define PYK_FRONTEND_BUILTINS_H

#include "LibdeviceFunctions.h"
#include <optional>
#include <string_view>
#include <vector>

namespace pyk {

enum class Builtin {
  None,
#define PYK_BUILTIN(Id, Name, Arity) Id,
#include "Builtins.def"
};

/// The dotted name the user writes ("cuda.grid").
std::string_view builtinName(Builtin builtin);
/// How many arguments it takes (Builtins.def); -1 for a value, a namespace
/// or a function whose count varies.
int builtinArity(Builtin builtin);
/// The builtin with dotted name `name` ("cuda.threadIdx.x"), if pyk has it.
std::optional<Builtin> builtinFromName(std::string_view name);
/// A function of Python's math module that pyk has.
struct MathFunctionInfo {
  std::string_view name;  ///< "sqrt", as in math.sqrt
  std::string_view cName; ///< the C library's double version: "sqrt", "tgamma"
  unsigned arity;
  /// What it returns for float arguments: the float (Float), an int64
  /// (floor, ceil, trunc), a bool (isnan, isinf, isfinite), or a tuple:
  /// two floats (modf: the fraction and the whole part) or a float and an
  /// int32 (frexp: the mantissa and the exponent), as Numba types them.
  enum class Result { Float, Int64, Bool, FloatPair, FloatAndExponent } result;
  /// ldexp: the second argument is an integer exponent, passed as int32
  /// (Numba's signatures); the first alone decides the float type.
  bool int32Exponent = false;
  /// radians, degrees: not a C function but the product of the argument
  /// and this factor, rounded to the argument's float type, as Numba
  /// computes them; 0 for every other function.
  double factor = 0;
  /// Numba gives float16 for a float16 argument (sin, cos, sqrt, exp, log,
  /// log2, log10, fabs: CUDA's hsin, ...), and bfloat16 for a bfloat16
  /// one; the others take them as float32.
  bool float16Result = false;
};

/// cuda.fp16.hadd ... cuda.fp16.hrcp, and cuda.bf16's.
inline bool isBf16Function(Builtin builtin) { return builtin >= Builtin::Bf16Add && builtin <= Builtin::Bf16Rcp; }
inline bool isHalfFunction(Builtin builtin) {
  return (builtin >= Builtin::Fp16Add && builtin <= Builtin::Fp16Rcp) || isBf16Function(builtin);
}
/// cuda.bf16's function as cuda.fp16's of the same name: what it does, on
/// its own type (halfFunctionType).
inline Builtin asFp16Function(Builtin builtin) {
  if (!isBf16Function(builtin))
    return builtin;
  return static_cast<Builtin>(static_cast<int>(builtin) - static_cast<int>(Builtin::Bf16Add) +
                              static_cast<int>(Builtin::Fp16Add));
}
/// The comparisons (heq ... hlt), which give a bool.
inline bool isHalfComparison(Builtin builtin) {
  const Builtin op = asFp16Function(builtin);
  return op >= Builtin::Fp16Eq && op <= Builtin::Fp16Lt;
}

/// The math module's function `name`, if pyk has it.
const MathFunctionInfo *mathFunction(std::string_view name);

/// The value of math.pi, math.e, math.inf, math.nan, math.tau.
std::optional<double> mathConstant(std::string_view name);

/// The value of np.pi, np.e, np.inf, np.nan (NumPy has no tau).
std::optional<double> numpyConstant(std::string_view name);

/// Why a name that Numba, CUDA Python or Python's modules have is not one
/// pyk kernels can use.
enum class MissingNameKind {
  Unknown,         ///< not a name pyk knows of: maybe a typo
  NotSupportedYet, ///< planned ("cuda.cg", "math.modf", "complex64")
  HostApi,         ///< runs on the host ("cuda.to_device", module "time")
  NotAvailable,    ///< exists, but not for kernels ("numba.vectorize")
};

struct MissingName {
  MissingNameKind kind = MissingNameKind::Unknown;
  /// HostApi: what does it in C++ ("pyk::to_device"), or empty.
  std::string_view cxxCounterpart;
};

/// Classifies `dotted`, a name pyk does not implement, written as kernels
/// name it: "cuda.to_device", "cuda.atomic.nanmax", "math.modf",
/// "numba.vectorize", "complex64"; a module alone is its name ("time").
MissingName classifyMissingName(std::string_view dotted);

/// True for names Numba's CUDA target or Python provide that pyk parses
/// and plans to support but does not implement yet ("cuda.cg").
bool isKnownUnimplementedBuiltin(std::string_view name);

/// The names pyk has in namespace `prefix` ("cuda", "cuda.atomic", "math"),
/// for "did you mean" suggestions.
std::vector<std::string_view> builtinNamesIn(std::string_view prefix);

/// Of `candidates`, the one `name` is most likely a misspelling of; empty if
/// none is close.
std::string_view closestName(std::string_view name, const std::vector<std::string_view> &candidates);

/// True for Python's built-in functions and classes that kernels do not
/// have ("sum", "enumerate", "staticmethod"); not for those pyk supports
/// (abs, len, min, max, round, print, range, int, float, bool).
bool isUnsupportedPythonBuiltin(std::string_view name);

} // namespace pyk

#endif // PYK_FRONTEND_BUILTINS_H
