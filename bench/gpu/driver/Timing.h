// Medians of device-timed runs. pyk's kernels are timed with pyk::Event
// (cuEventRecord on the default stream on a GPU; a steady_clock stamp on the
// CPU device), hand-written ones with cudaEvent on the same legacy default
// stream: the same clock, the same stream, so the times compare.
#pragma once

#include <functional>
#include <vector>

namespace bench {

/// Median milliseconds of `runs` runs of `work` (after `warmups` untimed
/// ones), each between two events and synchronised before the next, so
/// runs never overlap. `before` (may be empty) runs ahead of each run's
/// start event: resetting an accumulator, say.
double medianPykMs(int warmups, int runs, const std::function<void()> &work,
                   const std::function<void()> &before = {});
double medianCudaMs(int warmups, int runs, const std::function<void()> &work,
                    const std::function<void()> &before = {});

/// The median of `values` (which it sorts).
double median(std::vector<double> &values);

} // namespace bench
