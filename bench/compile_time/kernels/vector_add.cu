// Hand-written CUDA C++ equivalent of examples/vector_add/vector_add.pyk, for the
// compile-time benchmark. No includes, so that NVRTC needs no headers.
extern "C" __global__ void vector_add_gpu_kernel(const float *__restrict__ x, long long x_size,
                                                 const float *__restrict__ y, long long y_size, float *out,
                                                 long long out_size) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < x_size)
    out[idx] = x[idx] + y[idx];
}
