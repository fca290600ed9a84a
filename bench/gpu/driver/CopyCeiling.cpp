// The memory-bound kernels' ceiling: a device-to-device copy of 1 GiB, by
// cudaMemcpy and by a 16-byte-wide copy kernel, counting the bytes read and
// the bytes written (METHOD.md's convention; the kernels' GB/s count both
// too). The faster of the two is the ceiling.
#include "Bench.h"
#include "CudaCheck.h"
#include "HostData.h"
#include "Timing.h"

#include "handwritten.h"

#include <algorithm>

namespace bench {

double CopyCeiling::best() const {
  if (std::isnan(memcpyGBs))
    return kernelGBs;
  if (std::isnan(kernelGBs))
    return memcpyGBs;
  return std::max(memcpyGBs, kernelGBs);
}

CopyCeiling measureCopyCeiling(const Context &context) {
  CopyCeiling ceiling;
  if (!context.gpu) {
    step("copy ceiling: skipped (no GPU)");
    return ceiling;
  }
  const std::int64_t n = std::int64_t{1} << 28; // floats: 1 GiB each way
  const std::size_t bytes = n * sizeof(float);
  float *from = nullptr, *to = nullptr;
  try {
    cudaCheck(cudaMalloc(reinterpret_cast<void **>(&from), bytes), "cudaMalloc");
    cudaCheck(cudaMalloc(reinterpret_cast<void **>(&to), bytes), "cudaMalloc");
    deviceFill(true, from, 0x3F, bytes); // not zeros: METHOD.md says zeros can run faster
    step("copy ceiling: cudaMemcpy device to device, 1 GiB, %d runs", context.runs);
    const double memcpyMs = medianCudaMs(context.warmups, context.runs, [&] {
      cudaCheck(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, 0), "cudaMemcpyAsync");
    });
    ceiling.memcpyGBs = 2.0 * bytes / memcpyMs / 1e6;
    step("copy ceiling: cudaMemcpy %.3f ms, %.1f GB/s", memcpyMs, ceiling.memcpyGBs);
    step("copy ceiling: float4 copy kernel, 1 GiB, %d runs", context.runs);
    const hand::Shape shape{static_cast<unsigned>(n / 4 / 256), 1, 256, 1};
    const double kernelMs = medianCudaMs(context.warmups, context.runs, [&] {
      cudaCheck(hand::copy_float4(shape, from, to, n), "copy_float4");
    });
    ceiling.kernelGBs = 2.0 * bytes / kernelMs / 1e6;
    step("copy ceiling: copy kernel %.3f ms, %.1f GB/s", kernelMs, ceiling.kernelGBs);
  } catch (const std::exception &error) {
    step("copy ceiling: ERROR: %s", error.what());
  }
  cudaFree(from);
  cudaFree(to);
  return ceiling;
}

} // namespace bench
