//===- CpuStream.cpp - Streams of the CPU device ---------------------------===//
//
// Each CpuStream is a worker thread over a FIFO of tasks. Live streams are
// kept in an intrusive list (no allocation, nothing to destroy at exit), so
// that the default stream and pyk::synchronize() can wait for all of them.
//
// Why a full queue cannot deadlock: the submitter waits only for the
// stream's worker, which runs its queue without waiting for anything that
// waits for room. Only a thread running a kernel's block could be what the
// worker waits for (the worker's own launch, or one its launch's pool loop
// waits for), and such a thread never waits for room.
//
//===----------------------------------------------------------------------===//
#include "CpuStream.h"

#include "CpuLaunch.h"
#include "pyk/Error.h"

#include <atomic>
#include <string>
#include <utility>

namespace pyk::detail {

/// The live CPU streams, linked through CpuStream::nextLive_. Constant-
/// initialised and trivially destructible, so streams that are statics of
/// the program can register and unregister at any time.
struct CpuStreamRegistry {
  std::mutex mutex;
  CpuStream *head = nullptr;
  /// The first error of a destroyed stream's work that no synchronize()
  /// took; on the heap (never freed while held), so that the registry stays
  /// trivially destructible.
  std::exception_ptr *orphanedError = nullptr;

  void add(CpuStream &stream) {
    std::lock_guard lock(mutex);
    stream.nextLive_ = head;
    head = &stream;
  }

  /// Unlinks `stream`, whose worker has finished, keeping its error.
  void remove(CpuStream &stream) {
    std::lock_guard lock(mutex);
    for (CpuStream **link = &head; *link; link = &(*link)->nextLive_) {
      if (*link == &stream) {
        *link = stream.nextLive_;
        break;
      }
    }
    if (stream.error_ && !orphanedError)
      orphanedError = new std::exception_ptr(std::move(stream.error_));
  }

  /// The orphaned error, taken; null when there is none.
  std::exception_ptr takeOrphanedError() {
    std::lock_guard lock(mutex);
    return takeOrphanedErrorLocked();
  }

  /// Waits for every live stream; returns the first error one of them
  /// holds, taking it, when `takeErrors`.
  std::exception_ptr waitForAll(bool takeErrors) {
    // The lock is held while waiting: a stream unregisters (in its
    // destructor) only after its worker is done, so none of them goes away
    // under this loop, and no stream's work takes this lock.
    std::lock_guard lock(mutex);
    std::exception_ptr first = takeErrors ? takeOrphanedErrorLocked() : nullptr;
    for (CpuStream *stream = head; stream; stream = stream->nextLive_) {
      stream->wait();
      if (!takeErrors)
        continue;
      std::lock_guard streamLock(stream->mutex_);
      std::exception_ptr error = std::exchange(stream->error_, nullptr);
      if (error && !first)
        first = error;
    }
    return first;
  }

private:
  std::exception_ptr takeOrphanedErrorLocked() {
    if (!orphanedError)
      return nullptr;
    std::exception_ptr error = std::move(*orphanedError);
    delete std::exchange(orphanedError, nullptr);
    return error;
  }
};

namespace {
constinit CpuStreamRegistry registry;
/// How many CPU streams capture now.
constinit std::atomic<int> capturingStreams{0};
} // namespace

CpuStream::CpuStream() {
  worker_ = std::thread([this] { run(); });
  registry.add(*this);
}

CpuStream::~CpuStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    if (capturing_) // destroyed mid-capture: what it kept goes with it
      --capturingStreams;
  }
  workArrived_.notify_one();
  worker_.join();
  registry.remove(*this);
}

void CpuStream::submit(Task task) {
  {
    std::unique_lock lock(mutex_);
    if (capturing_) {
      captured_.push_back(std::move(task));
      return;
    }
    if (!cpuThreadRunsABlock())
      roomFreed_.wait(lock, [&] { return queue_.size() < maxQueued; });
    queue_.push_back(std::move(task));
    ++submitted_;
  }
  workArrived_.notify_one();
}

void CpuStream::wait() noexcept {
  std::unique_lock lock(mutex_);
  std::uint64_t target = submitted_;
  workDone_.wait(lock, [&] { return completed_ >= target; });
}

void CpuStream::synchronize() {
  wait();
  std::exception_ptr error;
  {
    std::lock_guard lock(mutex_);
    error = std::exchange(error_, nullptr);
  }
  if (error)
    std::rethrow_exception(error);
}

std::size_t CpuStream::queued() {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void CpuStream::beginCapture() {
  std::lock_guard lock(mutex_);
  capturing_ = true;
  ++capturingStreams;
}

std::vector<CpuStream::Task> CpuStream::endCapture() {
  std::lock_guard lock(mutex_);
  capturing_ = false;
  --capturingStreams;
  return std::exchange(captured_, {});
}

void CpuStream::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    workArrived_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty())
      return; // stopping, and all submitted work is done
    Task task = std::move(queue_.front());
    queue_.pop_front();
    if (queue_.size() == maxQueued - 1)
      roomFreed_.notify_all();
    lock.unlock();
    try {
      task();
    } catch (...) {
      std::lock_guard errorLock(mutex_);
      if (!error_)
        error_ = std::current_exception();
    }
    task = nullptr; // release what the task captured before reporting it done
    lock.lock();
    ++completed_;
    workDone_.notify_all();
  }
}

void waitForCpuStreams() noexcept {
  registry.waitForAll(false);
}

void synchronizeCpuStreams() {
  if (std::exception_ptr error = registry.waitForAll(true))
    std::rethrow_exception(error);
}

bool anyCpuStreamCapturing() noexcept {
  return capturingStreams.load(std::memory_order_relaxed) > 0;
}

void rejectDefaultStreamWorkWhileCapturing(const char *operation) {
  if (anyCpuStreamCapturing())
    throw Error(std::string("pyk: ") + operation +
                ": a stream is capturing a graph (Stream::begin_capture), and work on the default stream would "
                "wait for it, which CUDA forbids during a capture; queue the work on a stream, or call "
                "end_capture() first");
}

void raiseOrphanedCpuStreamError() {
  if (std::exception_ptr error = registry.takeOrphanedError())
    std::rethrow_exception(error);
}

} // namespace pyk::detail
