//===- CudaHelpers.h - Device functions the generated CUDA C++ calls ------===//
//
// What CUDA C++ spells with more than an operator: PTX registers (%laneid,
// %dynamic_smem_size) through inline asm, cuda.atomic.* over CUDA's
// overloads, checked mode's record and checked accesses. This writes the
// ones a file uses at its top. (Python's operators are not here: the IR
// states them, PythonOpFunctions.h. Float-to-integer conversion still is,
// until the IR states it too.)
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_CUDA_CUDAHELPERS_H
#define PYK_CODEGEN_CUDA_CUDAHELPERS_H

#include "llvm/Support/raw_ostream.h"

#include <set>

namespace pyk::cuda {

enum class Helper {
  FloatToInt,
  LaneId,
  LaneMaskLt,
  DynamicShared,
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
