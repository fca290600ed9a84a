//===- LibdeviceFunctions.h - libdevice's functions, as cuda.libdevice ----===//
//
// Numba's `cuda.libdevice` gives kernels libdevice's functions by their
// names without `__nv_` (libdevice.fadd_rz is __nv_fadd_rz). Sema types a
// call from the C signature (runtime/include/pyk/LibdeviceFunctions.def),
// lowering makes it an IR LibdeviceCall, and every backend calls
// __nv_NAME: on a GPU libdevice's own, on the CPU device the runtime's.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_BASIC_LIBDEVICEFUNCTIONS_H
#define PYK_BASIC_LIBDEVICEFUNCTIONS_H

#include "ScalarTypes.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pyk {

/// A C type of libdevice's signatures, and what kernels see of it.
struct LibdeviceType {
  std::string_view c; ///< "float", "long long", "unsigned short"
  ScalarKind kind;    ///< float32, int64, int16 (Numba's types; unsigned values as their bits)
  /// libdevice's i16 is zero-extended (an unsigned short in C): int16's
  /// bits, passed and returned as libdevice declares them.
  bool zeroExtended() const { return c == "unsigned short"; }
};

struct LibdeviceFunction {
  std::string_view name;                ///< "fadd_rz"
  std::optional<LibdeviceType> result;  ///< none: void
  std::vector<LibdeviceType> params;    ///< the arguments, in order
  /// What the pointer parameters point to, in order: they come after the
  /// arguments in every one of libdevice's signatures.
  std::vector<LibdeviceType> outputs;
  /// The function's symbol: "__nv_fadd_rz".
  std::string symbol() const { return "__nv_" + std::string(name); }
  /// The values a call gives kernels: the result (if not void) and the
  /// outputs. More than one is a tuple.
  std::vector<LibdeviceType> values() const;
  /// The C parameter list with the pointers among the arguments, in
  /// libdevice's order: "float, float *, float *".
  std::string_view cParameters;
};

/// libdevice.NAME, if Numba's cuda.libdevice has it.
const LibdeviceFunction *libdeviceFunction(std::string_view name);

/// Every function's name, for suggestions.
std::vector<std::string_view> libdeviceFunctionNames();

} // namespace pyk

#endif // PYK_BASIC_LIBDEVICEFUNCTIONS_H
