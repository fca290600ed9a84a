//===- Memory.cpp - Device memory and copies, for both devices --------------===//
//
// GPU: cuMemAlloc_v2 / cuMemFree_v2 and the synchronous or (with a stream)
// asynchronous cuMemcpy*_v2 calls, in the context of the device the memory
// belongs to; cuMemcpyPeer(Async) between two GPUs' memory.
// CPU device: host memory aligned to 256 bytes, as cuMemAlloc's is; an
// array of a page or more is a mapping of its own that ends, as closely as
// that alignment allows, at an inaccessible guard page, so that a kernel
// writing past its end faults instead of overwriting the runtime's objects
// on the heap. Copies are memcpy, run in order with a stream's queued work
// when a stream is given, and after all queued stream work otherwise (see
// CpuStream.h).
//
// Pinned host memory (PinnedBuffer) is cuMemHostAlloc'd, portable to every
// GPU, and the CPU device's ordinary memory.
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
#include "pyk/PinnedBuffer.h"

#include <cerrno>
#include <cstring>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

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

std::size_t pageSize() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

/// A CPU-device array of `bytes` (0 < bytes <= INT64_MAX, so no rounding
/// below overflows) occupies this memory.
struct CpuLayout {
  std::size_t rounded;     ///< bytes rounded up to the alignment
  std::size_t dataPages;   ///< pages holding them, 0 when they take less than a page
  std::size_t mappedBytes; ///< the mapping: the data pages and the guard page
};

CpuLayout cpuLayout(std::size_t bytes) {
  CpuLayout layout;
  layout.rounded = (bytes + cpuAlignment - 1) / cpuAlignment * cpuAlignment;
  std::size_t page = pageSize();
  layout.dataPages = layout.rounded < page ? 0 : (layout.rounded + page - 1) / page;
  layout.mappedBytes = (layout.dataPages + 1) * page;
  return layout;
}

[[noreturn]] void rejectCpuAllocation(std::size_t bytes, const char *operation, const char *call, int error) {
  throw Error("pyk: the CPU device has no room for the " + bytesText(bytes) + " of " + operation + " (" + call + ": " +
              std::strerror(error) + "); free device arrays you no longer need");
}

void *allocateOnCpu(std::size_t bytes, const char *operation) {
  CpuLayout layout = cpuLayout(bytes);
  if (layout.dataPages == 0) {
    // The nothrow form, so that failure is an Error also under valgrind
    // (whose throwing operator new aborts instead).
    void *memory = ::operator new (layout.rounded, std::align_val_t{cpuAlignment}, std::nothrow);
    if (!memory)
      rejectCpuAllocation(bytes, operation, "operator new", ENOMEM);
    return memory;
  }
  void *mapping = mmap(nullptr, layout.mappedBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED)
    rejectCpuAllocation(bytes, operation, "mmap", errno);
  char *guard = static_cast<char *>(mapping) + layout.dataPages * pageSize();
  if (mprotect(guard, pageSize(), PROT_NONE) != 0) {
    int error = errno;
    munmap(mapping, layout.mappedBytes);
    rejectCpuAllocation(bytes, operation, "mprotect", error);
  }
  return guard - layout.rounded;
}

void releaseOnCpu(void *pointer, std::size_t bytes) noexcept {
  CpuLayout layout = cpuLayout(bytes);
  if (layout.dataPages == 0) {
    ::operator delete (pointer, std::align_val_t{cpuAlignment});
    return;
  }
  char *guard = static_cast<char *>(pointer) + layout.rounded;
  munmap(guard - layout.dataPages * pageSize(), layout.mappedBytes);
}

enum class Direction { ToDevice, ToHost, DeviceToDevice };

/// The stream's implementation, which must belong to `device` or, when it
/// is not -1, to `otherDevice` (DeviceError).
StreamImpl &streamOf(Stream &stream, int device, int otherDevice, const char *operation) {
  StreamImpl &impl = checkedImpl(stream, operation);
  if (impl.device != device && impl.device != otherDevice)
    rejectOtherDevice(operation, "the stream", impl.device, device);
  return impl;
}

void copyOnCpu(void *to, const void *from, std::size_t bytes, StreamImpl *stream) {
  if (!stream) {
    rejectDefaultStreamWorkWhileCapturing("a copy without a stream");
    waitForCpuStreams();
    std::memcpy(to, from, bytes);
    return;
  }
  stream->cpu->submit([to, from, bytes] { std::memcpy(to, from, bytes); });
}

void copyOnGpu(Direction direction, void *to, const void *from, std::size_t bytes, int device, StreamImpl *stream,
               const char *operation) {
  const cuda::Driver &cu = *cudaState(device).cu;
  cuda::CUstream handle = stream ? stream->cuStream : nullptr;
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
  if (stream && stream->capturing)
    ++stream->capturedOperations;
  // A copy to the host waits for the kernels before it: what a checked one
  // found surfaces here.
  if (direction == Direction::ToHost && !stream)
    raiseGpuCheckFailure(/*allWorkDone=*/false, device);
}

