//===- Stream.cpp - pyk::Stream and pyk::Event on both devices -------------===//
//
// GPU: a CUstream created with CU_STREAM_DEFAULT (ordered with the legacy
// default stream, like the CPU device's streams), or one adopted from the
// program's own CUDA code, and a CUevent with timing.
// CPU device: a CpuStream, and an event marker queued on it (CpuEventState).
//
//===----------------------------------------------------------------------===//
#include "CheckFailures.h"
#include "CudaGridBarriers.h"
#include "StreamImpl.h"

#include "CudaErrors.h"
#include "DeviceState.h"
#include "pyk/Error.h"

#include <chrono>

namespace pyk {
namespace detail {

StreamImpl &checkedImpl(const Stream &stream, const char *operation) {
  if (!stream.impl())
    throw Error(std::string("pyk: ") + operation + ": the stream was moved from; use the stream it was moved to");
  return *stream.impl();
}

void CpuEventState::reach(std::uint64_t generation) {
  {
    std::lock_guard lock(mutex);
    if (generation <= reached)
      return;
    reached = generation;
    time = std::chrono::steady_clock::now();
  }
  reachedChanged.notify_all();
}

namespace {

EventImpl &checkedEventImpl(const Event &event, const char *operation) {
  if (!event.impl())
    throw Error(std::string("pyk: ") + operation + ": the event was moved from; use the event it was moved to");
  return *event.impl();
}

/// A CPU event's time, checking that it was recorded and has been reached.
std::chrono::steady_clock::time_point reachedTime(CpuEventState &state, const char *which) {
  std::lock_guard lock(state.mutex);
  if (state.recorded == 0)
    throw Error(std::string("pyk: Event::elapsed_ms: the ") + which +
                " event was never recorded; call record() on it first");
  if (state.reached < state.recorded)
    throw Error(std::string("pyk: Event::elapsed_ms: the ") + which +
                " event's stream has not reached it yet; call synchronize() on the event first");
  return state.time;
}

} // namespace
} // namespace detail

Stream::Stream() : impl_(std::make_unique<detail::StreamImpl>()) {
  const detail::DeviceState &state = detail::deviceState();
  impl_->kind = state.kind;
  impl_->device = state.index;
  if (state.kind == DeviceKind::Cpu) {
    impl_->cpu = std::make_unique<detail::CpuStream>();
    return;
  }
  cuda::check(detail::cudaState().cu->cuStreamCreate(&impl_->cuStream, cuda::CU_STREAM_DEFAULT), "cuStreamCreate");
}

Stream::Stream(Adopting, void *cudaStream) : impl_(std::make_unique<detail::StreamImpl>()) {
  const detail::DeviceState &state = detail::deviceState();
  if (state.kind == DeviceKind::Cpu)
    throw DeviceError("pyk: Stream::adopt: " + state.name + " runs kernels, and it has no CUDA streams to adopt");
  if (!cudaStream)
    throw DeviceError("pyk: Stream::adopt: the stream is null; pyk's default stream is a null Stream * instead");
  impl_->kind = state.kind;
  impl_->device = state.index;
  impl_->cuStream = static_cast<cuda::CUstream>(cudaStream);
  impl_->ownsCuStream = false;
}

Stream Stream::adopt(void *cuda_stream) {
  return Stream(Adopting{}, cuda_stream);
}

void *Stream::native() const {
  const detail::StreamImpl &impl = detail::checkedImpl(*this, "Stream::native");
  return impl.kind == DeviceKind::Cuda ? static_cast<void *>(impl.cuStream) : nullptr;
}

Stream::~Stream() {
  if (!impl_ || impl_->kind == DeviceKind::Cpu)
    return; // the CpuStream finishes its work in its destructor
  detail::abandonCapture(*impl_);
  detail::releaseGpuGridBarrier(*impl_);
  if (!impl_->ownsCuStream)
    return;
  try {
    // Work still queued completes; the driver frees the stream after it.
    (void)detail::cudaState(impl_->device).cu->cuStreamDestroy(impl_->cuStream);
  } catch (...) {
  }
}

Stream::Stream(Stream &&) noexcept = default;
Stream &Stream::operator=(Stream &&other) noexcept {
  if (this != &other) {
    Stream old(std::move(*this)); // destroys the stream this held
    impl_ = std::move(other.impl_);
  }
  return *this;
}

void Stream::synchronize() {
  detail::StreamImpl &impl = detail::checkedImpl(*this, "Stream::synchronize");
  if (impl.capturing)
    throw Error("pyk: Stream::synchronize: the stream is capturing a graph, and its work has not run; call "
                "end_capture(), launch the graph, then synchronize");
  if (impl.kind == DeviceKind::Cpu) {
    impl.cpu->synchronize();
    // As on a GPU, whose check record is the device's.
    detail::raiseOrphanedCpuStreamError();
    return;
  }
  cuda::CUresult code = detail::cudaState(impl.device).cu->cuStreamSynchronize(impl.cuStream);
  if (code != cuda::CUDA_SUCCESS)
    cuda::throwError("cuStreamSynchronize", code, "a kernel or copy queued on this stream failed");
  detail::raiseGpuCheckFailure(/*allWorkDone=*/false, impl.device);
}

Event::Event() : impl_(std::make_unique<detail::EventImpl>()) {
  const detail::DeviceState &state = detail::deviceState();
  impl_->kind = state.kind;
  impl_->device = state.index;
  if (state.kind == DeviceKind::Cpu) {
    impl_->cpu = std::make_shared<detail::CpuEventState>();
    return;
  }
  cuda::check(detail::cudaState().cu->cuEventCreate(&impl_->cuEvent, cuda::CU_EVENT_DEFAULT), "cuEventCreate");
}

Event::~Event() {
  if (!impl_ || impl_->kind == DeviceKind::Cpu)
    return; // a queued marker keeps the CPU state alive until it runs
  try {
    (void)detail::cudaState(impl_->device).cu->cuEventDestroy(impl_->cuEvent);
  } catch (...) {
  }
}

Event::Event(Event &&) noexcept = default;
Event &Event::operator=(Event &&other) noexcept {
  if (this != &other) {
    Event old(std::move(*this));
    impl_ = std::move(other.impl_);
  }
  return *this;
}

void Event::record(Stream *stream) {
  detail::EventImpl &impl = detail::checkedEventImpl(*this, "Event::record");
  // The event marks a point in its own device's work.
  detail::StreamImpl *streamImpl = stream ? &detail::checkedImpl(*stream, "Event::record") : nullptr;
  if (streamImpl && streamImpl->device != impl.device)
    detail::rejectOtherDevice("Event::record", "the stream", streamImpl->device, impl.device);
  if (streamImpl && streamImpl->capturing)
    throw Error("pyk: Event::record: the stream is capturing a graph, which holds launches and copies only; record "
                "the event after launching the graph");
  if (impl.kind == DeviceKind::Cuda) {
    cuda::CUstream handle = streamImpl ? streamImpl->cuStream : nullptr;
    cuda::check(detail::cudaState(impl.device).cu->cuEventRecord(impl.cuEvent, handle), "cuEventRecord");
    return;
  }
  std::shared_ptr<detail::CpuEventState> state = impl.cpu;
  std::uint64_t generation;
  {
    std::lock_guard lock(state->mutex);
    generation = ++state->recorded;
  }
  if (!stream) {
    // The default stream: the point after all work queued so far.
    detail::rejectDefaultStreamWorkWhileCapturing("Event::record on the default stream");
    detail::waitForCpuStreams();
    state->reach(generation);
    return;
  }
  streamImpl->cpu->submit([state, generation] { state->reach(generation); });
}

void Event::synchronize() {
  detail::EventImpl &impl = detail::checkedEventImpl(*this, "Event::synchronize");
  if (impl.kind == DeviceKind::Cuda) {
    cuda::CUresult code = detail::cudaState(impl.device).cu->cuEventSynchronize(impl.cuEvent);
    if (code != cuda::CUDA_SUCCESS)
      cuda::throwError("cuEventSynchronize", code, "a kernel or copy queued before the event failed");
    return;
  }
  detail::CpuEventState &state = *impl.cpu;
  std::unique_lock lock(state.mutex);
  std::uint64_t target = state.recorded;
  state.reachedChanged.wait(lock, [&] { return state.reached >= target; });
}

float Event::elapsed_ms(const Event &start) const {
  detail::EventImpl &end = detail::checkedEventImpl(*this, "Event::elapsed_ms");
  detail::EventImpl &begin = detail::checkedEventImpl(start, "Event::elapsed_ms");
  if (begin.device != end.device)
    detail::rejectOtherDevice("Event::elapsed_ms", "the start event", begin.device, end.device);
  if (end.kind == DeviceKind::Cuda) {
    float milliseconds = 0;
    cuda::CUresult code =
        detail::cudaState(end.device).cu->cuEventElapsedTime(&milliseconds, begin.cuEvent, end.cuEvent);
    if (code == cuda::CUDA_ERROR_NOT_READY)
      cuda::throwError("cuEventElapsedTime", code, "an event has not been reached; call synchronize() on it first");
    if (code != cuda::CUDA_SUCCESS)
      cuda::throwError("cuEventElapsedTime", code, "both events must have been recorded and reached");
    return milliseconds;
  }
  auto to = detail::reachedTime(*end.cpu, "end"); // the later one first: it says more when neither is reached
  auto from = detail::reachedTime(*begin.cpu, "start");
  return std::chrono::duration<float, std::milli>(to - from).count();
}

} // namespace pyk
