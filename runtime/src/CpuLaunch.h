//===- CpuLaunch.h - Running a kernel on the CPU device --------------------===//
//
// A CPU-device launch calls the kernel's CpuKernelEntry once per block (the
// entry runs all threads of its block), blocks in parallel on the CPU
// device's thread pool, each with its own dynamic shared memory. A kernel
// that synchronises its grid runs every block at once instead, each on an
// OS thread of its own (CpuCooperativeLaunch.h).
//
// It does not validate the launch configuration (Launch.cpp does, for both
// devices, before anything else).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_CPULAUNCH_H
#define PYK_RUNTIME_CPULAUNCH_H

#include "pyk/Launch.h"

#include <cstddef>
#include <cstdint>

namespace pyk::detail {

/// Alignment of a block's dynamic shared memory on the CPU device.
inline constexpr std::size_t cpuSharedMemoryAlignment = 64;

class GridBarrier;
struct WatchedLaunch;

/// One launch, as each of its blocks sees it.
struct CpuBlockLoop {
  CpuKernelEntry entry;
  void **args;
  std::uint32_t grid[3];
  std::uint32_t block[3];
  std::size_t sharedBytes;
  std::size_t fiberStackBytes;
  const WatchedLaunch *watched; ///< null without PYK_CPU_LAUNCH_TIMEOUT
  GridBarrier *gridBarrier;     ///< a cooperative launch's; null otherwise
};

/// The blockIdx of block `index` of `loop`, blockIdx.x varying fastest.
void cpuBlockIndex(const CpuBlockLoop &loop, std::uint64_t index, std::uint32_t blockIdx[3]);

/// Runs block `index` (blockIdx.x varying fastest) of `loop`, a
/// CpuBlockLoop, on the calling thread, with the thread's dynamic shared
/// memory; throws what the block threw or recorded (takeCpuBlockError). A
/// ThreadPool::Body.
void runCpuBlock(void *loop, std::uint64_t index);

/// Runs every block of the grid, blockIdx.x varying fastest, and returns
/// when all have finished; the block's fibers, if it runs its threads on
/// fibers, get stacks of at least `fiberStackBytes`. Rethrows the first
/// exception an entry threw or error it recorded (takeCpuBlockError);
/// blocks not started by then are skipped. A kernel that synchronises its
/// grid runs all its blocks at once (runCooperativeCpuKernel).
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
/// (KernelInfo::argSizes) and queues the launch. A cooperative grid larger
/// than the CPU device runs is a LaunchConfigError, before anything else.
/// A checked kernel's failed check is raised in place of a KernelError the
/// launch would throw, which it may have caused.
void launchOnCpu(const KernelInfo &kernel, const Launch &config, void **args);

} // namespace pyk::detail

#endif // PYK_RUNTIME_CPULAUNCH_H
