// A 64-bin histogram: per-block bins in shared memory (shared-memory
// atomics), then one global atomicAdd per bin per block, as histogram.pyk.
#include "handwritten.h"

namespace {

constexpr int BINS = 64;

__global__ void histogram_kernel(const int *__restrict__ data, unsigned *bins, std::int64_t n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < n;
       i += (std::int64_t)gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % BINS], 1u); // data is non-negative, so % is Python's too
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

} // namespace

namespace hand {

cudaError_t histogram(Shape s, const std::int32_t *data, std::uint32_t *bins, std::int64_t n) {
  histogram_kernel<<<s.gridX, s.blockX>>>(data, bins, n);
  return cudaGetLastError();
}

} // namespace hand
