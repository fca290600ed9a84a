// The sum of 3 million integers by block_sum: exact, over many runs (the
// atomic must not lose a block's partial sum however blocks interleave).
// `reduction RUNS` makes another number of runs.
#include "reduction.pyk.h"

#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

int main(int argc, char **argv) {
  const int n = 3'000'000;
  const int runs = argc > 1 ? std::atoi(argv[1]) : 10;
  std::vector<std::int64_t> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = (i * 2654435761ll) % 1000003 - 500000;
  const std::int64_t want = std::accumulate(x.begin(), x.end(), std::int64_t{0});
  auto dx = pyk::to_device(x);
  bool equal = true;
  for (int run = 0; run < runs; ++run) {
    auto total = pyk::to_device(std::vector<std::int64_t>{0});
    pyk::kernels::block_sum({120, 256}, dx, total);
    std::vector<std::int64_t> got(1);
    total.copy_to_host(got);
    equal = equal && got[0] == want;
  }
  std::printf("sum of %d values on %s, %d runs: %lld. Are results equal: %s\n", n, pyk::device_name().c_str(), runs,
              static_cast<long long>(want), equal ? "True" : "False");
  return equal ? 0 : 1;
}
