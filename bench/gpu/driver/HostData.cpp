#include "HostData.h"

#include "CudaCheck.h"

#include <pyk/pyk.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace bench {

void parallelFor(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)> &body) {
  const std::int64_t parts = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (std::int64_t part = 0; part < parts; ++part)
    threads.emplace_back([&, part] { body(n * part / parts, n * (part + 1) / parts); });
  for (std::thread &thread : threads)
    thread.join();
}

void deviceFill(bool gpu, void *device, int byte, std::size_t bytes) {
  if (gpu) {
    cudaCheck(cudaMemset(device, byte, bytes), "cudaMemset");
    return;
  }
  pyk::synchronize(); // nothing queued may still use the memory
  std::memset(device, byte, bytes);
}

} // namespace bench
