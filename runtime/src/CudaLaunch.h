//===- CudaLaunch.h - Launching a kernel on the GPU ------------------------===//
//
// The first GPU launch of a kernel loads its module (once per KernelModule,
// the embedded cubin when it matches the GPU, else the PTX through the
// driver's JIT) and looks up its CUfunction, which it caches in the
// KernelInfo. Every later launch reads that atomic and calls cuLaunchKernel:
// no allocation, no string work, no lookup.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_CUDALAUNCH_H
#define PYK_RUNTIME_CUDALAUNCH_H

#include "pyk/Launch.h"

namespace pyk::detail {

/// Launches `kernel` on the GPU (`config` already validated), asynchronously
/// on `config.stream` or the default stream; a kernel that synchronises its
/// grid cooperatively, with the stream's grid barrier in its last argument
/// (in a copy of `args`: the caller's is not written). Throws CudaError
/// naming the failed call (cuModuleLoadDataEx with the JIT compiler's log,
/// cuModuleGetFunction, cuLaunchKernel, cuLaunchCooperativeKernel, ...)
/// and LaunchConfigError when the kernel's static shared memory and the
/// dynamic shared memory together exceed the GPU's limit, or when a
/// cooperative grid has more blocks than the GPU holds at once.
void launchOnGpu(KernelInfo &kernel, const Launch &config, void **args);

/// The most blocks of `block` with `sharedBytes` of dynamic shared memory
/// the GPU holds at once for `kernel` (loading its module if need be):
/// blocks per multiprocessor times the multiprocessors.
std::uint64_t maxCooperativeGridOnGpu(KernelInfo &kernel, const Dim3 &block, std::size_t sharedBytes);

} // namespace pyk::detail

#endif // PYK_RUNTIME_CUDALAUNCH_H
