// One computation over every device: each device gets a slab of the data
// on a stream of its own, sums the squares of its slab, and device 0
// gathers the partial sums (pyk::copy between devices), as a program for
// several GPUs does. With one device it is a plain reduction; ctest runs it
// on three CPU devices (PYK_CPU_DEVICES=3).
#include "multi_device.pyk.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  const std::int64_t n = 3'000'001;
  std::vector<float> x(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    x[static_cast<std::size_t>(i)] = static_cast<float>(i % 1000) * 0.001f;

  double sum = 0;
  try {
    const int devices = pyk::device_count();
    const std::int64_t slab = (n + devices - 1) / devices;
    std::vector<pyk::Stream> streams;
    // The host data of asynchronous copies stays alive until the streams
    // have copied it (moving these vectors keeps their elements in place).
    std::vector<std::vector<float>> slabs;
    const std::vector<double> zero(1, 0.0);
    std::vector<pyk::DeviceArray<float, 1>> inputs;
    std::vector<pyk::DeviceArray<double, 1>> partials;
    // Every device's work is queued before any result is waited for, so
    // the devices run at once.
    for (int device = 0; device < devices; ++device) {
      pyk::DeviceScope on(device);
      const std::int64_t begin = std::min(n, device * slab), end = std::min(n, begin + slab);
      streams.emplace_back();
      slabs.emplace_back(x.begin() + begin, x.begin() + end);
      inputs.push_back(pyk::to_device_async(slabs.back(), streams.back()));
      partials.push_back(pyk::to_device_async(zero, streams.back()));
      const auto blocks = static_cast<std::uint32_t>((end - begin + 255) / 256);
      if (blocks > 0)
        pyk::kernels::sum_of_squares({blocks, 256, 0, &streams.back()}, inputs.back(), partials.back());
    }
    // Device 0 gathers the partial sums from every device.
    std::vector<pyk::DeviceArray<double, 1>> gathered;
    for (int device = 0; device < devices; ++device) {
      {
        pyk::DeviceScope on(device);
        streams[static_cast<std::size_t>(device)].synchronize();
      }
      gathered.push_back(pyk::device_empty<double>({1}));
      pyk::copy(gathered.back(), partials[static_cast<std::size_t>(device)]);
    }
    for (const auto &part : gathered) {
      std::vector<double> value(1);
      part.copy_to_host(value);
      sum += value[0];
    }
    std::printf("Devices: %d (%s, ...)\n", devices, pyk::device(0).name.c_str());
  } catch (const pyk::Error &error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }

  double expected = 0;
  for (float v : x)
    expected += static_cast<double>(v) * static_cast<double>(v);
  const bool equal = std::abs(sum - expected) <= 1e-9 * expected;
  std::printf("Sum of squares: %.6f (expected %.6f)\n", sum, expected);
  std::printf("Are results equal: %s\n", equal ? "True" : "False");
  return equal ? 0 : 1;
}
