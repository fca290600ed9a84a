//===- StreamImpl.h - What a pyk::Stream and pyk::Event hold ---------------===//
//
// A Stream is a CUstream on the GPU and a CpuStream (a worker thread) on the
// CPU device. An Event is a CUevent on the GPU; on the CPU device it is a
// marker that a stream's worker stamps with the time when it reaches it. A
// Graph is an instantiated CUDA graph on the GPU, and on the CPU device the
// tasks a capturing CpuStream kept.
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
#include <vector>

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
  /// Between begin_capture() and end_capture() (the CPU device's is its
  /// CpuStream's).
  bool capturing = false;
  /// GPU: a checked kernel was captured since begin_capture(), so replays
  /// write the device's check record.
  bool capturedCheckedLaunch = false;
  /// GPU: the launches and copies captured since begin_capture().
  std::size_t capturedOperations = 0;
};

/// The CPU device's graph: the captured tasks, run in order by one task
/// queued on the stream it is launched on. The mutex keeps two replays on
/// two streams from running at once (they share the launches' copies of
/// their arguments and check records).
struct CpuGraph {
  std::mutex running;
  std::vector<CpuStream::Task> tasks;
};

struct GraphImpl {
  DeviceKind kind = DeviceKind::Cpu;
  int device = 0;                          ///< the device it was captured on
  cuda::CUgraph cuGraph = nullptr;         ///< GPU
  cuda::CUgraphExec cuGraphExec = nullptr; ///< GPU: cuGraph instantiated
  std::size_t gpuOperations = 0;           ///< GPU: what was captured
  bool checked = false;                    ///< GPU: it holds a checked kernel
  std::shared_ptr<CpuGraph> cpu;           ///< CPU device; shared with queued replays
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

/// A GPU stream destroyed while it captures: ends the capture and drops
/// what it captured (Graph.cpp).
void abandonCapture(StreamImpl &stream) noexcept;

} // namespace pyk::detail

#endif // PYK_RUNTIME_STREAMIMPL_H
