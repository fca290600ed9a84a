//===- BlockScheduler.cpp - One block's GPU threads as fibers --------------===//
//
// The scheduler's core: setting a block up, the ready queue, threads that
// return, errors and abandoning a block, and pyk_cpu_run_block. Barriers
// are in Barriers.cpp, warp operations in WarpOperations.cpp.
//
// Nothing that owns memory may be alive in a fiber's frames when the block
// is abandoned (its destructors would never run): errors are recorded by
// recordError(), which returns, and only then does abandon() switch away.
//
//===----------------------------------------------------------------------===//
#include "BlockScheduler.h"

#include "DeviceState.h"
#include "pyk/Error.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace pyk::detail {
namespace {

/// The error of the last block the OS thread ran, until the launch takes it.
thread_local std::exception_ptr blockError;

/// "(x, y, z)".
std::string triple(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  char text[48];
  std::snprintf(text, sizeof text, "(%u, %u, %u)", x, y, z);
  return text;
}

} // namespace

BlockScheduler &BlockScheduler::ofThisThread() {
  thread_local BlockScheduler scheduler;
  return scheduler;
}

std::exception_ptr takeCpuBlockError() noexcept {
  return std::exchange(blockError, nullptr);
}

void BlockScheduler::run(pyk_cpu_thread_fn thread, void **args, const CpuBlockContext *block, void *frame) noexcept {
  assert(!running_ && "pyk_cpu_run_block called from a fiber");
  thread_ = thread;
  args_ = args;
  block_ = block;
  frame_ = frame;
  try {
    setUp(block->blockDim[0] * block->blockDim[1] * block->blockDim[2]);
  } catch (...) {
    blockError = std::current_exception();
    return;
  }
  osThread_.adoptCurrentThread();
  running_ = this;
  current_ = dequeue();
  switchFiber(osThread_, slots_[current_].fiber, false);
  running_ = nullptr;
  if (error_)
    blockError = std::move(error_);
}

void BlockScheduler::setUp(std::uint32_t threads) {
  threadCount_ = threads;
  returned_ = 0;
  barrierArrived_ = 0;
  error_ = nullptr;
  if (threads_.size() < threads) {
    threads_.resize(threads);
    ready_.resize(threads);
  }
  const std::size_t stackBytes = std::max(fiberStackBytes_, deviceState().cpuFiberStackBytes);
  if (stackBytes > slotStackBytes_) {
    slots_.clear();
    slotStackBytes_ = stackBytes;
  }
  while (slots_.size() < threads)
    slots_.emplace_back(slotStackBytes_);
  for (std::uint32_t t = 0; t < threads; ++t) {
    threads_[t] = ThreadState{};
    slots_[t].fiber.prepare(fiberMain, this);
    ready_[t] = t;
  }
  readyHead_ = 0;
  readyCount_ = threads;
  std::uint32_t warps = (threads + 31) / 32;
  warps_.assign(warps, WarpState{});
  for (std::uint32_t w = 0; w < warps; ++w) {
    std::uint32_t lanes = threads - 32 * w;
    warps_[w].live = lanes >= 32 ? ~0u : (1u << lanes) - 1;
  }
}

void BlockScheduler::fiberMain(void *scheduler) {
  fiberStarted();
  auto &self = *static_cast<BlockScheduler *>(scheduler);
  std::uint32_t t = self.current_;
  const std::uint32_t *dim = self.block_->blockDim;
  std::exception_ptr thrown;
  try {
    self.thread_(self.args_, self.block_, self.frame_, t % dim[0], t / dim[0] % dim[1], t / (dim[0] * dim[1]));
  } catch (...) {
    // Leaves the handler before switching away: the OS thread's record of
    // the exceptions being handled must not keep this one.
    thrown = std::current_exception();
  }
  if (thrown) {
    self.recordError(std::move(thrown));
    self.abandon();
  }
  self.threadReturned();
}

void BlockScheduler::enqueue(std::uint32_t thread) noexcept {
  std::uint32_t tail = readyHead_ + readyCount_;
  ready_[tail < threadCount_ ? tail : tail - threadCount_] = thread;
  ++readyCount_;
}

std::uint32_t BlockScheduler::dequeue() noexcept {
  std::uint32_t thread = ready_[readyHead_];
  readyHead_ = readyHead_ + 1 < threadCount_ ? readyHead_ + 1 : 0;
  --readyCount_;
  return thread;
}

void BlockScheduler::switchToNext(bool ending) noexcept {
  Fiber &from = slots_[current_].fiber;
  if (readyCount_ == 0) {
    if (returned_ < threadCount_) {
      recordDeadlock();
      abandon();
    }
    switchFiber(from, osThread_, true); // the block is done
    std::abort();                       // never resumed
  }
  std::uint32_t next = dequeue();
  if (next == current_)
    return;
  current_ = next;
  switchFiber(from, slots_[next].fiber, ending);
}

void BlockScheduler::threadReturned() noexcept {
  std::uint32_t t = current_;
  threads_[t].wait = Wait::Returned;
  ++returned_;
  WarpState &warp = warps_[t / 32];
  warp.live &= ~(1u << (t % 32));
  if (warp.waiting != 0)
    completeReadyGroups(t / 32); // the lanes that waited for it, if any
  if (barrierArrived_ != 0 && barrierArrived_ + returned_ == threadCount_)
    openWithoutReturnedThreads();
  switchToNext(true);
  std::abort(); // a returned thread is never queued again
}

void BlockScheduler::recordError(std::exception_ptr error) noexcept {
  if (!error_)
    error_ = std::move(error);
}

void BlockScheduler::recordError(const std::string &message) noexcept {
  if (!error_)
    error_ = std::make_exception_ptr(KernelError(message));
}

void BlockScheduler::abandon() noexcept {
  switchFiber(slots_[current_].fiber, osThread_, true);
  std::abort(); // never resumed
}

std::string BlockScheduler::threadName(std::uint32_t thread) const {
  const std::uint32_t *dim = block_->blockDim;
  return triple(thread % dim[0], thread / dim[0] % dim[1], thread / (dim[0] * dim[1]));
}

std::string BlockScheduler::blockName() const {
  const std::uint32_t *index = block_->blockIdx;
  return triple(index[0], index[1], index[2]);
}

} // namespace pyk::detail

extern "C" void pyk_cpu_run_block(pyk_cpu_thread_fn thread, void **args, const pyk::detail::CpuBlockContext *block,
                                  void *frame) {
  pyk::detail::BlockScheduler::ofThisThread().run(thread, args, block, frame);
}
