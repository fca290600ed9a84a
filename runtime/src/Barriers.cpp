//===- Barriers.cpp - cuda.syncthreads and friends on the CPU device -------===//
//
// Barrier 0 of a block: it opens when every thread of the block that has not
// returned has arrived, whatever the call site, as PTX's bar.sync waits for
// the non-exited threads only (Numba's simulator does the same): Numba's
// `if i >= n: return` before a cuda.syncthreads() works. The counting forms
// count the threads that arrived. A barrier that threads blocked in a warp
// operation cannot reach is found when nothing is left to run.
//
// Mixing syncthreads with syncthreads_count/and/or, or those with each
// other, at one barrier is an error too (PTX: bar.sync and bar.red must not
// be intermixed on one barrier, and bar.red's threads use one operation).
//
// A grid sync (g.sync() of cuda.cg.this_grid()) is a barrier of the block
// first, and meeting any other barrier operation there is an error; when it
// opens, the last thread's OS thread waits for the other blocks
// (GridBarrier.h) before queueing the block's threads again. As the block's
// barrier, it does not wait for threads that have returned (Numba's own
// heat-equation example returns the threads past the end before its loop
// of syncs), but for thread (0, 0, 0): on a GPU it stands for its block at
// the grid's barrier (prelude.cuh: pyk_grid_sync), so the grid would wait
// for it forever.
//
//===----------------------------------------------------------------------===//
#include "BlockScheduler.h"
#include "GridBarrier.h"

#include <cassert>

