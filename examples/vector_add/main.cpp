// Vector addition with a pyk kernel: the seed article's program in C++.
//
// N random float32 values in x and y, out = x + y on the device (a GPU when
// one is usable, otherwise pyk's CPU device), checked against a CPU loop.
#include "vector_add.pyk.h"

#include <cstdio>
#include <random>
#include <vector>

int main() {
  const std::size_t n = 1'000'000;
  std::mt19937 generator(42);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<float> x(n), y(n), out(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = uniform(generator);
    y[i] = uniform(generator);
  }

  try {
    auto xDevice = pyk::to_device(x);
    auto yDevice = pyk::to_device(y);
    auto outDevice = pyk::device_empty_like(xDevice);

    const std::uint32_t threadsPerBlock = 256;
    const auto blocks = static_cast<std::uint32_t>((n + threadsPerBlock - 1) / threadsPerBlock);
    pyk::kernels::vector_add_gpu_kernel({blocks, threadsPerBlock}, xDevice, yDevice, outDevice);
    outDevice.copy_to_host(out);
  } catch (const pyk::Error &error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  }

  bool equal = true;
  for (std::size_t i = 0; i < n; ++i)
    equal = equal && out[i] == x[i] + y[i];
  std::printf("Ran on: %s\n", pyk::device_name().c_str());
  std::printf("Are results equal: %s\n", equal ? "True" : "False");
  return equal ? 0 : 1;
}
