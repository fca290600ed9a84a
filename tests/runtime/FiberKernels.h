//===- FiberKernels.h - Hand-written kernels that synchronise --------------===//
//
// What pykc generates for a kernel that uses barriers or warp operations,
// written by hand: a thread function (pyk_cpu_thread_fn) that runs one GPU
// thread and calls the runtime's barrier and warp functions, and a block
// entry that gives it the block's static shared memory and calls
// pyk_cpu_run_block. CPU device only (no PTX).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_TEST_FIBERKERNELS_H
#define PYK_TEST_FIBERKERNELS_H

#include "pyk/CpuDevice.h"
#include "pyk/pyk.h"

#include <cstdint>
#include <cstring>

namespace pyk::test {

using detail::CpuBlockContext;

/// Argument i of a launch, as a thread function reads it.
template <typename T> T fiberArg(void **args, int i) {
  T value;
  std::memcpy(&value, args[i], sizeof(T));
  return value;
}

/// Threads per block.
inline std::uint32_t blockThreads(const CpuBlockContext *block) {
  return block->blockDim[0] * block->blockDim[1] * block->blockDim[2];
}

/// The thread's index in its block, x fastest.
inline std::uint32_t linearThread(const CpuBlockContext *block, std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return x + block->blockDim[0] * (y + block->blockDim[1] * z);
}

/// The block's index in the grid, x fastest.
inline std::uint32_t linearBlock(const CpuBlockContext *block) {
  const std::uint32_t *index = block->blockIdx, *grid = block->gridDim;
  return index[0] + grid[0] * (index[1] + grid[1] * index[2]);
}

/// The block entry of a kernel whose threads run `Thread`, with
/// `FrameBytes` of static shared memory (64-byte aligned; none when 0).
template <pyk_cpu_thread_fn Thread, std::size_t FrameBytes> void fiberEntry(void **args, const CpuBlockContext *block) {
  alignas(64) unsigned char frame[FrameBytes ? FrameBytes : 1];
  pyk_cpu_run_block(Thread, args, block, FrameBytes ? frame : nullptr);
}

/// Launches the kernel of `Thread` with `values` as its arguments, each in
/// an 8-byte slot (as generated launch functions pass them). `LocalBytes`:
/// the bytes of local arrays its KernelInfo says a thread may hold.
template <pyk_cpu_thread_fn Thread, std::size_t FrameBytes = 0, std::uint64_t LocalBytes = 0, typename... T>
void launchFibers(const Launch &config, T... values) {
  static_assert(((sizeof(T) <= sizeof(std::uint64_t)) && ...), "the launch ABI passes at most 8 bytes per argument");
  static const detail::KernelModule module{"fiber_kernels", nullptr};
  static detail::KernelInfo kernel{&module,  "fiber_kernel", fiberEntry<Thread, FrameBytes>, sizeof...(T), nullptr, 0,
                                   false,    LocalBytes};
  [[maybe_unused]] std::uint64_t slots[sizeof...(T) + 1] = {};
  void *args[sizeof...(T) + 1] = {};
  [[maybe_unused]] int i = 0;
  ((std::memcpy(&slots[i], &values, sizeof(T)), args[i] = &slots[i], ++i), ...);
  detail::launch(kernel, config, args);
}

} // namespace pyk::test

#endif // PYK_TEST_FIBERKERNELS_H
