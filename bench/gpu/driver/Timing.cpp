#include "Timing.h"

#include "CudaCheck.h"

#include <pyk/pyk.h>

#include <cuda_runtime_api.h>

#include <algorithm>

namespace bench {

double median(std::vector<double> &values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n == 0 ? 0.0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double medianPykMs(int warmups, int runs, const std::function<void()> &work, const std::function<void()> &before) {
  for (int i = 0; i < warmups; ++i) {
    if (before)
      before();
    work();
  }
  pyk::synchronize();
  pyk::Event start, stop;
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    if (before)
      before();
    start.record();
    work();
    stop.record();
    stop.synchronize();
    times.push_back(stop.elapsed_ms(start));
  }
  pyk::synchronize(); // raises an error a kernel reported
  return median(times);
}

double medianCudaMs(int warmups, int runs, const std::function<void()> &work, const std::function<void()> &before) {
  for (int i = 0; i < warmups; ++i) {
    if (before)
      before();
    work();
  }
  cudaCheck(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the warm-up runs");
  cudaEvent_t start, stop;
  cudaCheck(cudaEventCreate(&start), "cudaEventCreate");
  cudaCheck(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    if (before)
      before();
    cudaCheck(cudaEventRecord(start, 0), "cudaEventRecord");
    work();
    cudaCheck(cudaEventRecord(stop, 0), "cudaEventRecord");
    cudaCheck(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    cudaCheck(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaCheck(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the timed runs");
  return median(times);
}

} // namespace bench
