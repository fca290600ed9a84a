//===- CudaHelpers.h - Python's integer and float semantics in CUDA C++ ----===//
//
// Where Python's operators differ from C++'s (floor division, modulo by the
// divisor's sign, integer powers, shifts by any count), the CUDA C++ backend
// calls small device functions; this writes the ones a file uses at its top.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_CUDA_CUDAHELPERS_H
#define PYK_CODEGEN_CUDA_CUDAHELPERS_H

#include "llvm/Support/raw_ostream.h"

#include <set>

namespace pyk::cuda {

enum class Helper {
  FloorDiv,
  FloatFloorDiv,
  Mod,
  FloatMod,
  IntPow,
  FloatToInt,
  Shl,
  Shr,
  Min,
  Max,
  LaneId,
  LaneMaskLt,
  DynamicShared,
  RangeLength, // and pyk_range_next
  // cuda.atomic.* on every type pyk allows, over CUDA's overloads.
  AtomicBits, // the integer that holds a value's bits (used by the next ones)
  AtomicAdd,
  AtomicSub,
  AtomicAnd,
  AtomicOr,
  AtomicXor,
  AtomicMax,
  AtomicMin,
  AtomicExch,
  AtomicInc,
  AtomicDec,
  AtomicCas,
  // Checked mode: the check record, reporting, checked element access.
  Checks,
};

/// The name the generated code calls ("pyk_floordiv").
const char *helperName(Helper helper);

/// Writes the definitions of `helpers` (and the includes they need).
void emitHelpers(const std::set<Helper> &helpers, llvm::raw_ostream &os);

} // namespace pyk::cuda

#endif // PYK_CODEGEN_CUDA_CUDAHELPERS_H
