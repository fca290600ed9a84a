//===- GpuLimits.h - What one kernel may use of a GPU's memories ----------===//
//
// The limits every sm_75..sm_90 GPU allows without opt-in, stated once:
// Sema checks each array against them (the error points at the array) and
// the IR pass checkKernelLimits checks each kernel's totals (the error
// points at the `def`). Not for launch-time limits (grid, block, dynamic
// shared memory), which the runtime checks against the device.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_BASIC_GPULIMITS_H
#define PYK_BASIC_GPULIMITS_H

#include <cstdint>

namespace pyk {

/// Static shared memory per block (cuda.shared.array with a fixed shape);
/// more needs the launch-time opt-in that only dynamic shared memory gets.
constexpr uint64_t maxStaticSharedBytes = 48 * 1024;
/// Local memory per thread (cuda.local.array).
constexpr uint64_t maxLocalBytes = 512 * 1024;
/// A kernel's parameters, laid out as its PTX `.entry` declares them. CUDA
/// documents 4 KiB (32,764 bytes only from PTX ISA 8.1, which the LLVM
/// backend does not emit: ptxas rejects its PTX past 4352 bytes).
constexpr uint64_t maxKernelParamBytes = 4 * 1024;

} // namespace pyk

#endif // PYK_BASIC_GPULIMITS_H
