// Histograms of a million values, with shared-memory bins and with global
// atomics only, checked exactly against a count on the host, many times
// (atomics must not lose an update however the blocks interleave).
#include "histogram.pyk.h"

#include <cstdio>
#include <random>
#include <vector>

int main() {
  constexpr int bins = 64, runs = 5;
  const int n = 1 << 20;
  std::vector<std::int32_t> data(n);
  std::mt19937 random(2026);
  std::uniform_int_distribution<std::int32_t> value(0, 1 << 30);
  for (auto &v : data)
    v = value(random);
  std::vector<std::uint32_t> want(bins, 0);
  for (std::int32_t v : data)
    ++want[v % bins];

  auto ddata = pyk::to_device(data);
  bool equal = true;
  for (int run = 0; run < runs; ++run) {
    auto shared = pyk::to_device(std::vector<std::uint32_t>(bins, 0));
    auto global = pyk::to_device(std::vector<std::uint32_t>(bins, 0));
    pyk::kernels::histogram({64, 256}, ddata, shared);
    pyk::kernels::histogram_global({(n + 255) / 256, 256}, ddata, global);
    std::vector<std::uint32_t> got(bins), gotGlobal(bins);
    shared.copy_to_host(got);
    global.copy_to_host(gotGlobal);
    equal = equal && got == want && gotGlobal == want;
  }
  std::printf("histogram of %d values into %d bins on %s, %d runs. Are results equal: %s\n", n, bins,
              pyk::device_name().c_str(), runs, equal ? "True" : "False");
  return equal ? 0 : 1;
}
