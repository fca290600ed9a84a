// Uses pyk beside CUDA code of the program's own, the way docs/using-pyk.md
// ("Using pyk with your CUDA code") says: a pyk array cleared by a CUDA
// runtime API call on the pyk stream's native handle, then used by a pyk
// launch on that stream; and a DLPack tensor that another library made,
// launched on by a pyk kernel.
#include "saxpy.pyk.h"

#include <pyk/DLPack.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

namespace {

const int n = 4099;
const unsigned blocks = (n + 127) / 128, threads = 128;

/// A pyk array handed to cudaMemsetAsync on stream.native(), then a launch
/// queued behind it on the same stream. Returns the wrong elements, or -1
/// where there is no CUDA stream (the CPU device).
int memsetThenLaunch() {
  pyk::Stream stream;
  if (!stream.native())
    return -1;
  auto x = pyk::to_device(std::vector<float>(n, 7.0f));
  auto y = pyk::to_device(std::vector<float>(n, 1.0f));
  auto out = pyk::device_empty_like(x);
  cudaError_t status = cudaMemsetAsync(x.data(), 0, x.bytes(), static_cast<cudaStream_t>(stream.native()));
  if (status != cudaSuccess) {
    std::printf("consumer interop: cudaMemsetAsync failed: %s\n", cudaGetErrorString(status));
    return n;
  }
  pyk::kernels::saxpy({blocks, threads, 0, &stream}, 3.0f, x, y, out);
  stream.synchronize();
  std::vector<float> result(n);
  out.copy_to_host(result);
  int wrong = 0;
  for (float v : result)
    wrong += v != 1.0f; // 3 * 0 + 1: the memset ran first
  return wrong;
}

/// Memory another library owns, as a DLPack tensor: host memory on the CPU
/// device, cudaMalloc'd memory on a GPU.
struct ForeignBuffer {
  std::vector<float> host;
  float *gpu = nullptr;
  std::int64_t shape[1] = {n};
  DLManagedTensor tensor{};
  bool deleted = false;

  explicit ForeignBuffer(float value) : host(n, value) {
    tensor.dl_tensor.data = host.data();
    tensor.dl_tensor.device = {kDLCPU, 0};
    if (pyk::current_device() == pyk::DeviceKind::Cuda) {
      cudaMalloc(&gpu, n * sizeof(float));
      cudaMemcpy(gpu, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
      tensor.dl_tensor.data = gpu;
      tensor.dl_tensor.device = {kDLCUDA, pyk::get_device()};
    }
    tensor.dl_tensor.ndim = 1;
    tensor.dl_tensor.dtype = {kDLFloat, 32, 1};
    tensor.dl_tensor.shape = shape;
    tensor.manager_ctx = this;
    tensor.deleter = [](DLManagedTensor *self) { static_cast<ForeignBuffer *>(self->manager_ctx)->deleted = true; };
  }
  ~ForeignBuffer() { cudaFree(gpu); }
  std::vector<float> values() {
    if (gpu)
      cudaMemcpy(host.data(), gpu, n * sizeof(float), cudaMemcpyDeviceToHost);
    return host;
  }
};

/// saxpy on DLPack tensors: x and y come from "another library", out is pyk's.
int launchOnDLPackTensors() {
  ForeignBuffer xBuffer(2.0f), yBuffer(0.5f);
  int wrong = 0;
  {
    auto x = pyk::from_dlpack<float, 1>(&xBuffer.tensor);
    auto y = pyk::from_dlpack<float, 1>(&yBuffer.tensor);
    auto out = pyk::device_empty<float>(n);
    pyk::kernels::saxpy({blocks, threads}, 4.0f, x.view(), y.view(), out);
    std::vector<float> result(n);
    out.copy_to_host(result);
    for (float v : result)
      wrong += v != 8.5f;
  }
  // pyk is done with both tensors: their deleters ran, their memory is as it was.
  wrong += !xBuffer.deleted + !yBuffer.deleted;
  for (float v : xBuffer.values())
    wrong += v != 2.0f;
  return wrong;
}

} // namespace

int main() {
  const int memset = memsetThenLaunch();
  if (memset < 0)
    std::printf("consumer interop: cudaMemsetAsync on stream.native() compiled and linked; not run: "
                "%s has no CUDA stream\n",
                pyk::device_name().c_str());
  else
    std::printf("consumer interop: cudaMemsetAsync on stream.native(), then a pyk launch: %d wrong\n", memset);
  const int dlpack = launchOnDLPackTensors();
  std::printf("consumer interop on %s: DLPack tensors into a pyk launch: %d wrong\n", pyk::device_name().c_str(),
              dlpack);
  return (memset > 0 || dlpack != 0) ? 1 : 0;
}
