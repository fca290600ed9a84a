//===- CpuStream.h - Streams of the CPU device -----------------------------===//
//
// A CPU stream is a worker thread that runs the work submitted to it (kernel
// launches, copies, event markers) one item at a time, in submission order.
// While it captures a graph, what is submitted is kept instead (CpuGraph).
//
// The CPU device's default stream behaves like CUDA's legacy default stream:
// work on it starts only after all work submitted earlier to every stream
// has finished (waitForCpuStreams), and it runs synchronously in the calling
// thread, so later work on any stream follows it. Freeing device memory waits
// the same way, as cuMemFree does, so an array may be destroyed while a
// stream still has work that uses it queued.
//
// A stream holds at most maxQueued items; submitting more waits, as
// cuLaunchKernel does when a GPU's launch queue is full. An error of work on
// a stream destroyed before it was synchronised is kept for the whole device
// and raised by the next pyk::synchronize(), stream synchronisation or copy
// to the host, where a GPU raises it too.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_CPUSTREAM_H
#define PYK_RUNTIME_CPUSTREAM_H

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pyk::detail {

class CpuStream {
public:
  using Task = std::function<void()>;

  /// The most items a stream holds queued (not counting the one running),
  /// about what a GPU's launch queue holds before cuLaunchKernel blocks.
  static constexpr std::size_t maxQueued = 1024;

  /// Starts the worker thread.
  CpuStream();
  /// Finishes the work already submitted, then stops the worker. An error
  /// that work raised and no synchronize() took becomes the device's
  /// (raiseOrphanedCpuStreamError).
  ~CpuStream();
  CpuStream(const CpuStream &) = delete;
  CpuStream &operator=(const CpuStream &) = delete;

  /// Queues `task` behind the work submitted before, first waiting while
  /// maxQueued items are queued, unless the caller runs a block of a kernel
  /// (which could be the work it would wait for). An exception the task
  /// throws is kept and rethrown by the next synchronize().
  void submit(Task task);
  /// Waits until the work submitted before this call has finished.
  void wait() noexcept;
  /// wait(), then rethrows the first exception a task threw since the last
  /// synchronize().
  void synchronize();
  /// Items queued and not yet started (for tests of the bound).
  std::size_t queued();

  /// From now until endCapture(), submit() keeps its tasks, in order,
  /// instead of queueing them (Stream::begin_capture).
  void beginCapture();
  /// The tasks kept since beginCapture(); submit() queues again.
  std::vector<Task> endCapture();

private:
  friend struct CpuStreamRegistry;
  void run();

  std::mutex mutex_;
  std::condition_variable workArrived_;
  std::condition_variable workDone_;
  std::condition_variable roomFreed_; ///< the queue dropped below maxQueued
  std::deque<Task> queue_;
  std::uint64_t submitted_ = 0; ///< tasks ever submitted
  std::uint64_t completed_ = 0; ///< tasks ever finished
  bool stopping_ = false;
  std::exception_ptr error_;
  bool capturing_ = false;
  std::vector<Task> captured_;
  std::thread worker_;
  CpuStream *nextLive_ = nullptr; ///< the list of live streams (CpuStream.cpp)
};

/// Waits until the work submitted so far to every CPU stream has finished
/// (the ordering of the legacy default stream). Errors stay with their
/// streams.
void waitForCpuStreams() noexcept;

/// waitForCpuStreams(), then rethrows the first error any stream's work
/// raised, a destroyed stream's first (pyk::synchronize() on the CPU
/// device).
void synchronizeCpuStreams();

/// Rethrows, once, the first error raised by the work of a stream that was
/// destroyed before a synchronize() took it; returns when there is none.
void raiseOrphanedCpuStreamError();

/// Whether a CPU stream captures a graph now.
bool anyCpuStreamCapturing() noexcept;

/// Throws pyk::Error naming `operation` while a CPU stream captures: work
/// on the default stream waits for every stream, and CUDA forbids that
/// while a stream captures (CUDA_ERROR_STREAM_CAPTURE_IMPLICIT on a GPU).
void rejectDefaultStreamWorkWhileCapturing(const char *operation);

} // namespace pyk::detail

#endif // PYK_RUNTIME_CPUSTREAM_H
