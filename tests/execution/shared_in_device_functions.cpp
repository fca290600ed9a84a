// Runs shared_in_device_functions.pyk: a device function's shared array is
// one per block (the block's threads see each other's stores after a
// barrier, other blocks do not), the same array for every call of the
// function, and its dynamic shared array is the launch's.
#include "Checks.h"
#include "shared_in_device_functions.pyk.h"

#include <cstdint>
#include <vector>

int main() {
  Checks checks;
  const int blocks = 5, threads = 128;
  std::vector<float> x(blocks * threads);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = float(i % 97) * 0.25f; // sums stay exact in float32
  auto dx = pyk::to_device(x);
  auto sums = pyk::device_empty<float>({2 * blocks});
  pyk::kernels::sums({blocks, threads}, dx, sums);
  std::vector<float> got(2 * blocks);
  sums.copy_to_host(got);
  for (int b = 0; b < blocks; ++b) {
    double want = 0;
    for (int t = 0; t < threads; ++t)
      want += x[b * threads + t];
    checks.equal("block_sum", b, got[2 * b], want);
    checks.equal("block_sum called again", b, got[2 * b + 1], 2 * want);
  }

  auto counts = pyk::device_empty<std::int32_t>({blocks * 64});
  pyk::kernels::counts({blocks, 64}, counts);
  std::vector<std::int32_t> tallies(blocks * 64);
  counts.copy_to_host(tallies);
  // Two calls of tally(1) per thread, one array: twice the block's threads.
  for (std::size_t i = 0; i < tallies.size(); ++i)
    checks.equal("tally", static_cast<long long>(i), tallies[i], 2 * 64);

  std::vector<std::int32_t> values(blocks * 64);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<std::int32_t>(i * 7 + 1);
  auto reversed = pyk::device_empty<std::int32_t>({blocks * 64});
  auto sizes = pyk::device_empty<std::int64_t>({blocks});
  pyk::kernels::dynamic_reverse({blocks, 64, 48 * sizeof(std::int32_t)}, pyk::to_device(values), reversed, sizes);
  std::vector<std::int32_t> out(blocks * 64);
  reversed.copy_to_host(out);
  std::vector<std::int64_t> extents(blocks);
  sizes.copy_to_host(extents);
  for (int b = 0; b < blocks; ++b) {
    checks.equal("dynamic shared size", b, double(extents[b]), 48);
    for (int t = 0; t < 64; ++t)
      checks.equal("reverse_through_dynamic", b * 64 + t, out[b * 64 + t],
                   t < 48 ? values[b * 64 + 47 - t] : -1);
  }
  return checks.finish("shared_in_device_functions");
}
