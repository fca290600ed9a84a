//===- Nanosleep.cpp - cuda.nanosleep on the CPU device --------------------===//
//
// A GPU sleeps a thread for about the nanoseconds asked, at most about a
// millisecond; kernels use it to back off while they wait for another
// thread. An OS thread's sleep lasts tens of microseconds at the least, so
// a short one yields the core instead (to the block being waited for, when
// it is another OS thread's), and a long one sleeps, at most a millisecond.
//
//===----------------------------------------------------------------------===//
#include "pyk/CpuDevice.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>

namespace {

/// Below this, a sleep would last several times longer than asked.
constexpr std::uint32_t shortestSleepNs = 20000;
/// The most a GPU sleeps.
constexpr std::uint32_t longestSleepNs = 1000000;

} // namespace

extern "C" void pyk_cpu_nanosleep(uint32_t ns) {
  if (ns == 0)
    return;
  if (ns < shortestSleepNs) {
    std::this_thread::yield();
    return;
  }
  std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(ns, longestSleepNs)));
}
