// Matrix products of square row-major matrices: the naive one (a thread per
// element of C, x along C's columns) and the classic 16 x 16 shared-memory
// tiling of the CUDA programming guide, the same algorithm as the .pyk one
// (zero-padded tiles, two barriers per tile).
#include "handwritten.h"

namespace {

constexpr int TILE = 16;

__global__ void matmul_naive_kernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
      sum += A[(std::size_t)row * n + k] * B[(std::size_t)k * n + col];
    C[(std::size_t)row * n + col] = sum;
  }
}

__global__ void matmul_tiled_kernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                    int n) {
  __shared__ float sA[TILE][TILE];
  __shared__ float sB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;
  int row = blockIdx.y * TILE + ty;
  float sum = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    int aCol = t * TILE + tx, bRow = t * TILE + ty;
    sA[ty][tx] = (row < n && aCol < n) ? A[(std::size_t)row * n + aCol] : 0.0f;
    sB[ty][tx] = (bRow < n && col < n) ? B[(std::size_t)bRow * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      sum += sA[ty][k] * sB[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[(std::size_t)row * n + col] = sum;
}

} // namespace

namespace hand {

cudaError_t matmul_naive(Shape s, const float *A, const float *B, float *C, int n) {
  matmul_naive_kernel<<<dim3(s.gridX, s.gridY), dim3(s.blockX, s.blockY)>>>(A, B, C, n);
  return cudaGetLastError();
}

cudaError_t matmul_tiled(Shape s, const float *A, const float *B, float *C, int n) {
  if (s.blockX != TILE || s.blockY != TILE)
    return cudaErrorInvalidConfiguration;
  matmul_tiled_kernel<<<dim3(s.gridX, s.gridY), dim3(s.blockX, s.blockY)>>>(A, B, C, n);
  return cudaGetLastError();
}

} // namespace hand
