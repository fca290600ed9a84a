//===- MedianTime.h - How bench/cpu programs time their work ---------------===//
#ifndef PYK_BENCH_CPU_MEDIANTIME_H
#define PYK_BENCH_CPU_MEDIANTIME_H

#include <pyk/pyk.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace pyk::bench {

/// Median wall time of `runs` calls of `work`, each followed by
/// pyk::synchronize(), in milliseconds, after one warm-up call (page faults,
/// the thread pool, the module).
inline double medianMs(int runs, const std::function<void()> &work) {
  std::vector<double> times;
  work();
  pyk::synchronize();
  for (int run = 0; run < runs; ++run) {
    auto start = std::chrono::steady_clock::now();
    work();
    pyk::synchronize();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace pyk::bench

#endif // PYK_BENCH_CPU_MEDIANTIME_H
