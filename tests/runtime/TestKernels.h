//===- TestKernels.h - Hand-written kernels for the runtime tests ----------===//
//
// What pykc generates for a .pyk file, written by hand: a KernelModule with
// PTX (kernels/test_kernels.cu), one KernelInfo per kernel with its CPU-device
// entry, and typed launch functions that lay the arguments out as the launch
// ABI says (an array is its data pointer and one int64 per extent, each
// value in an 8-byte slot) and take arrays as detail::ArrayArgument, as
// generated ones do.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_TEST_TESTKERNELS_H
#define PYK_TEST_TESTKERNELS_H

#include "pyk/pyk.h"

#include <atomic>

namespace pyk::test {

extern const detail::KernelModule testModule;
extern detail::KernelInfo vectorAddKernel;
extern detail::KernelInfo scaleKernel;
extern detail::KernelInfo countBlocksKernel;
extern detail::KernelInfo reverseBlocksKernel;

/// out[i] = x[i] + y[i] for i < x.size(), one thread per element.
void vectorAdd(const Launch &launch, detail::ArrayArgument<const float, 1> x, detail::ArrayArgument<const float, 1> y,
               detail::ArrayArgument<float, 1> out);
/// out[i] = a * x[i]. Packs its arguments exactly as pykc's launch
/// functions do (the scalar in place, KernelInfo::argSizes set).
void scale(const Launch &launch, float a, detail::ArrayArgument<const float, 1> x, detail::ArrayArgument<float, 1> out);
/// Every thread adds 1 to counts[its block]; each block's first thread
/// writes blockIdx, blockDim and gridDim (9 ints) to ids[9 * block ...].
/// Blocks are numbered x fastest.
void countBlocks(const Launch &launch, detail::ArrayArgument<int, 1> counts, detail::ArrayArgument<int, 1> ids);
/// Reverses each block's chunk of x into out through dynamic shared memory
/// (launch.shared_bytes must hold blockDim.x floats).
void reverseBlocks(const Launch &launch, detail::ArrayArgument<const float, 1> x, detail::ArrayArgument<float, 1> out);

// CPU-device-only kernels (no PTX), for tests of the CPU device itself.

/// Waits until *gate is non-zero, then sets *done to 1 (one block only).
void waitForGate(const Launch &launch, std::atomic<int> *gate, std::atomic<int> *done);
/// Throws std::runtime_error("block N failed") in block `failingBlock`.
void throwInBlock(const Launch &launch, std::int64_t failingBlock);
/// The CPU entry of a checked kernel (arguments: failing, then the two
/// check slots): thread `failing` (a global x index) fails bounds check
/// site 0 with index and extent `failing`, as pyk_check_failed records it.
void failAtCpu(void **args, const detail::CpuBlockContext *block);

/// A kernel without CPU-device code.
extern detail::KernelInfo gpuOnlyKernel;

/// Registers the CPU entries with the fake CUDA driver when the loaded
/// libcuda.so.1 is that fake; returns whether it is.
bool registerWithFakeDriver();

/// Registers one more kernel's CPU entry with the fake driver, under the
/// name its PTX gives it; false when the fake driver is not loaded.
bool registerKernelWithFakeDriver(const char *symbol, detail::CpuKernelEntry entry);

/// The loaded fake driver's extra function `name` (fake_cuda/FakeCudaControl.h),
/// or null when libcuda.so.1 is not the fake.
void *fakeDriverSymbol(const char *name);

} // namespace pyk::test

#endif // PYK_TEST_TESTKERNELS_H
