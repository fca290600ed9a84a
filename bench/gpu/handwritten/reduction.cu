// Sums: a grid-stride loop per thread, then either a shared-memory tree per
// block (256 threads) or shuffles per warp, and one atomicAdd per block or
// warp: the same algorithms as reduction.pyk, written the textbook way.
#include "handwritten.h"

namespace {

constexpr int BLOCK = 256;

__global__ void block_sum_kernel(const long long *__restrict__ x, unsigned long long *total, std::int64_t n) {
  __shared__ long long partial[BLOCK];
  int t = threadIdx.x;
  long long acc = 0;
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + t; i < n; i += (std::int64_t)gridDim.x * blockDim.x)
    acc += x[i];
  partial[t] = acc;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s /= 2) {
    if (t < s)
      partial[t] += partial[t + s];
    __syncthreads();
  }
  // Two's complement: adding the bits as unsigned adds the signed values.
  if (t == 0)
    atomicAdd(total, (unsigned long long)partial[0]);
}

__global__ void warp_sum_kernel(const double *__restrict__ x, double *total, std::int64_t n) {
  double acc = 0.0;
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < n;
       i += (std::int64_t)gridDim.x * blockDim.x)
    acc += x[i];
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, acc);
}

} // namespace

namespace hand {

cudaError_t block_sum(Shape s, const std::int64_t *x, std::int64_t *total, std::int64_t n) {
  if (s.blockX != BLOCK)
    return cudaErrorInvalidConfiguration;
  block_sum_kernel<<<s.gridX, s.blockX>>>(reinterpret_cast<const long long *>(x),
                                          reinterpret_cast<unsigned long long *>(total), n);
  return cudaGetLastError();
}

cudaError_t warp_sum(Shape s, const double *x, double *total, std::int64_t n) {
  warp_sum_kernel<<<s.gridX, s.blockX>>>(x, total, n);
  return cudaGetLastError();
}

} // namespace hand
