//===- BlockScheduler.h - One block's GPU threads as fibers ----------------===//
//
// What pyk_cpu_run_block and the barrier and warp functions of
// pyk/CpuDevice.h run on: each OS thread that runs blocks has one
// BlockScheduler, which runs one block at a time, every GPU thread of it on
// a Fiber, and keeps its stacks and tables for the next block (nothing is
// allocated once it has run a block at least as large, with stacks at
// least as large).
//
// Algorithm (all on one OS thread, so nothing needs a lock):
//  1. Prepare a fiber per thread and queue them all, in thread order.
//  2. Run the queue's head until it returns or reaches a barrier or warp
//     operation, then switch to the new head (directly, fiber to fiber).
//  3. A barrier opens when all the block's threads have arrived; a warp
//     operation completes when all lanes of its effective mask have (the
//     mask's lanes that exist and have not returned, CUDA's rule for
//     exited lanes; see WarpOperations.cpp). Whoever arrives last, or the
//     lane whose return leaves only arrived lanes in the effective mask,
//     computes every participant's result and queues them all, in thread
//     order, behind what is already queued. A grid sync's barrier opens
//     once every block of the grid has arrived too: the last thread's call
//     blocks the OS thread until then (GridBarrier.h).
//  4. When the queue is empty: every thread has returned (the block is
//     done), or all that have not are waiting, which is an error (misuse is
//     detected as early as it is certain; step 4 catches the rest).
//  5. An error (misuse, or a C++ exception thrown by the thread function)
//     is recorded and the block is abandoned: the fiber that finds it
//     switches straight back to the OS thread's stack, and the suspended
//     fibers are never resumed.
//
// It is not the launch (CpuLaunch.h), which turns a recorded error into an
// exception once the block entry has returned.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_BLOCKSCHEDULER_H
#define PYK_RUNTIME_BLOCKSCHEDULER_H

#include "Fiber.h"
#include "pyk/CpuDevice.h"
#include "pyk/Launch.h"

#include <cstdint>
#include <deque>
#include <exception>
#include <string>
#include <vector>

namespace pyk::detail {

class GridBarrier;

/// The barrier operations; the threads of one barrier must use the same.
/// Grid is the block's half of a grid sync (GridBarrier.h does the rest).
enum class BarrierOp : std::uint8_t { Sync, Count, And, Or, Grid };
/// The warp operations; the lanes of one mask must use the same.
enum class WarpOp : std::uint8_t { Sync, Shuffle, Ballot, MatchAny, MatchAll };

class BlockScheduler {
public:
  /// The calling OS thread's scheduler.
  static BlockScheduler &ofThisThread();
  /// The scheduler whose block the calling fiber belongs to; null when the
  /// caller is not one of a block's fibers.
  static BlockScheduler *running() { return running_; }

  BlockScheduler() = default;
  BlockScheduler(const BlockScheduler &) = delete;
  BlockScheduler &operator=(const BlockScheduler &) = delete;

  /// The stack each fiber of the blocks it runs from now on gets at least
  /// (the launch sets it for its kernel's local arrays); never less than
  /// PYK_CPU_FIBER_STACK.
  void setFiberStackBytes(std::size_t bytes) { fiberStackBytes_ = bytes; }
  /// The grid barrier of the cooperative launch whose blocks it runs from
  /// now on; null for a launch that is not cooperative, whose grid syncs
  /// are errors.
  void setGridBarrier(GridBarrier *barrier) { gridBarrier_ = barrier; }

  /// Runs `thread` for every thread of `block` on fibers (steps 1-5); an
  /// error is kept for takeCpuBlockError().
  void run(pyk_cpu_thread_fn thread, void **args, const CpuBlockContext *block, void *frame) noexcept;

  /// The calling thread waits at barrier 0; returns how many of the block's
  /// threads passed a non-zero predicate.
  std::uint32_t barrier(BarrierOp op, std::int32_t predicate, const char *where) noexcept;
  /// The calling lane's part in a warp operation; returns its result
  /// (shuffle: the source's value; ballot, match_any: a lane mask).
  std::uint64_t warpOperation(WarpOp op, std::uint32_t mask, std::uint64_t value, std::uint32_t source,
                              const char *where) noexcept;
  /// The lanes of the calling thread's warp that have not returned.
  std::uint32_t activeMask() const noexcept;

private:
  enum class Wait : std::uint8_t { None, Barrier, Warp, Returned };

  struct ThreadState {
    Wait wait = Wait::None;
    WarpOp op = WarpOp::Sync; ///< while wait == Warp
    std::uint32_t mask = 0;
    std::uint32_t source = 0;
    const char *where = nullptr;
    std::uint64_t value = 0;
    std::uint64_t result = 0; ///< of the last warp operation
  };

  struct WarpState {
    std::uint32_t live = 0;    ///< lanes that exist and have not returned
    std::uint32_t waiting = 0; ///< lanes waiting at a warp operation
    /// Unless `mixed`, every waiting lane waits at groupOp with the
    /// effective mask groupMask & live, which spares the usual call a look
    /// at each waiting lane.
    std::uint32_t groupMask = 0;
    WarpOp groupOp = WarpOp::Sync;
    bool mixed = false;
  };