/// A copy within device `device`'s memory, or between it and the host.
void copy(Direction direction, void *to, const void *from, std::size_t bytes, int device, Stream *stream,
          const char *operation) {
  if (bytes == 0)
    return;
  StreamImpl *impl = stream ? &streamOf(*stream, device, -1, operation) : nullptr;
  if (deviceState(device).kind == DeviceKind::Cpu) {
    copyOnCpu(to, from, bytes, impl);
    // As on a GPU, where such an error is the device's: a destroyed
    // stream's failed work surfaces at a copy to the host.
    if (direction == Direction::ToHost && !stream)
      raiseOrphanedCpuStreamError();
    return;
  }
  copyOnGpu(direction, to, from, bytes, device, impl, operation);
}

} // namespace

void *allocate(std::size_t bytes, const char *operation) {
  const DeviceState &state = deviceState();
  if (bytes == 0)
    return nullptr;
  if (state.kind == DeviceKind::Cpu)
    return allocateOnCpu(bytes, operation);
  cuda::CUdeviceptr pointer = 0;
  cuda::CUresult code = cudaState().cu->cuMemAlloc(&pointer, bytes);
  if (code == 2 /* CUDA_ERROR_OUT_OF_MEMORY */)
    cuda::throwError("cuMemAlloc_v2", code,
                     "the GPU has no room for the " + bytesText(bytes) + " of " + std::string(operation));
  if (code != cuda::CUDA_SUCCESS)
    cuda::throwError("cuMemAlloc_v2", code, "allocating " + bytesText(bytes) + " for " + operation);
  return reinterpret_cast<void *>(static_cast<std::uintptr_t>(pointer));
}

void release(void *pointer, std::size_t bytes, int device) noexcept {
  if (!pointer)
    return;
  // A non-null pointer came from allocate(), so the devices were found.
  const DeviceState &state = deviceState(device);
  if (state.kind == DeviceKind::Cpu) {
    // As cuMemFree does on a GPU, wait for queued work that may still use it.
    waitForCpuStreams();
    releaseOnCpu(pointer, bytes);
    return;
  }
  try {
    // Errors here are those of earlier asynchronous work; they surface at
    // the next synchronisation, and a destructor must not throw.
    (void)cudaState(device).cu->cuMemFree(devicePointer(pointer));
  } catch (...) {
  }
}

void *allocatePinned(std::size_t bytes, const char *operation) {
  const DeviceState &state = deviceState();
  if (bytes == 0)
    return nullptr;
  if (state.kind == DeviceKind::Cpu)
    return allocateOnCpu(bytes, operation);
  void *pointer = nullptr;
  cuda::CUresult code = cudaState().cu->cuMemHostAlloc(&pointer, bytes, cuda::CU_MEMHOSTALLOC_PORTABLE);
  if (code != cuda::CUDA_SUCCESS)
    cuda::throwError("cuMemHostAlloc", code,
                     "allocating " + bytesText(bytes) + " of pinned host memory for " + std::string(operation));
  return pointer;
}

void releasePinned(void *pointer, std::size_t bytes) noexcept {
  if (!pointer)
    return;
  if (deviceState().kind == DeviceKind::Cpu) {
    // A stream's queued copy may still read or write it.
    waitForCpuStreams();
    releaseOnCpu(pointer, bytes);
    return;
  }
  try {
    (void)cudaState().cu->cuMemFreeHost(pointer);
  } catch (...) {
  }
}

void copyToDevice(void *to, int device, const void *host, std::size_t bytes, Stream *stream) {
  copy(Direction::ToDevice, to, host, bytes, device, stream, "copying to the device");
}

void copyToHost(void *host, const void *from, int device, std::size_t bytes, Stream *stream) {
  copy(Direction::ToHost, host, from, bytes, device, stream, "copying to the host");
}

void copyDeviceToDevice(void *to, int toDevice, const void *from, int fromDevice, std::size_t bytes,
                        Stream *stream) {
  const char *operation = "pyk::copy";
  if (toDevice == fromDevice)
    return copy(Direction::DeviceToDevice, to, from, bytes, toDevice, stream, operation);
  if (bytes == 0)
    return;
  StreamImpl *impl = stream ? &streamOf(*stream, toDevice, fromDevice, operation) : nullptr;
  if (deviceState(toDevice).kind == DeviceKind::Cpu)
    return copyOnCpu(to, from, bytes, impl);
  // Between two GPUs: the driver copies over NVLink or PCIe, or through the
  // host where the GPUs cannot reach each other.
  const DeviceState &target = deviceState(toDevice), &source = deviceState(fromDevice);
  const cuda::Driver &cu = *cudaState(impl ? impl->device : toDevice).cu;
  cuda::CUresult code =
      impl ? cu.cuMemcpyPeerAsync(devicePointer(to), target.context, devicePointer(from), source.context, bytes,
                                  impl->cuStream)
           : cu.cuMemcpyPeer(devicePointer(to), target.context, devicePointer(from), source.context, bytes);
  if (code != cuda::CUDA_SUCCESS)
    cuda::throwError(impl ? "cuMemcpyPeerAsync" : "cuMemcpyPeer", code,
                     "copying " + bytesText(bytes) + " from device " + std::to_string(fromDevice) + " to device " +
                         std::to_string(toDevice));
  if (impl && impl->capturing)
    ++impl->capturedOperations;
}

} // namespace pyk::detail
