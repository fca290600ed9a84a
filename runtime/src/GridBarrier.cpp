//===- GridBarrier.cpp - g.sync() across the blocks of a CPU-device grid ---===//
//
// A generation-counting barrier: the last block to arrive starts the next
// generation and wakes the others, which wait for the generation to change
// (so a block that hurries on to the next sync cannot be mistaken for one
// still waiting at this one) or for the grid to fail.
//
//===----------------------------------------------------------------------===//
#include "GridBarrier.h"

#include "pyk/Error.h"

#include <algorithm>
#include <string>

namespace pyk::detail {
namespace {

/// "(x, y, z)".
std::string blockName(const std::uint32_t index[3]) {
  return "(" + std::to_string(index[0]) + ", " + std::to_string(index[1]) + ", " + std::to_string(index[2]) + ")";
}

/// What ends the messages of a grid sync that some block never reaches.
constexpr const char *everyBlockMustArrive =
    ": every block of the grid must reach each grid sync, and a GPU would wait for the finished block forever";

} // namespace

bool GridBarrier::arrive(const std::uint32_t blockIdx[3], const char *where) noexcept {
  std::unique_lock lock(mutex_);
  if (error_)
    return false;
  if (anyFinished_) {
    failLocked(std::make_exception_ptr(KernelError(
        "block " + blockName(blockIdx) + " reached cuda.cg.this_grid().sync() at " + where + " after block " +
        blockName(firstFinished_) + " had finished (every thread of it returned)" + everyBlockMustArrive)));
    return false;
  }
  if (arrived_ == 0) {
    std::copy(blockIdx, blockIdx + 3, firstWaiting_);
    waitingWhere_ = where;
  }
  if (++arrived_ == blocks_) {
    arrived_ = 0;
    ++generation_;
    lock.unlock();
    opened_.notify_all();
    return true;
  }
  const std::uint64_t generation = generation_;
  opened_.wait(lock, [&] { return generation_ != generation || error_; });
  return generation_ != generation;
}

void GridBarrier::finish(const std::uint32_t blockIdx[3], std::exception_ptr error) noexcept {
  std::lock_guard lock(mutex_);
  if (error_)
    return; // a consequence of the grid's failure, or a later error
  if (error) {
    failLocked(std::move(error));
    return;
  }
  if (!anyFinished_) {
    anyFinished_ = true;
    std::copy(blockIdx, blockIdx + 3, firstFinished_);
  }
  if (arrived_ != 0)
    failLocked(std::make_exception_ptr(KernelError(
        "block " + blockName(blockIdx) + " finished (every thread of it returned) while block " +
        blockName(firstWaiting_) + " waits at cuda.cg.this_grid().sync() at " + waitingWhere_ + everyBlockMustArrive)));
}

void GridBarrier::fail(std::exception_ptr error) noexcept {
  std::lock_guard lock(mutex_);
  if (!error_)
    failLocked(std::move(error));
}

bool GridBarrier::failed() noexcept {
  std::lock_guard lock(mutex_);
  return error_ != nullptr;
}

std::exception_ptr GridBarrier::error() noexcept {
  std::lock_guard lock(mutex_);
  return error_;
}

void GridBarrier::failLocked(std::exception_ptr error) noexcept {
  error_ = std::move(error);
  opened_.notify_all();
}

} // namespace pyk::detail
