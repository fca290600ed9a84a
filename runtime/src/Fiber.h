//===- Fiber.h - Fibers of the CPU device: stacks and switches -------------===//
//
// A Fiber is a place execution can leave and resume: an OS thread's own
// stack, or a FiberStack with a context prepared on it. switchFiber moves
// between them and tells the tools that track stacks about it:
// AddressSanitizer (__sanitizer_start/finish_switch_fiber), ThreadSanitizer
// (one TSan fiber per Fiber) and valgrind (each FiberStack is registered).
// Without those tools a switch is FiberContext's switch and nothing else.
//
// It is not the scheduler (BlockScheduler.h) and does not choose where to
// switch.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_FIBER_H
#define PYK_RUNTIME_FIBER_H

#include "FiberContext.h"

#include <cstddef>

namespace pyk::detail {

/// A fiber's stack: `size` usable bytes above 64 KiB of PROT_NONE guard, so
/// an overflow faults instead of overwriting the next stack. An anonymous
/// mapping: pages take memory only once touched.
class FiberStack {
public:
  /// Maps a stack of `size` bytes (rounded up to whole pages). Throws
  /// pyk::Error, saying why, when the mapping fails.
  explicit FiberStack(std::size_t size);
  ~FiberStack();
  FiberStack(const FiberStack &) = delete;
  FiberStack &operator=(const FiberStack &) = delete;

  void *low() const { return low_; }
  std::size_t size() const { return size_; }

private:
  void *mapping_;
  std::size_t mappingSize_;
  void *low_;
  std::size_t size_;
  unsigned valgrindId_ = 0;
};

/// One context execution can leave and resume, with what the sanitizers
/// track per stack.
class Fiber {
public:
  /// The calling OS thread's own stack (what a fiber switches back to).
  Fiber();
  /// A fiber on `stack`; prepare() before each use.
  explicit Fiber(const FiberStack &stack);
  ~Fiber();
  Fiber(const Fiber &) = delete;
  Fiber &operator=(const Fiber &) = delete;

  /// Makes the next switch to this fiber call entry(arg) on a fresh stack
  /// (for ASan, without the frames its last use left there: a fiber ends by
  /// switching away, not by returning). `entry` must begin with
  /// fiberStarted() and never return.
  void prepare(FiberEntry entry, void *arg);

  /// For a Fiber of the OS thread: adopts the calling code's sanitizer
  /// identity (TSan's current fiber), which may change between uses.
  void adoptCurrentThread();

private:
  friend void switchFiber(Fiber &from, Fiber &to, bool fromEnds);
  friend void fiberStarted();

  FiberContext context_;
  const void *stackLow_ = nullptr; ///< an OS thread's is learned (by ASan) on its first switch away
  std::size_t stackSize_ = 0;
  [[maybe_unused]] void *asanFakeStack_ = nullptr; ///< ASan's fake stack while suspended
  [[maybe_unused]] void *tsanFiber_ = nullptr;
  [[maybe_unused]] bool ownsTsanFiber_ = false;
};

/// Leaves `from` (the running context) for `to`; returns when something
/// switches back to `from`. `fromEnds`: `from` will never be resumed (its
/// fiber returned or was abandoned), so ASan may drop what it keeps for it.
void switchFiber(Fiber &from, Fiber &to, bool fromEnds);

/// The first call of a fresh fiber's entry.
void fiberStarted();

} // namespace pyk::detail

#endif // PYK_RUNTIME_FIBER_H
