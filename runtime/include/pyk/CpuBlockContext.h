//===- pyk/CpuBlockContext.h - What a CPU-device kernel call is given -----===//
//
// The CPU device's part of the ABI between the code pykc compiles for the
// host and the runtime: the runtime fills one in per block, and the kernel
// code pykc's LLVM backend writes reads its fields at the offsets this
// header gives (codegen/llvm/CpuDeviceFunctionEmitter.cpp includes it). The
// assertions pin the layout: a change to it is a change of that ABI.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_CPUBLOCKCONTEXT_H
#define PYK_CPUBLOCKCONTEXT_H

#include <cstddef>
#include <cstdint>

namespace pyk::detail {

/// What one CPU-device call of a kernel runs: all threads of one block.
struct CpuBlockContext {
  std::uint32_t blockIdx[3];
  std::uint32_t blockDim[3];
  std::uint32_t gridDim[3];
  /// Dynamic shared memory of this block (Launch::shared_bytes bytes).
  void *sharedMemory;
  /// Its size: Launch::shared_bytes (cuda.shared.array(0, T) is
  /// sharedBytes / sizeof(T) elements long).
  std::uint64_t sharedBytes;
};

static_assert(offsetof(CpuBlockContext, blockIdx) == 0 && offsetof(CpuBlockContext, blockDim) == 12 &&
                  offsetof(CpuBlockContext, gridDim) == 24 && offsetof(CpuBlockContext, sharedMemory) == 40 &&
                  offsetof(CpuBlockContext, sharedBytes) == 48 && sizeof(CpuBlockContext) == 56,
              "the CPU device's block context is the ABI with kernel code compiled for the host");

} // namespace pyk::detail

#endif // PYK_CPUBLOCKCONTEXT_H
