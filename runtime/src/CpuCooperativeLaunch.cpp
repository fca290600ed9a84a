//===- CpuCooperativeLaunch.cpp - Grids that synchronise, on the CPU device ===//
//
// Algorithm:
//  1. Start an OS thread for each block but block 0, which the launcher
//     runs itself. Every block runs as the pool would run it
//     (runCpuBlock), with the launch's GridBarrier, then tells the barrier
//     it has finished, with its error if it failed.
//  2. A thread that cannot be started fails the grid: the blocks started
//     are released at their next grid sync (or finish first), and block 0
//     is not run.
//  3. Join every thread; rethrow the error that failed the grid, if any.
//
//===----------------------------------------------------------------------===//
#include "CpuCooperativeLaunch.h"

#include "GridBarrier.h"
#include "LaunchCheck.h"
#include "pyk/Error.h"

#include <algorithm>
#include <exception>
#include <string>
#include <thread>
#include <vector>

namespace pyk::detail {
namespace {

/// Step 1, for one block, on the thread that runs it.
void runBlockOfGrid(CpuBlockLoop *loop, std::uint64_t index) noexcept {
  std::exception_ptr error;
  try {
    runCpuBlock(loop, index);
  } catch (...) {
    error = std::current_exception();
  }
  std::uint32_t blockIdx[3];
  cpuBlockIndex(*loop, index, blockIdx);
  loop->gridBarrier->finish(blockIdx, std::move(error));
}

} // namespace

std::uint64_t maxCpuCooperativeGrid(std::uint64_t threadsPerBlock) {
  return std::min(maxCpuCooperativeBlocks, maxCpuCooperativeThreads / std::max<std::uint64_t>(1, threadsPerBlock));
}

void checkCooperativeCpuLaunch(const KernelInfo &kernel, const Launch &config) {
  const std::uint64_t threads = std::uint64_t{config.block.x} * config.block.y * config.block.z;
  const std::uint64_t blocks = std::uint64_t{config.grid.x} * config.grid.y * config.grid.z;
  const std::uint64_t largest = maxCpuCooperativeGrid(threads);
  if (blocks <= largest)
    return;
  throw LaunchConfigError(
      "pyk: cannot launch " + launchLabel(kernel, config) +
      ": the kernel synchronises its grid (cuda.cg.this_grid().sync()), so it is launched "
      "cooperatively, with every block running at once; the grid has " +
      std::to_string(blocks) + " blocks, and the CPU device runs at most " + std::to_string(largest) + " blocks of " +
      std::to_string(threads) + (threads == 1 ? " thread" : " threads") +
      " at once (each block on an OS thread of its own, at most " + std::to_string(maxCpuCooperativeBlocks) +
      " blocks and " + std::to_string(maxCpuCooperativeThreads) + " threads in all): launch at most " +
      std::to_string(largest) + " blocks");
}

void runCooperativeCpuKernel(const KernelInfo &kernel, CpuBlockLoop loop, std::uint64_t blocks) {
  GridBarrier barrier(blocks);
  loop.gridBarrier = &barrier;
  std::vector<std::thread> threads;
  threads.reserve(blocks - 1);
  for (std::uint64_t index = 1; index < blocks; ++index) {
    try {
      threads.emplace_back(runBlockOfGrid, &loop, index);
    } catch (const std::exception &failure) {
      std::uint32_t blockIdx[3];
      cpuBlockIndex(loop, index, blockIdx);
      barrier.fail(std::make_exception_ptr(
          Error("pyk: cannot launch " + kernelLabel(kernel) + " on the CPU device: the OS thread of its block (" +
                std::to_string(blockIdx[0]) + ", " + std::to_string(blockIdx[1]) + ", " + std::to_string(blockIdx[2]) +
                ") cannot be started (" + failure.what() +
                "); a kernel that synchronises its grid runs every block at once, each on an OS thread of its "
                "own: launch fewer blocks, or allow the process more threads")));
      break;
    }
  }
  if (!barrier.failed())
    runBlockOfGrid(&loop, 0);
  for (std::thread &thread : threads)
    thread.join();
  if (std::exception_ptr error = barrier.error())
    std::rethrow_exception(error);
}

} // namespace pyk::detail