namespace pyk::detail {
namespace {

const char *barrierName(BarrierOp op) {
  switch (op) {
  case BarrierOp::Sync:
    return "cuda.syncthreads()";
  case BarrierOp::Count:
    return "cuda.syncthreads_count()";
  case BarrierOp::And:
    return "cuda.syncthreads_and()";
  case BarrierOp::Or:
    return "cuda.syncthreads_or()";
  case BarrierOp::Grid:
    return "cuda.cg.this_grid().sync()";
  }
  __builtin_unreachable();
}

BlockScheduler &scheduler() {
  BlockScheduler *running = BlockScheduler::running();
  assert(running && "a barrier outside pyk_cpu_run_block");
  return *running;
}

} // namespace

std::uint32_t BlockScheduler::barrier(BarrierOp op, std::int32_t predicate, const char *where) noexcept {
  std::uint32_t t = current_;
  if (op == BarrierOp::Grid && !gridBarrier_) {
    recordError(std::string(barrierName(op)) + " at " + where + " in thread " + threadName(t) + " of block " +
                blockName() +
                ": the kernel was not launched cooperatively (its KernelInfo::gridSynchronises is "
                "false), so its blocks need not run at once and cannot wait for each other");
    abandon();
  }
  if (barrierArrived_ == 0) {
    barrierOp_ = op;
    barrierWhere_ = where;
    barrierPassed_ = 0;
  } else if (op != barrierOp_) {
    const bool grid = op == BarrierOp::Grid || barrierOp_ == BarrierOp::Grid;
    recordError(std::string(barrierName(op)) + " at " + where + " in thread " + threadName(t) + " of block " +
                blockName() + " meets " + barrierName(barrierOp_) + " at " + barrierWhere_ +
                (grid ? ": the threads of a block must all reach a grid sync together, not meet syncthreads, "
                        "syncthreads_count, syncthreads_and or syncthreads_or there"
                      : ": the threads of a barrier must all call the same one of syncthreads, syncthreads_count, "
                        "syncthreads_and and syncthreads_or"));
    abandon();
  }
  threads_[t].wait = Wait::Barrier;
  ++barrierArrived_;
  barrierPassed_ += predicate != 0;
  if (barrierArrived_ == threadCount_) {
    if (op == BarrierOp::Grid)
      waitForGrid();
    openBarrier();
  } else if (barrierArrived_ + returned_ == threadCount_) {
    openWithoutReturnedThreads();
  }
  switchToNext(false);
  // Valid until the next barrier opens, which needs this thread again.
  return barrierResult_;
}

void BlockScheduler::openBarrier() noexcept {
  assert(readyCount_ == 0 && "every thread waits at the barrier");
  // syncthreads_and: whether every thread that arrived passed (those that
  // returned take no part); count and or: how many passed.
  barrierResult_ = barrierOp_ == BarrierOp::And ? barrierPassed_ == barrierArrived_ : barrierPassed_;
  barrierArrived_ = 0;
  readyHead_ = 0;
  readyCount_ = 0;
  for (std::uint32_t t = 0; t < threadCount_; ++t) {
    if (threads_[t].wait == Wait::Returned)
      continue; // a grid sync's, which does not wait for them
    threads_[t].wait = Wait::None;
    ready_[readyCount_++] = t;
  }
}

void BlockScheduler::openWithoutReturnedThreads() noexcept {
  if (barrierOp_ == BarrierOp::Grid) {
    if (threads_[0].wait == Wait::Returned) {
      recordGridSyncNotReached();
      abandon();
    }
    waitForGrid();
  }
  openBarrier();
}

void BlockScheduler::waitForGrid() noexcept {
  if (gridBarrier_->arrive(block_->blockIdx, barrierWhere_))
    return;
  // The launch reports the error that failed the grid, not this one.
  recordError("cuda.cg.this_grid().sync() at " + std::string(barrierWhere_) + " in block " + blockName() +
              " was abandoned: another block of the grid failed");
  abandon();
}

void BlockScheduler::recordGridSyncNotReached() noexcept {
  recordError(std::string(barrierName(barrierOp_)) + " at " + barrierWhere_ + " was not reached by thread " +
              threadName(0) + " of block " + blockName() +
              ", which had returned: the first thread of each block stands for its block at the grid's barrier, "
              "so a GPU would wait for it forever (the block's other threads may return first)");
}

void BlockScheduler::recordDeadlock() noexcept {
  // Lanes of a mask that reached different warp operations were an error
  // when the later one arrived, lanes whose effective masks differ wait
  // only for lanes that have not arrived at a warp operation, and a barrier
  // that every thread still running waits at has opened or failed; so some
  // threads wait at the barrier for others that wait in a warp operation
  // for one of them.
  std::uint32_t blocked = 0;
  while (blocked < threadCount_ && threads_[blocked].wait != Wait::Warp)
    ++blocked;
  assert(barrierArrived_ != 0 && blocked < threadCount_ && "only a barrier and a warp operation can deadlock");
  std::string returned;
  if (returned_ != 0)
    returned = "; " + std::to_string(returned_) + " of " + std::to_string(threadCount_) + " threads had returned";
  recordError(std::string(barrierName(barrierOp_)) + " at " + barrierWhere_ +
              " was not reached by every thread of block " + blockName() + ": " + warpCall(blocked) +
              " waits for lanes that wait at the barrier" + returned);
}

} // namespace pyk::detail

using pyk::detail::BarrierOp;
using pyk::detail::scheduler;

extern "C" void pyk_cpu_syncthreads(const char *where) {
  scheduler().barrier(BarrierOp::Sync, 0, where);
}

extern "C" int32_t pyk_cpu_syncthreads_count(int32_t predicate, const char *where) {
  return static_cast<int32_t>(scheduler().barrier(BarrierOp::Count, predicate, where));
}

extern "C" int32_t pyk_cpu_syncthreads_and(int32_t predicate, const char *where) {
  return scheduler().barrier(BarrierOp::And, predicate, where) != 0;
}

extern "C" int32_t pyk_cpu_syncthreads_or(int32_t predicate, const char *where) {
  return scheduler().barrier(BarrierOp::Or, predicate, where) != 0;
}

extern "C" void pyk_cpu_grid_sync(const char *where) {
  scheduler().barrier(BarrierOp::Grid, 0, where);
}
