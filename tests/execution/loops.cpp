// Runs loops.pyk's kernels and compares every case with C++.
#include "Checks.h"
#include "loops.pyk.h"

#include <cstdint>
#include <vector>

int main() {
  Checks checks;

  auto out = pyk::device_empty<std::int64_t>({8});
  pyk::kernels::loop_cases({1, 32}, out, -2);
  std::vector<std::int64_t> cases(8);
  out.copy_to_host(cases);
  const std::int64_t want[] = {45, 10070401, 531, 5, 51, 7, 5, 3};
  const char *names[] = {"sum of range", "negative step", "run-time step", "reassigned loop variable",
                         "break and continue", "while with break", "empty range", "last value"};
  for (int i = 0; i < 8; ++i)
    checks.equal(names[i], static_cast<double>(cases[i]), static_cast<double>(want[i]));
  // A run-time step of 0 runs no iteration (Python raises ValueError); 2
  // counts up from 5 to 0 in no steps either.
  for (std::int64_t step : {0, 2}) {
    pyk::kernels::loop_cases({1, 32}, out, step);
    out.copy_to_host(cases);
    checks.equal(step == 0 ? "run-time step 0" : "run-time step 2", static_cast<double>(cases[2]), 0.0);
  }

  auto dlimits = pyk::to_device(std::vector<std::uint8_t>{255});
  auto dstarts = pyk::to_device(std::vector<std::int8_t>{-100});
  auto narrow = pyk::device_empty<std::int64_t>({2});
  pyk::kernels::narrow_ranges({1, 32}, dlimits, dstarts, narrow);
  std::vector<std::int64_t> counts(2);
  narrow.copy_to_host(counts);
  checks.equal("range(0, uint8 255, 100)", double(counts[0]), 3);
  checks.equal("range(int8 -100, 127, 100)", double(counts[1]), ((-100) * 1000 + 0) * 1000 + 100);

  // Ranges at the ends of int64 and uint64, with run-time steps: the
  // counter must not wrap around and run on.
  const std::int64_t max = INT64_MAX, min = INT64_MIN;
  auto dbounds = pyk::to_device(std::vector<std::int64_t>{max - 10, max, 7, min + 10, min, -7, min, max, max});
  auto dubounds = pyk::to_device(std::vector<std::uint64_t>{UINT64_MAX - 9, UINT64_MAX, 4});
  auto ends = pyk::device_empty<std::int64_t>({7});
  pyk::kernels::range_ends({1, 32}, dbounds, dubounds, ends);
  std::vector<std::int64_t> e(7);
  ends.copy_to_host(e);
  checks.exact("range(max - 10, max, 7) has 2 values", e[0], 2);
  checks.exact("range(max - 10, max, 7) ends at max - 3", e[1], max - 3);
  checks.exact("range(min + 10, min, -7) has 2 values", e[2], 2);
  checks.exact("range(min + 10, min, -7) ends at min + 3", e[3], min + 3);
  checks.exact("range(min, max, max) has 3 values", e[4], 3);
  checks.exact("range(min, max, max) ends at max - 1", e[5], max - 1);
  checks.exact("range(uint64 max - 9, uint64 max, 4) has 3 values", e[6], 3);

  const int rows = 300, cols = 17;
  std::vector<float> m(rows * cols), sums(rows);
  for (int i = 0; i < rows * cols; ++i)
    m[i] = static_cast<float>(i % 11) * 0.5f;
  auto dm = pyk::to_device(m, {rows, cols});
  auto dsums = pyk::device_empty<float>({rows});
  pyk::kernels::row_sums({(rows + 63) / 64, 64}, dm, dsums);
  dsums.copy_to_host(sums);
  for (int r = 0; r < rows; ++r) {
    double want = 0;
    for (int c = 0; c < cols; ++c)
      want += m[r * cols + c];
    checks.equal("row sum", sums[r], static_cast<float>(want));
  }

  return checks.finish("loops");
}
