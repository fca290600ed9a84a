// Hand-written CUDA C++ versions of the benchmark's kernels: the same
// algorithms as bench/gpu/kernels/*.pyk, written as a CUDA programmer
// would, compiled by nvcc -O3 -arch=sm_90. Each function launches on the
// legacy default stream (as pyk's generated wrappers do with a null stream)
// and returns cudaGetLastError(), so that a bad launch is reported at once.
// The driver is compiled by the host compiler alone: nothing here needs nvcc.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace hand {

/// grid and block extents (x, y) of one launch.
struct Shape {
  unsigned gridX, gridY, blockX, blockY;
};

// elementwise.cu: out[i] = x[i] + y[i]; out[i] = a * x[i] + y[i]; and the
// copy kernel that measures the bandwidth ceiling (16-byte loads and stores).
cudaError_t vector_add(Shape s, const float *x, const float *y, float *out, int n);
cudaError_t saxpy(Shape s, float a, const float *x, const float *y, float *out, int n);
cudaError_t copy_float4(Shape s, const float *from, float *to, std::int64_t n);
// out[i] = a * x[i] + y[i] in float16 (__hfma), the values as their bits.
cudaError_t haxpy(Shape s, std::uint16_t aBits, const std::uint16_t *x, const std::uint16_t *y, std::uint16_t *out,
                  int n);
// out[i] = a * x[i] + y[i] in complex64 (cuCmulf, cuCaddf), each element two
// floats, the real part first.
cudaError_t caxpy(Shape s, float aReal, float aImag, const float *x, const float *y, float *out, int n);

// stencil.cu: one Jacobi step on a rows x cols row-major grid.
cudaError_t jacobi_step(Shape s, const float *src, float *dst, int rows, int cols);

// matmul.cu: C (n x n) = A @ B, row-major; tiled uses 16 x 16 blocks.
cudaError_t matmul_naive(Shape s, const float *A, const float *B, float *C, int n);
cudaError_t matmul_tiled(Shape s, const float *A, const float *B, float *C, int n);

// reduction.cu: *total += sum(x); block_sum needs 256-thread blocks.
cudaError_t block_sum(Shape s, const std::int64_t *x, std::int64_t *total, std::int64_t n);
cudaError_t warp_sum(Shape s, const double *x, double *total, std::int64_t n);

// grid_sync.cu: `steps` steps of the heat equation on n points, buf0 the
// first step's, in one cooperative launch (grid.sync() between steps).
cudaError_t heat_steps(Shape s, float *buf0, float *buf1, int n, int steps, float k);

// histogram.cu: bins[data[i] % 64] += 1 (data non-negative).
cudaError_t histogram(Shape s, const std::int32_t *data, std::uint32_t *bins, std::int64_t n);

} // namespace hand
