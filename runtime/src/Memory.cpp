//===- Memory.cpp - Device memory and copies, for both devices --------------===//
//
// GPU: cuMemAlloc_v2 / cuMemFree_v2 and the synchronous or (with a stream)
// asynchronous cuMemcpy*_v2 calls.
// CPU device: host memory aligned to 256 bytes, as cuMemAlloc's is; copies
// are memcpy, run in order with a stream's queued work when a stream is
// given, and after all queued stream work otherwise (see CpuStream.h).
//
// A zero-byte allocation is a null pointer on both devices, and a zero-byte
// copy does nothing.
//
//===----------------------------------------------------------------------===//
#include "CpuStream.h"
#include "CudaErrors.h"
#include "CheckFailures.h"
#include "DeviceState.h"
#include "StreamImpl.h"
#include "pyk/Array.h"

#include <cstring>
#include <new>

namespace pyk::detail {
namespace {

/// Alignment of CPU-device arrays (cuMemAlloc gives at least 256).
constexpr std::size_t cpuAlignment = 256;

cuda::CUdeviceptr devicePointer(const void *pointer) {
  return static_cast<cuda::CUdeviceptr>(reinterpret_cast<std::uintptr_t>(pointer));
}

std::string bytesText(std::size_t bytes) {
  return std::to_string(bytes) + " bytes";
}

enum class Direction { ToDevice, ToHost, DeviceToDevice };

void copyOnCpu(void *to, const void *from, std::size_t bytes, Stream *stream, const char *operation) {
  if (!stream) {
    waitForCpuStreams();
    std::memcpy(to, from, bytes);
    return;
  }
  checkedImpl(*stream, operation).cpu->submit([to, from, bytes] { std::memcpy(to, from, bytes); });
}

void copyOnGpu(Direction direction, void *to, const void *from, std::size_t bytes, Stream *stream,
               const char *operation) {
  const cuda::Driver &cu = *cudaState().cu;
  cuda::CUstream handle = stream ? checkedImpl(*stream, operation).cuStream : nullptr;
  cuda::CUresult code = cuda::CUDA_SUCCESS;
  const char *call = nullptr;
  switch (direction) {
  case Direction::ToDevice:
    call = stream ? "cuMemcpyHtoDAsync_v2" : "cuMemcpyHtoD_v2";
    code = stream ? cu.cuMemcpyHtoDAsync(devicePointer(to), from, bytes, handle)
                  : cu.cuMemcpyHtoD(devicePointer(to), from, bytes);
    break;
  case Direction::ToHost:
    call = stream ? "cuMemcpyDtoHAsync_v2" : "cuMemcpyDtoH_v2";
    code = stream ? cu.cuMemcpyDtoHAsync(to, devicePointer(from), bytes, handle)
                  : cu.cuMemcpyDtoH(to, devicePointer(from), bytes);
    break;
  case Direction::DeviceToDevice:
    call = stream ? "cuMemcpyDtoDAsync_v2" : "cuMemcpyDtoD_v2";
    code = stream ? cu.cuMemcpyDtoDAsync(devicePointer(to), devicePointer(from), bytes, handle)
                  : cu.cuMemcpyDtoD(devicePointer(to), devicePointer(from), bytes);
    break;
  }
  if (code != cuda::CUDA_SUCCESS)
    cuda::throwError(call, code, std::string(operation) + " (" + bytesText(bytes) + ")");
  // A copy to the host waits for the kernels before it: what a checked one
  // found surfaces here.
  if (direction == Direction::ToHost && !stream)
    raiseGpuCheckFailure(/*allWorkDone=*/false);
}

void copy(Direction direction, void *to, const void *from, std::size_t bytes, Stream *stream, const char *operation) {
  if (bytes == 0)
    return;
  if (deviceState().kind == DeviceKind::Cpu) {
    copyOnCpu(to, from, bytes, stream, operation);
    // As on a GPU, where such an error is the device's: a destroyed
    // stream's failed work surfaces at a copy to the host.
    if (direction == Direction::ToHost && !stream)
      raiseOrphanedCpuStreamError();
    return;
  }
  copyOnGpu(direction, to, from, bytes, stream, operation);
}

} // namespace

void *allocate(std::size_t bytes) {
  const DeviceState &state = deviceState();
  if (bytes == 0)
    return nullptr;
  if (state.kind == DeviceKind::Cpu) {
    std::size_t rounded = (bytes + cpuAlignment - 1) / cpuAlignment * cpuAlignment;
    // The nothrow form, so that failure is a std::bad_alloc also under
    // valgrind (whose throwing operator new aborts instead).
    void *memory = ::operator new (rounded, std::align_val_t{cpuAlignment}, std::nothrow);
    if (!memory)
      throw std::bad_alloc();
    return memory;
  }
  cuda::CUdeviceptr pointer = 0;
  cuda::CUresult code = cudaState().cu->cuMemAlloc(&pointer, bytes);
  if (code == 2 /* CUDA_ERROR_OUT_OF_MEMORY */)
    cuda::throwError("cuMemAlloc_v2", code, "the GPU has no room for " + bytesText(bytes));
  if (code != cuda::CUDA_SUCCESS)
    cuda::throwError("cuMemAlloc_v2", code, "allocating " + bytesText(bytes));
  return reinterpret_cast<void *>(static_cast<std::uintptr_t>(pointer));
}

void release(void *pointer) noexcept {
  if (!pointer)
    return;
  // A non-null pointer came from allocate(), so the device was selected.
  const DeviceState &state = deviceState();
  if (state.kind == DeviceKind::Cpu) {
    // As cuMemFree does on a GPU, wait for queued work that may still use it.
    waitForCpuStreams();
    ::operator delete (pointer, std::align_val_t{cpuAlignment});
    return;
  }
  try {
    // Errors here are those of earlier asynchronous work; they surface at
    // the next synchronisation, and a destructor must not throw.
    (void)cudaState().cu->cuMemFree(devicePointer(pointer));
  } catch (...) {
  }
}

void copyToDevice(void *device, const void *host, std::size_t bytes, Stream *stream) {
  copy(Direction::ToDevice, device, host, bytes, stream, "copying to the device");
}

void copyToHost(void *host, const void *device, std::size_t bytes, Stream *stream) {
  copy(Direction::ToHost, host, device, bytes, stream, "copying to the host");
}

void copyDeviceToDevice(void *to, const void *from, std::size_t bytes, Stream *stream) {
  copy(Direction::DeviceToDevice, to, from, bytes, stream, "copying between device arrays");
}

} // namespace pyk::detail
