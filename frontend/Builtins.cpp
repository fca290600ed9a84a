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

bool isKnownUnimplementedBuiltin(std::string_view name) {
  // The GPU and Python vocabulary of LANGUAGE.md that later work implements.
  static constexpr std::string_view planned[] = {
      // Python builtins
      "round", "len", "print",
      // Indexing
      "cuda.gridsize", "cuda.laneid", "cuda.warpsize",
      // Memory
      "cuda.shared.array", "cuda.local.array", "cuda.shared", "cuda.local", "cuda.const.array_like",
      // Synchronisation
      "cuda.syncthreads", "cuda.syncthreads_count", "cuda.syncthreads_and", "cuda.syncthreads_or",
      "cuda.syncwarp", "cuda.threadfence", "cuda.threadfence_block", "cuda.threadfence_system",
      // Atomics
      "cuda.atomic", "cuda.atomic.add", "cuda.atomic.sub", "cuda.atomic.and_", "cuda.atomic.or_",
      "cuda.atomic.xor", "cuda.atomic.max", "cuda.atomic.min", "cuda.atomic.exch", "cuda.atomic.inc",
      "cuda.atomic.dec", "cuda.atomic.cas",
      // Warp operations
      "cuda.shfl_sync", "cuda.shfl_up_sync", "cuda.shfl_down_sync", "cuda.shfl_xor_sync", "cuda.all_sync",
      "cuda.any_sync", "cuda.eq_sync", "cuda.ballot_sync", "cuda.match_any_sync", "cuda.activemask",
      "cuda.lanemask_lt", "cuda.popc", "cuda.brev", "cuda.clz", "cuda.ffs", "cuda.fma", "cuda.cbrt",
      // Math
      "math.sqrt", "math.exp", "math.expm1", "math.log", "math.log2", "math.log10", "math.log1p",
      "math.sin", "math.cos", "math.tan", "math.asin", "math.acos", "math.atan", "math.atan2",
      "math.sinh", "math.cosh", "math.tanh", "math.asinh", "math.acosh", "math.atanh", "math.pow",
      "math.fabs", "math.floor", "math.ceil", "math.trunc", "math.fmod", "math.copysign", "math.hypot",
      "math.erf", "math.erfc", "math.gamma", "math.lgamma", "math.isnan", "math.isinf", "math.isfinite",
      "math.pi", "math.e", "math.inf", "math.nan", "math.radians", "math.degrees", "math.frexp", "math.ldexp",
  };
  for (std::string_view candidate : planned)
    if (candidate == name)
      return true;
  return false;
}

} // namespace pyk
