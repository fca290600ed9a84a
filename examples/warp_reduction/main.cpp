// The sum of a million values that are multiples of 1/8 (so every partial
// sum is exact in float64, whatever order the warps and atomics take),
// checked against the host over many runs.
#include "warp_reduction.pyk.h"

#include <cstdio>
#include <vector>

int main() {
  const int n = 1 << 20, runs = 10;
  std::vector<double> x(n);
  double want = 0;
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<double>((i * 37) % 1001 - 500) / 8.0;
    want += x[i];
  }
  auto dx = pyk::to_device(x);
  bool equal = true;
  for (int run = 0; run < runs; ++run) {
    auto total = pyk::to_device(std::vector<double>{0.0});
    pyk::kernels::warp_sum({64, 256}, dx, total);
    std::vector<double> got(1);
    total.copy_to_host(got);
    equal = equal && got[0] == want;
  }
  std::printf("warp-shuffle sum of %d values on %s, %d runs: %.3f. Are results equal: %s\n", n,
              pyk::device_name().c_str(), runs, want, equal ? "True" : "False");
  return equal ? 0 : 1;
}
