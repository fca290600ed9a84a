//===- StreamImpl.h - What a pyk::Stream and pyk::Event hold ---------------===//
//
// A Stream is a CUstream on the GPU and a CpuStream (a worker thread) on the
// CPU device. An Event is a CUevent on the GPU; on the CPU device it is a
// marker that a stream's worker stamps with the time when it reaches it.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_STREAMIMPL_H
#define PYK_RUNTIME_STREAMIMPL_H

#include "CpuStream.h"
#include "CudaDriver.h"
#include "pyk/Device.h"
#include "pyk/Stream.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

namespace pyk::detail {

struct StreamImpl {
  DeviceKind kind = DeviceKind::Cpu;
  int device = 0; ///< the device it belongs to
  cuda::CUstream cuStream = nullptr; ///< GPU
  bool ownsCuStream = true;          ///< false: adopted (Stream::adopt), not destroyed
  std::unique_ptr<CpuStream> cpu;    ///< CPU device
  /// GPU: the grid barrier of the cooperative launches on this stream
  /// (CudaGridBarriers.h); 0 until the first.
  std::once_flag gridBarrierAllocated;
  cuda::CUdeviceptr gridBarrier = 0;
};

/// A CPU-device event: each record() takes the next generation number; the
/// stream's worker marks it reached, with the time, when it gets there.
struct CpuEventState {
  std::mutex mutex;
  std::condition_variable reachedChanged;
  std::uint64_t recorded = 0; ///< generation of the latest record()
  std::uint64_t reached = 0;  ///< latest generation reached
  std::chrono::steady_clock::time_point time;

  /// Marks `generation` reached now (unless a later one already was).
  void reach(std::uint64_t generation);
};

struct EventImpl {
  DeviceKind kind = DeviceKind::Cpu;
  int device = 0; ///< the device it belongs to
  cuda::CUevent cuEvent = nullptr;    ///< GPU
  std::shared_ptr<CpuEventState> cpu; ///< CPU device; shared with queued markers
};

/// The implementation of `stream`; throws pyk::Error naming `operation`
/// when the stream was moved from.
StreamImpl &checkedImpl(const Stream &stream, const char *operation);

} // namespace pyk::detail

#endif // PYK_RUNTIME_STREAMIMPL_H
