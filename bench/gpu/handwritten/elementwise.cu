// Elementwise kernels as CUDA programmers write them: one element per
// thread, 32-bit indices (the benchmark's sizes stay under 2^31 elements;
// pyk's kernels use 64-bit ones, as Numba's do), __restrict__ inputs.
#include "handwritten.h"

#include <cuComplex.h>
#include <cuda_fp16.h>

namespace {

__global__ void vector_add_kernel(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ out,
                                  int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] + y[i];
}

__global__ void saxpy_kernel(float a, const float *__restrict__ x, const float *__restrict__ y,
                             float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * x[i] + y[i];
}

__global__ void haxpy_kernel(__half a, const __half *__restrict__ x, const __half *__restrict__ y,
                             __half *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __hfma(a, x[i], y[i]);
}

__global__ void caxpy_kernel(cuFloatComplex a, const cuFloatComplex *__restrict__ x,
                             const cuFloatComplex *__restrict__ y, cuFloatComplex *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = cuCaddf(cuCmulf(a, x[i]), y[i]);
}

// The fastest plain copy we know how to write: 16 bytes per load and store,
// grid-stride. It and cudaMemcpy are the memory-bound kernels' ceiling.
__global__ void copy_float4_kernel(const float4 *__restrict__ from, float4 *__restrict__ to, std::int64_t n4) {
  for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < n4;
       i += (std::int64_t)gridDim.x * blockDim.x)
    to[i] = from[i];
}

} // namespace

namespace hand {

cudaError_t vector_add(Shape s, const float *x, const float *y, float *out, int n) {
  vector_add_kernel<<<s.gridX, s.blockX>>>(x, y, out, n);
  return cudaGetLastError();
}

cudaError_t saxpy(Shape s, float a, const float *x, const float *y, float *out, int n) {
  saxpy_kernel<<<s.gridX, s.blockX>>>(a, x, y, out, n);
  return cudaGetLastError();
}

cudaError_t haxpy(Shape s, std::uint16_t aBits, const std::uint16_t *x, const std::uint16_t *y, std::uint16_t *out,
                  int n) {
  haxpy_kernel<<<s.gridX, s.blockX>>>(__ushort_as_half(aBits), reinterpret_cast<const __half *>(x),
                                      reinterpret_cast<const __half *>(y), reinterpret_cast<__half *>(out), n);
  return cudaGetLastError();
}

cudaError_t caxpy(Shape s, float aReal, float aImag, const float *x, const float *y, float *out, int n) {
  caxpy_kernel<<<s.gridX, s.blockX>>>(make_cuFloatComplex(aReal, aImag), reinterpret_cast<const cuFloatComplex *>(x),
                                      reinterpret_cast<const cuFloatComplex *>(y),
                                      reinterpret_cast<cuFloatComplex *>(out), n);
  return cudaGetLastError();
}

cudaError_t copy_float4(Shape s, const float *from, float *to, std::int64_t n) {
  // n is a multiple of 4 and the pointers come from cudaMalloc-aligned
  // allocations (the caller checks).
  copy_float4_kernel<<<s.gridX, s.blockX>>>(reinterpret_cast<const float4 *>(from), reinterpret_cast<float4 *>(to),
                                            n / 4);
  return cudaGetLastError();
}

} // namespace hand
