//===- fiber_switch.cpp - What the CPU device's fibers cost ----------------===//
//
// usage: fiber_switch
// Prints two tables (best of 5 runs each):
//  1. One switch between two contexts, for each FiberContext implementation
//     (the x86-64 assembly and ucontext), with a fiber ping-ponging to the
//     thread's own stack.
//  2. Kernels that synchronise, launched through the runtime on one CPU
//     thread (PYK_CPU_THREADS=1): per block, and per thread and barrier or
//     warp shuffle, for several block sizes.
// It reads runtime internals (runtime/src), so it links the static runtime.
//
//===----------------------------------------------------------------------===//
#include "Fiber.h"
#include "FiberContext.h"

#include "pyk/CpuDevice.h"
#include "pyk/pyk.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>

namespace {

using Clock = std::chrono::steady_clock;
using pyk::detail::CpuBlockContext;

/// The least time `body` takes over 5 runs, in nanoseconds.
double bestOf5(const std::function<void()> &body) {
  double best = 1e300;
  for (int run = 0; run < 5; ++run) {
    auto start = Clock::now();
    body();
    best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - start).count());
  }
  return best;
}

//===--- 1. Context switches --------------------------------------------===//

template <typename Context> struct PingPong {
  Context thread, fiber;
  long rounds = 0;

  static void fiberMain(void *self) {
    auto &pingPong = *static_cast<PingPong *>(self);
    for (;;)
      Context::swap(pingPong.fiber, pingPong.thread);
  }

  /// Nanoseconds per switch over `switches` switches.
  double measure(long switches) {
    pyk::detail::FiberStack stack(64 * 1024);
    fiber.prepare(stack.low(), stack.size(), fiberMain, this);
    Context::swap(thread, fiber); // starts it
    return bestOf5([&] {
             for (long round = 0; round < switches / 2; ++round)
               Context::swap(thread, fiber);
           }) /
           static_cast<double>(switches);
  }
};

void printSwitchTable() {
  std::printf("| context switch | ns per switch |\n|---|---|\n");
#if defined(__x86_64__)
  std::printf("| x86-64 assembly (pykFiberSwitch) | %.1f |\n", PingPong<pyk::detail::X86Context>().measure(20'000'000));
#endif
  std::printf("| ucontext (swapcontext) | %.1f |\n", PingPong<pyk::detail::UContext>().measure(2'000'000));
}

//===--- 2. Kernels through the runtime ---------------------------------===//

/// `args[0]` barriers in a row.
void barriersThread(void **args, const CpuBlockContext *, void *, std::uint32_t, std::uint32_t, std::uint32_t) {
  std::uint32_t barriers;
  std::memcpy(&barriers, args[0], sizeof barriers);
  for (std::uint32_t i = 0; i < barriers; ++i)
    pyk_cpu_syncthreads("bench.pyk:3:9");
}

/// `args[0]` rounds of a 5-shuffle warp reduction.
void shufflesThread(void **args, const CpuBlockContext *, void *, std::uint32_t x, std::uint32_t, std::uint32_t) {
  std::uint32_t rounds;
  std::memcpy(&rounds, args[0], sizeof rounds);
  std::uint64_t value = x;
  std::uint32_t lane = x % 32;
  for (std::uint32_t i = 0; i < rounds; ++i)
    for (std::uint32_t delta = 16; delta > 0; delta /= 2)
      value += pyk_cpu_warp_shuffle(0xffffffffu, value, lane + delta < 32 ? lane + delta : lane, "bench.pyk:8:13");
}

template <pyk_cpu_thread_fn Thread> void entry(void **args, const CpuBlockContext *block) {
  pyk_cpu_run_block(Thread, args, block, nullptr);
}

const pyk::detail::KernelModule benchModule{"fiber_switch", nullptr};
pyk::detail::KernelInfo barriersKernel{&benchModule, "barriers", entry<barriersThread>, 1};
pyk::detail::KernelInfo shufflesKernel{&benchModule, "shuffles", entry<shufflesThread>, 1};

/// Nanoseconds per block of `threads` threads, each making `operations`
/// calls (barriers or shuffle rounds), over 64 blocks.
double perBlock(pyk::detail::KernelInfo &kernel, std::uint32_t threads, std::uint32_t operations) {
  const std::uint32_t blocks = 64;
  std::uint64_t slot = operations;
  void *args[] = {&slot};
  pyk::detail::launch(kernel, {blocks, threads}, args); // warms the stacks up
  return bestOf5([&] { pyk::detail::launch(kernel, {blocks, threads}, args); }) / blocks;
}

void printKernelTable() {
  std::printf("\n| threads per block | operation | per block (us) | per thread and operation (ns) |\n"
              "|---|---|---|---|\n");
  for (std::uint32_t threads : {32u, 256u, 1024u}) {
    double empty = perBlock(barriersKernel, threads, 0);
    std::printf("| %u | none (start and end the fibers) | %.2f | %.1f per thread |\n", threads, empty / 1000,
                empty / threads);
    for (std::uint32_t barriers : {1u, 10u, 100u}) {
      double time = perBlock(barriersKernel, threads, barriers);
      std::printf("| %u | %u x syncthreads | %.2f | %.1f |\n", threads, barriers, time / 1000,
                  (time - empty) / (double(threads) * barriers));
    }
    double time = perBlock(shufflesKernel, threads, 20);
    std::printf("| %u | 100 x shfl_down_sync | %.2f | %.1f |\n", threads, time / 1000,
                (time - empty) / (double(threads) * 100));
  }
}

} // namespace

int main() {
  setenv("PYK_DEVICE", "cpu", 1);
  setenv("PYK_CPU_THREADS", "1", 0);
  std::printf("CPU device: %s\n\n", pyk::device_name().c_str());
  printSwitchTable();
  printKernelTable();
  return 0;
}