  /// A thread's fiber and its stack, reused by later blocks.
  struct Slot {
    FiberStack stack;
    Fiber fiber;
    explicit Slot(std::size_t stackSize) : stack(stackSize), fiber(stack) {}
  };

  static void fiberMain(void *scheduler);
  /// Sizes the tables and stacks for `threads` threads and queues them all.
  /// Kept stacks smaller than the launch needs are replaced.
  void setUp(std::uint32_t threads);
  /// Step 2: switches to the queue's head (not when it is the caller).
  /// `ending`: the caller has returned or the block is abandoned.
  void switchToNext(bool ending) noexcept;
  void enqueue(std::uint32_t thread) noexcept;
  /// The queue's head, taken off it (the queue must not be empty).
  std::uint32_t dequeue() noexcept;
  /// The caller's thread has returned from the thread function.
  [[noreturn]] void threadReturned() noexcept;
  /// Every thread has arrived: the barrier's result, and all queued.
  void openBarrier() noexcept;
  /// Whether the lanes of `group` (an effective mask) have all arrived at
  /// one warp operation with `group` as their effective mask.
  bool groupReady(std::uint32_t warp, std::uint32_t group) const noexcept;
  /// Every lane of the effective mask `group` has arrived: their results,
  /// and all queued.
  void completeWarpOperation(std::uint32_t warp, std::uint32_t group) noexcept;
  /// A lane of `warp` has returned: completes the warp operations whose
  /// lanes it no longer keeps waiting.
  void completeReadyGroups(std::uint32_t warp) noexcept;
  /// Records an error (the first one counts; a message is a KernelError).
  /// Returns, so that the caller's temporaries die before abandon().
  void recordError(std::exception_ptr error) noexcept;
  void recordError(const std::string &message) noexcept;
  /// Switches from the running fiber back to run(), for good (step 5).
  [[noreturn]] void abandon() noexcept;
  /// The error for an empty queue with threads left (step 4).
  void recordDeadlock() noexcept;
  /// The error for a grid sync whose thread (0, 0, 0) had returned.
  void recordGridSyncNotReached() noexcept;
  /// Every thread that has not returned waits at the barrier: it opens, as
  /// PTX's bar.sync does, but a grid sync whose thread 0 returned.
  void openWithoutReturnedThreads() noexcept;
  /// The block's half of a grid sync is complete: waits for the other
  /// blocks; abandons the block when the grid has failed.
  void waitForGrid() noexcept;
  /// Records an error and abandons the block if the running thread's call
  /// (threads_[thread]: op, mask, where; `group`: its effective mask) is
  /// misuse. Not called when the caller joins the lanes waiting, all alike.
  void checkWarpCall(std::uint32_t thread, std::uint32_t group) noexcept;

  /// "(x, y, z)" of thread `thread`, and of the block.
  std::string threadName(std::uint32_t thread) const;
  std::string blockName() const;
  /// "<operation> at <where> with mask 0x... in thread (x, y, z)" for the
  /// warp operation `thread` calls.
  std::string warpCall(std::uint32_t thread) const;

  static inline constinit thread_local BlockScheduler *running_ = nullptr;

  // The block being run.
  pyk_cpu_thread_fn thread_ = nullptr;
  void **args_ = nullptr;
  const CpuBlockContext *block_ = nullptr;
  void *frame_ = nullptr;
  std::uint32_t threadCount_ = 0;
  std::uint32_t returned_ = 0;
  std::uint32_t current_ = 0; ///< the running thread
  std::exception_ptr error_;

  // The queue of threads ready to run: a ring of threadCount_ entries.
  std::vector<std::uint32_t> ready_;
  std::uint32_t readyHead_ = 0;
  std::uint32_t readyCount_ = 0;

  std::vector<ThreadState> threads_;
  std::vector<WarpState> warps_;

  // Barrier 0.
  std::uint32_t barrierArrived_ = 0;
  BarrierOp barrierOp_ = BarrierOp::Sync;
  const char *barrierWhere_ = nullptr; ///< of the first thread that arrived
  std::uint32_t barrierPassed_ = 0;    ///< arrivals with a non-zero predicate
  std::uint32_t barrierResult_ = 0;    ///< barrierPassed_ of the last opened barrier

  Fiber osThread_;         ///< the OS thread's own stack, where run() waits
  std::deque<Slot> slots_; ///< a deque: fibers must not move
  std::size_t slotStackBytes_ = 0;  ///< the stack of every slot
  std::size_t fiberStackBytes_ = 0; ///< what the launch asked for
  GridBarrier *gridBarrier_ = nullptr;
};

/// The error the last block run by the calling OS thread recorded (null if
/// none), and forgets it. The launch rethrows it once the block entry has
/// returned.
std::exception_ptr takeCpuBlockError() noexcept;

} // namespace pyk::detail

#endif // PYK_RUNTIME_BLOCKSCHEDULER_H
