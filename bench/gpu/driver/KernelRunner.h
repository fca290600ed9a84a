// Runs one kernel's implementations the same way: check the output against
// the CPU reference first (on poisoned output memory), then time the median
// of many runs. A failed check or an error is printed and marks that
// implementation in the row; the others still run.
#pragma once

#include "Bench.h"

#include <functional>
#include <string>
#include <vector>

namespace bench {

struct Variant {
  Impl impl;
  std::function<void()> launch; ///< one run of the kernel (asynchronous)
};

struct Check {
  std::function<void()> reset;          ///< before the checked run: poison outputs, clear accumulators
  std::function<std::string()> verify;  ///< after it: "" when right, else what is wrong
  std::function<void()> beforeTimedRun; ///< optional, ahead of each timed run's start event
};

void runVariants(const Context &context, KernelRow &row, const std::vector<Variant> &variants, const Check &check);

/// Collects the elements that differ from the reference beyond a tolerance
/// (NaN, the poison, always differs) and describes the first few.
class Mismatches {
public:
  /// `cols` > 0 prints indices as (row, col) of a row-major matrix.
  explicit Mismatches(std::string array, std::int64_t cols = 0) : array_(std::move(array)), cols_(cols) {}
  void check(std::int64_t index, double got, double want, double tolerance);
  /// "" when every checked element matched.
  std::string result() const;

private:
  std::string array_;
  std::int64_t cols_;
  std::int64_t checked_ = 0, bad_ = 0;
  std::string first_;
};

} // namespace bench
