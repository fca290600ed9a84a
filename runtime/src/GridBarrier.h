//===- GridBarrier.h - g.sync() across the blocks of a CPU-device grid -----===//
//
// The grid-wide half of pyk_cpu_grid_sync: one GridBarrier per cooperative
// launch (KernelInfo::gridSynchronises), which runs every block of the grid
// at once, each on an OS thread of its own. When the last thread of a block
// reaches a grid sync (its block barrier, BarrierOp::Grid, is complete),
// that thread's OS thread waits here until every block has arrived, then
// the block barrier opens. A mutex and a condition variable: what a block
// wrote before the sync is visible to every block after it (the mutex's
// release and acquire order it).
//
// Misuse is an error, not a hang: a block that finishes while others wait
// here, or arrives after one has finished, can never be waited for (on a
// GPU it would hang the grid). The first error of the launch, that or any
// block's own (an exception, a barrier misused inside it), fails the grid:
// the blocks waiting are released to abandon their fibers, as are those
// that arrive later, and the launch rethrows that first error. Errors a
// block reports after the grid has failed are consequences, and dropped.
//
// It is not the launch (CpuCooperativeLaunch.cpp) nor a block's barrier
// (Barriers.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_GRIDBARRIER_H
#define PYK_RUNTIME_GRIDBARRIER_H

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>

namespace pyk::detail {

class GridBarrier {
public:
  /// A barrier for a grid of `blocks` blocks.
  explicit GridBarrier(std::uint64_t blocks) : blocks_(blocks) {}
  GridBarrier(const GridBarrier &) = delete;
  GridBarrier &operator=(const GridBarrier &) = delete;

  /// Block `blockIdx` (every thread of it) has reached the grid sync at
  /// `where`. Returns true once every block of the grid has, false when the
  /// grid has failed (before or while it waits, or by this arrival after a
  /// block has finished): the caller then abandons its block.
  bool arrive(const std::uint32_t blockIdx[3], const char *where) noexcept;

  /// Block `blockIdx` has finished: every thread of it returned (`error`
  /// null), or the block failed with `error`. Either can fail the grid.
  void finish(const std::uint32_t blockIdx[3], std::exception_ptr error) noexcept;

  /// Fails the grid with `error` (unless it has failed already).
  void fail(std::exception_ptr error) noexcept;

  /// Whether the grid has failed.
  bool failed() noexcept;

  /// The error that failed the grid; null if none. Read once every block
  /// has finished.
  std::exception_ptr error() noexcept;

private:
  /// Records `error` as the grid's and releases the blocks waiting. Needs
  /// mutex_.
  void failLocked(std::exception_ptr error) noexcept;

  std::mutex mutex_;
  std::condition_variable opened_; ///< a sync completed, or the grid failed
  const std::uint64_t blocks_;
  std::uint64_t arrived_ = 0;    ///< blocks waiting at the current sync
  std::uint64_t generation_ = 0; ///< syncs completed
  /// The first block to arrive at the current sync, and its call.
  std::uint32_t firstWaiting_[3] = {};
  const char *waitingWhere_ = nullptr;
  bool anyFinished_ = false;
  std::uint32_t firstFinished_[3] = {}; ///< the first block that finished
  std::exception_ptr error_;            ///< non-null: the grid has failed
};

} // namespace pyk::detail

#endif // PYK_RUNTIME_GRIDBARRIER_H
