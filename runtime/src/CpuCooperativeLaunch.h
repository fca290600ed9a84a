//===- CpuCooperativeLaunch.h - Grids that synchronise, on the CPU device --===//
//
// A kernel that calls g.sync() of cuda.cg.this_grid()
// (KernelInfo::gridSynchronises) needs every block of its grid running at
// once, as a GPU's cooperative launch has them resident at once: a block
// waiting at a grid sync waits for all the others. The thread pool runs as
// many blocks at a time as it has threads, so such a launch runs each block
// on an OS thread of its own instead (the launcher runs one), all sharing
// one GridBarrier, and joins them. Each thread has its own BlockScheduler,
// fiber stacks and dynamic shared memory, made for the launch and freed
// when the thread ends.
//
// It is not the ordinary launch (CpuLaunch.h), whose path it leaves as it
// was.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_CPUCOOPERATIVELAUNCH_H
#define PYK_RUNTIME_CPUCOOPERATIVELAUNCH_H

#include "CpuLaunch.h"
#include "pyk/Launch.h"

#include <cstdint>

namespace pyk::detail {

/// The most blocks a cooperative grid may have on the CPU device: each is
/// an OS thread for the whole launch (with its own stack, 8 MiB of address
/// space by default), and a GPU holds a few thousand blocks of 32 threads
/// at once.
inline constexpr std::uint64_t maxCpuCooperativeBlocks = 1024;

/// The most threads a cooperative grid may have on the CPU device, all its
/// blocks together: every one is a fiber whose stack (two memory mappings,
/// PYK_CPU_FIBER_STACK bytes and a 64 KiB guard of address space) exists
/// for the whole launch, and 16384 of them take 32768 mappings, half of
/// Linux's default vm.max_map_count.
inline constexpr std::uint64_t maxCpuCooperativeThreads = 16384;

/// The most blocks of `threadsPerBlock` threads (at least 1) a cooperative
/// grid may have on the CPU device.
std::uint64_t maxCpuCooperativeGrid(std::uint64_t threadsPerBlock);

/// Throws LaunchConfigError, naming the kernel, the grid's blocks, the
/// largest grid that fits and why, when `config`'s grid is larger than the
/// CPU device runs at once.
void checkCooperativeCpuLaunch(const KernelInfo &kernel, const Launch &config);

/// Runs the `blocks` blocks of `loop` all at once, each on an OS thread of
/// its own (the calling thread runs block 0), with a GridBarrier for their
/// grid syncs, and returns when all have finished. Rethrows the error that
/// failed the grid (GridBarrier.h), or a pyk::Error naming the block whose
/// OS thread could not be started (the blocks already started are released
/// at their next grid sync).
void runCooperativeCpuKernel(const KernelInfo &kernel, CpuBlockLoop loop, std::uint64_t blocks);

} // namespace pyk::detail

#endif // PYK_RUNTIME_CPUCOOPERATIVELAUNCH_H
