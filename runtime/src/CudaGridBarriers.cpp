//===- CudaGridBarriers.cpp - The GPU's grid barriers, one per stream ------===//
#include "CudaGridBarriers.h"

#include "CudaErrors.h"
#include "DeviceState.h"

#include <cstdint>
#include <mutex>

namespace pyk::detail {
namespace {

/// 8 bytes of GPU `device`'s memory, zeroed.
cuda::CUdeviceptr allocateBarrier(int device, const char *whose) {
  const DeviceState &state = cudaState(device);
  cuda::CUdeviceptr address = 0;
  if (cuda::CUresult code = state.cu->cuMemAlloc(&address, sizeof(std::uint64_t)))
    cuda::throwError("cuMemAlloc_v2", code, std::string("allocating the grid barrier of ") + whose);
  const std::uint64_t zero = 0;
  if (cuda::CUresult code = state.cu->cuMemcpyHtoD(address, &zero, sizeof zero)) {
    (void)state.cu->cuMemFree(address);
    cuda::throwError("cuMemcpyHtoD_v2", code, std::string("clearing the grid barrier of ") + whose);
  }
  return address;
}

/// The default stream's, never freed (as the device's check record).
struct DefaultStreamBarrier {
  std::once_flag allocated;
  cuda::CUdeviceptr address = 0;
};

/// Each GPU's default stream has its own.
DefaultStreamBarrier &defaultStreamBarrier(int device) {
  static DefaultStreamBarrier *barriers = new DefaultStreamBarrier[maxDevices];
  return barriers[device];
}

} // namespace

cuda::CUdeviceptr gpuGridBarrier(StreamImpl *stream) {
  if (!stream) {
    const int device = currentDeviceIndex();
    DefaultStreamBarrier &barrier = defaultStreamBarrier(device);
    std::call_once(barrier.allocated, [&] { barrier.address = allocateBarrier(device, "the default stream"); });
    return barrier.address;
  }
  std::call_once(stream->gridBarrierAllocated,
                 [&] { stream->gridBarrier = allocateBarrier(stream->device, "a stream"); });
  return stream->gridBarrier;
}

void releaseGpuGridBarrier(StreamImpl &stream) noexcept {
  if (!stream.gridBarrier)
    return;
  try {
    const DeviceState &state = cudaState(stream.device);
    // The stream's kernels may still wait at the barrier.
    (void)state.cu->cuStreamSynchronize(stream.cuStream);
    (void)state.cu->cuMemFree(stream.gridBarrier);
  } catch (...) {
  }
  stream.gridBarrier = 0;
}

} // namespace pyk::detail
