//===- Fiber.cpp - Fibers of the CPU device: stacks and switches -----------===//
//
// The sanitizer annotations follow the tools' documented protocols:
//  - ASan: __sanitizer_start_switch_fiber(save, destination stack) right
//    before a switch and __sanitizer_finish_switch_fiber(saved, &previous
//    stack) right after it, on the new stack. The OS thread's own stack is
//    not known in advance; the finish call reports the stack switched away
//    from, which is how a Fiber of the OS thread learns its bounds.
//  - TSan: __tsan_switch_to_fiber(destination) right before a switch. The
//    default flags make each switch a happens-before edge, as the scheduler
//    orders everything its fibers do.
//  - valgrind: stacks are registered, so that it does not take a switch for
//    a huge stack frame.
//
//===----------------------------------------------------------------------===//
#include "Fiber.h"

#include "pyk/Error.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PYK_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define PYK_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PYK_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define PYK_TSAN 1
#endif

#if defined(PYK_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(PYK_TSAN)
#include <sanitizer/tsan_interface.h>
#endif
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define PYK_VALGRIND 1
#endif

namespace pyk::detail {
namespace {

std::size_t pageSize() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

/// The inaccessible bytes below each stack: more than a page, so that a
/// frame larger than a page (a kernel's local array) that overflows lands
/// in it rather than beyond, in another mapping. Address space only.
constexpr std::size_t guardBytes = 64 * 1024;

#if defined(PYK_ASAN)
/// The Fiber the running code was switched to from.
thread_local Fiber *switchedFrom = nullptr;
#endif

} // namespace

FiberStack::FiberStack(std::size_t size) {
  std::size_t page = pageSize();
  std::size_t guard = (guardBytes + page - 1) / page * page;
  size_ = (size + page - 1) / page * page;
  mappingSize_ = guard + size_;
  mapping_ = mmap(nullptr, mappingSize_, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  int error = errno;
  if (mapping_ != MAP_FAILED && mprotect(mapping_, guard, PROT_NONE) != 0) {
    error = errno;
    munmap(mapping_, mappingSize_);
    mapping_ = MAP_FAILED;
  }
  if (mapping_ == MAP_FAILED)
    throw Error("pyk: cannot map a fiber stack of " + std::to_string(size_) +
                " bytes for the CPU device: " + std::strerror(error) +
                "; each thread of a block that synchronises needs one on the CPU thread that runs the block, in two "
                "memory mappings (see PYK_CPU_FIBER_STACK, PYK_CPU_THREADS and the kernel's vm.max_map_count)");
  low_ = static_cast<char *>(mapping_) + guard;
#if defined(PYK_VALGRIND)
  valgrindId_ = VALGRIND_STACK_REGISTER(low_, static_cast<char *>(low_) + size_);
#endif
}

FiberStack::~FiberStack() {
#if defined(PYK_VALGRIND)
  VALGRIND_STACK_DEREGISTER(valgrindId_);
#endif
  munmap(mapping_, mappingSize_);
}

Fiber::Fiber() = default;

Fiber::Fiber(const FiberStack &stack) : stackLow_(stack.low()), stackSize_(stack.size()) {
#if defined(PYK_TSAN)
  tsanFiber_ = __tsan_create_fiber(0);
  ownsTsanFiber_ = true;
#endif
}

Fiber::~Fiber() {
#if defined(PYK_TSAN)
  if (ownsTsanFiber_)
    __tsan_destroy_fiber(tsanFiber_);
#endif
}

void Fiber::prepare(FiberEntry entry, void *arg) {
#if defined(PYK_ASAN)
  __asan_unpoison_memory_region(stackLow_, stackSize_);
  asanFakeStack_ = nullptr;
#endif
  context_.prepare(const_cast<void *>(stackLow_), stackSize_, entry, arg);
}

void Fiber::adoptCurrentThread() {
#if defined(PYK_TSAN)
  tsanFiber_ = __tsan_get_current_fiber();
#endif
}

void switchFiber(Fiber &from, Fiber &to, bool fromEnds) {
#if defined(PYK_ASAN)
  switchedFrom = &from;
  __sanitizer_start_switch_fiber(fromEnds ? nullptr : &from.asanFakeStack_, to.stackLow_, to.stackSize_);
#else
  (void)fromEnds;
#endif
#if defined(PYK_TSAN)
  __tsan_switch_to_fiber(to.tsanFiber_, 0);
#endif
  FiberContext::swap(from.context_, to.context_);
#if defined(PYK_ASAN)
  __sanitizer_finish_switch_fiber(from.asanFakeStack_, &switchedFrom->stackLow_, &switchedFrom->stackSize_);
#endif
}

void fiberStarted() {
#if defined(PYK_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, &switchedFrom->stackLow_, &switchedFrom->stackSize_);
#endif
}

} // namespace pyk::detail
