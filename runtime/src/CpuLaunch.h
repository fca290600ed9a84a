//===- CpuLaunch.h - Running a kernel on the CPU device --------------------===//
//
// A CPU-device launch calls the kernel's CpuKernelEntry once per block (the
// entry runs all threads of its block), blocks in parallel on the CPU
// device's thread pool, each with its own dynamic shared memory.
//
// It does not validate the launch configuration (Launch.cpp does, for both
// devices, before anything else).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_CPULAUNCH_H
#define PYK_RUNTIME_CPULAUNCH_H

#include "pyk/Launch.h"

#include <cstddef>

namespace pyk::detail {

/// Alignment of a block's dynamic shared memory on the CPU device.
inline constexpr std::size_t cpuSharedMemoryAlignment = 64;

/// Runs every block of the grid, blockIdx.x varying fastest, and returns
/// when all have finished; the block's fibers, if it runs its threads on
/// fibers, get stacks of at least `fiberStackBytes`. Rethrows the first
/// exception an entry threw or error it recorded (takeCpuBlockError);
/// blocks not started by then are skipped.
/// With PYK_CPU_LAUNCH_TIMEOUT, a launch running longer aborts the program
/// (LaunchWatchdog.h).
void runCpuKernel(const KernelInfo &kernel, const Dim3 &grid, const Dim3 &block, std::size_t sharedBytes,
                  std::size_t fiberStackBytes, void **args);

/// The stack each fiber of `kernel` needs: PYK_CPU_FIBER_STACK plus its
/// local arrays (KernelInfo::localMemoryBytes). Throws pyk::Error, naming
/// the kernel and the need, when that is over maxCpuFiberStackBytes.
std::size_t cpuFiberStackBytes(const KernelInfo &kernel);

/// Whether the calling thread is running a block of a kernel (possibly on
/// one of the block's fibers).
bool cpuThreadRunsABlock() noexcept;

/// Launches `kernel` on the CPU device (`config` already validated). On the
/// default stream it waits for the work queued on every stream, then runs
/// the kernel before returning. On a stream it copies the argument values
/// (KernelInfo::argSizes) and queues the launch.
void launchOnCpu(const KernelInfo &kernel, const Launch &config, void **args);

} // namespace pyk::detail

#endif // PYK_RUNTIME_CPULAUNCH_H
