//===- ThreadPool.h - The CPU device's threads -----------------------------===//
//
// A fixed set of worker threads that run the blocks of CPU-device launches
// in parallel. The thread that asks for a parallel loop takes part in it, so
// a loop always makes progress, even when several threads (the program's own
// and the CPU streams' workers) run loops at the same time. Indices are
// handed out one at a time by an atomic counter; nothing is allocated per
// loop or per index.
//
// It is not for the CPU streams' ordering (CpuStream.h) or for what a block
// runs (CpuLaunch.h).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_THREADPOOL_H
#define PYK_RUNTIME_THREADPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace pyk::detail {

class ThreadPool {
public:
  /// What a loop runs for each index.
  using Body = void (*)(void *context, std::uint64_t index);

  /// A pool in which `participants` threads run loops: participants - 1
  /// workers plus the thread that asks.
  explicit ThreadPool(unsigned participants);
  /// Stops and joins the workers.
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Runs body(context, i) for every i in [0, count), in parallel, each
  /// exactly once, and returns when all have finished. The calling thread
  /// takes part. If a body throws, the indices not yet started are skipped
  /// and the first exception is rethrown here.
  void parallelFor(std::uint64_t count, Body body, void *context);

  /// Stops and joins the workers; later loops run in the calling thread.
  void shutdown() noexcept;

  /// Threads that take part in a loop, the caller included.
  unsigned participants() const { return static_cast<unsigned>(workers_.size()) + 1; }

private:
  struct Loop;
  void workerMain();
  /// The first queued loop with indices left, or null. Needs mutex_.
  Loop *findOpenLoop();
  /// Runs indices of `loop` until none is left.
  static void work(Loop &loop) noexcept;

  std::mutex mutex_;
  std::condition_variable loopQueued_; ///< wakes workers
  std::condition_variable helperLeft_; ///< wakes callers waiting for helpers to leave their loop
  Loop *loops_ = nullptr;              ///< queued loops, oldest first (intrusive list)
  std::atomic<bool> stopped_{false};
  std::vector<std::thread> workers_;
};

/// The CPU device's pool, created on first use with the device's thread
/// count (PYK_CPU_THREADS or one per hardware thread). Its workers are
/// joined when the program exits.
ThreadPool &cpuThreadPool();

} // namespace pyk::detail

#endif // PYK_RUNTIME_THREADPOOL_H
