//===- FiberContext.h - Switching between stacks on one OS thread ----------===//
//
// The machine-level part of the CPU device's fibers: making a context that
// starts a function on a fresh stack, and switching from the running
// context to another. Two implementations with the same interface:
//  - X86Context (x86-64 System V): a hand-written switch (FiberSwitchX86_64.S)
//    that saves only what a call must preserve (rbx, rbp, r12-r15, rsp,
//    MXCSR and the x87 control word): tens of nanoseconds.
//  - UContext: POSIX makecontext/swapcontext, for other architectures
//    (swapcontext also saves the signal mask, a system call per switch).
// FiberContext is the one the runtime uses: X86Context on x86-64 unless
// PYK_FIBERS_UCONTEXT is defined (CMake option PYK_RUNTIME_UCONTEXT_FIBERS).
//
// It knows nothing of sanitizers, stacks' allocation or scheduling
// (FiberStacks.h, CpuFibers.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_FIBERCONTEXT_H
#define PYK_RUNTIME_FIBERCONTEXT_H

#include <ucontext.h>

#include <cstddef>
#include <cstdint>

namespace pyk::detail {

/// What a fresh context runs. It must never return: it ends by switching
/// to another context.
using FiberEntry = void (*)(void *arg);

#if defined(__x86_64__)
extern "C" {
/// Saves the callee-saved state on the running stack, stores the stack
/// pointer in *from and resumes the context saved at `to`.
void pykFiberSwitch(void **from, void *to);
/// Lays out a fresh context at the top of a stack (16-byte aligned) that
/// calls entry(arg) when switched to, with the caller's MXCSR and x87
/// control word; returns its stack pointer.
void *pykFiberMake(void *stackTop, FiberEntry entry, void *arg);
}

class X86Context {
public:
  /// Makes this context start entry(arg) on [stackLow, stackLow + size).
  void prepare(void *stackLow, std::size_t size, FiberEntry entry, void *arg) {
    auto top = reinterpret_cast<std::uintptr_t>(stackLow) + size;
    stackPointer_ = pykFiberMake(reinterpret_cast<void *>(top & ~std::uintptr_t{15}), entry, arg);
  }
  /// Suspends the running code into `from` and resumes `to`; returns when
  /// something switches back to `from`.
  static void swap(X86Context &from, X86Context &to) { pykFiberSwitch(&from.stackPointer_, to.stackPointer_); }

private:
  void *stackPointer_ = nullptr;
};
#endif

class UContext {
public:
  /// Makes this context start entry(arg) on [stackLow, stackLow + size).
  void prepare(void *stackLow, std::size_t size, FiberEntry entry, void *arg) {
    entry_ = entry;
    arg_ = arg;
    getcontext(&context_);
    context_.uc_stack.ss_sp = stackLow;
    context_.uc_stack.ss_size = size;
    context_.uc_link = nullptr;
    // makecontext passes ints; the context's address travels as two halves.
    auto self = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(this));
    makecontext(&context_, reinterpret_cast<void (*)()>(&start), 2, static_cast<unsigned>(self >> 32),
                static_cast<unsigned>(self & 0xffffffffu));
  }
  /// Suspends the running code into `from` and resumes `to`; returns when
  /// something switches back to `from`.
  static void swap(UContext &from, UContext &to) { swapcontext(&from.context_, &to.context_); }

private:
  static void start(unsigned high, unsigned low) {
    auto *self = reinterpret_cast<UContext *>(static_cast<std::uintptr_t>((std::uint64_t{high} << 32) | low));
    self->entry_(self->arg_);
  }

  ucontext_t context_;
  FiberEntry entry_ = nullptr;
  void *arg_ = nullptr;
};

#if defined(__x86_64__) && !defined(PYK_FIBERS_UCONTEXT)
using FiberContext = X86Context;
#else
using FiberContext = UContext;
#endif

} // namespace pyk::detail

#endif // PYK_RUNTIME_FIBERCONTEXT_H
