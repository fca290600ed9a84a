//===- ThreadPool.cpp - The CPU device's threads ---------------------------===//
//
// Algorithm of parallelFor (the Loop lives on the caller's stack):
//  1. Queue the loop (under the mutex) and wake the workers.
//  2. The caller and any worker that joins take runs of `grain` indices
//     with next.fetch_add(grain) until they run past count. A grain of
//     about a sixteenth of each participant's share keeps the shared
//     counter off the critical path of small bodies (a block of an
//     elementwise kernel) and still balances uneven ones.
//  3. The caller unqueues the loop, so no worker joins it any more, and
//     waits until the workers inside it (helpers) have left. Every index
//     taken was run by its taker before it left, so the loop is complete;
//     leaving under the mutex makes the workers' writes visible to the
//     caller.
//
//===----------------------------------------------------------------------===//
#include "ThreadPool.h"

#include "DeviceState.h"

#include <algorithm>

namespace pyk::detail {

struct ThreadPool::Loop {
  Body body;
  void *context;
  std::uint64_t count;
  std::uint64_t grain;
  std::atomic<std::uint64_t> next{0};
  unsigned helpers = 0; ///< workers inside the loop; guarded by the pool's mutex
  std::mutex errorMutex;
  std::exception_ptr error; ///< the first exception a body threw
  Loop *nextLoop = nullptr; ///< the pool's queue; guarded by its mutex

  Loop(Body body_, void *context_, std::uint64_t count_, std::uint64_t grain_)
      : body(body_), context(context_), count(count_), grain(grain_) {}
};

ThreadPool::ThreadPool(unsigned participants) {
  unsigned workers = participants > 1 ? participants - 1 : 0;
  workers_.reserve(workers);
  for (unsigned i = 0; i < workers; ++i)
    workers_.emplace_back([this] { workerMain(); });
}

ThreadPool::~ThreadPool() {
  shutdown();
}

void ThreadPool::shutdown() noexcept {
  {
    std::lock_guard lock(mutex_);
    if (stopped_.load())
      return;
    stopped_.store(true);
  }
  loopQueued_.notify_all();
  for (std::thread &worker : workers_)
    worker.join();
}

void ThreadPool::work(Loop &loop) noexcept {
  for (;;) {
    const std::uint64_t first = loop.next.fetch_add(loop.grain, std::memory_order_relaxed);
    if (first >= loop.count)
      return;
    const std::uint64_t last = std::min(first + loop.grain, loop.count);
    try {
      for (std::uint64_t index = first; index < last; ++index)
        loop.body(loop.context, index);
    } catch (...) {
      std::lock_guard lock(loop.errorMutex);
      if (!loop.error)
        loop.error = std::current_exception();
      // Skip the indices nobody has taken yet.
      loop.next.store(loop.count, std::memory_order_relaxed);
      return;
    }
  }
}

ThreadPool::Loop *ThreadPool::findOpenLoop() {
  for (Loop *loop = loops_; loop; loop = loop->nextLoop)
    if (loop->next.load(std::memory_order_relaxed) < loop->count)
      return loop;
  return nullptr;
}

void ThreadPool::workerMain() {
  std::unique_lock lock(mutex_);
  for (;;) {
    Loop *loop = nullptr;
    loopQueued_.wait(lock, [&] { return stopped_.load() || (loop = findOpenLoop()) != nullptr; });
    if (!loop)
      return; // stopped; callers finish their own loops
    ++loop->helpers;
    lock.unlock();
    work(*loop);
    lock.lock();
    if (--loop->helpers == 0)
      helperLeft_.notify_all();
  }
}

void ThreadPool::parallelFor(std::uint64_t count, Body body, void *context) {
  if (count == 0)
    return;
  if (count == 1 || workers_.empty() || stopped_.load()) {
    for (std::uint64_t index = 0; index < count; ++index)
      body(context, index);
    return;
  }
  Loop loop(body, context, count, std::max<std::uint64_t>(1, count / (16 * std::uint64_t{participants()})));
  {
    std::lock_guard lock(mutex_);
    Loop **tail = &loops_;
    while (*tail)
      tail = &(*tail)->nextLoop;
    *tail = &loop;
  }
  loopQueued_.notify_all();
  work(loop);
  {
    std::unique_lock lock(mutex_);
    for (Loop **link = &loops_; *link; link = &(*link)->nextLoop) {
      if (*link == &loop) {
        *link = loop.nextLoop;
        break;
      }
    }
    helperLeft_.wait(lock, [&] { return loop.helpers == 0; });
  }
  if (loop.error)
    std::rethrow_exception(loop.error);
}

namespace {

/// Joins the pool's workers when the program exits. The pool itself is
/// never destroyed, so a launch from a later static destructor still finds
/// it (and runs in its own thread).
struct PoolShutdown {
  ThreadPool *pool;
  ~PoolShutdown() { pool->shutdown(); }
};

} // namespace

ThreadPool &cpuThreadPool() {
  static ThreadPool *pool = new ThreadPool(deviceState().cpuThreads);
  static PoolShutdown shutdownAtExit{pool};
  return *pool;
}

} // namespace pyk::detail
