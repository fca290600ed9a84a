// The GPU side of the runtime tests' hand-written kernels (TestKernels.cpp
// holds their CPU-device entries and the launch wrappers). Parameters follow
// pyk's launch ABI: an array is its data pointer and one int64 per extent.
//
// test_kernels.ptx is generated from this file and committed, so the tests
// build without the CUDA toolkit. Regenerate it after a change with:
//   nvcc -ptx -arch=compute_75 -o test_kernels.ptx test_kernels.cu
typedef long long int64;

// out[i] = x[i] + y[i]
extern "C" __global__ void vector_add(const float *x, int64 xn, const float *y, int64 yn, float *out, int64 outn) {
  int64 i = (int64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < xn && i < yn && i < outn)
    out[i] = x[i] + y[i];
}

// out[i] = a * x[i]: a scalar parameter
extern "C" __global__ void scale(float a, const float *x, int64 xn, float *out, int64 outn) {
  int64 i = (int64)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < xn && i < outn)
    out[i] = a * x[i];
}

// Every thread adds 1 to its block's counter (blocks numbered x fastest);
// thread (0, 0, 0) of each block records the block's index and the launch's
// extents in ids[9 * block ...].
extern "C" __global__ void count_blocks(int *counts, int64 countn, int *ids, int64 idn) {
  int64 block = ((int64)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  if (block < countn)
    atomicAdd(&counts[block], 1);
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0 && 9 * block + 8 < idn) {
    int *id = ids + 9 * block;
    id[0] = blockIdx.x;  id[1] = blockIdx.y;  id[2] = blockIdx.z;
    id[3] = blockDim.x;  id[4] = blockDim.y;  id[5] = blockDim.z;
    id[6] = gridDim.x;   id[7] = gridDim.y;   id[8] = gridDim.z;
  }
}

// Reverses each block's chunk of x through dynamic shared memory
// (blockDim.x floats): out[b * n + t] = x[b * n + n - 1 - t].
extern "C" __global__ void reverse_blocks(const float *x, int64 xn, float *out, int64 outn) {
  extern __shared__ float chunk[];
  int64 base = (int64)blockIdx.x * blockDim.x;
  unsigned t = threadIdx.x;
  if (base + t < xn)
    chunk[t] = x[base + t];
  __syncthreads();
  unsigned from = blockDim.x - 1 - t;
  if (base + t < outn && base + from < xn)
    out[base + t] = chunk[from];
}
