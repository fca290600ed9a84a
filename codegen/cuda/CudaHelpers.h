//===- CudaHelpers.h - Device functions the generated CUDA C++ calls ------===//
//
// The helpers are code, in codegen/cuda/prelude.cuh: what CUDA C++ spells
// with more than an operator (PTX registers through inline asm,
// cuda.atomic.* over CUDA's overloads, checked mode's record and accesses,
// the saturating float-to-integer conversion). The emitter collects the
// ones a file calls; this writes their sections at the file's top.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CODEGEN_CUDA_CUDAHELPERS_H
#define PYK_CODEGEN_CUDA_CUDAHELPERS_H

#include "llvm/Support/raw_ostream.h"

#include <set>

namespace pyk::cuda {

enum class Helper {
  Float16,  // cuda_fp16.h, for __half
  BFloat16, // cuda_bf16.h, for __nv_bfloat16
  Complex,  // pyk_complex64 and pyk_complex128
  Wrapping,
  FloatToInt,
  LaneId,
  LaneMaskLt,
  MatchAll,
  GridSync,
  LibdeviceValues, // pyk_first_of and pyk_second_of
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
  AtomicNanMax,
  AtomicNanMin,
  // Checked mode: the check record and reporting a failed check.
  Checks,
};

/// The name the generated code calls ("pyk_atomic_add").
const char *helperName(Helper helper);

/// Writes the sections of prelude.cuh that define `helpers` (and the
/// includes they need), in the order of the enum (each may use those
/// before it).
void emitHelpers(const std::set<Helper> &helpers, llvm::raw_ostream &os);

} // namespace pyk::cuda

#endif // PYK_CODEGEN_CUDA_CUDAHELPERS_H
