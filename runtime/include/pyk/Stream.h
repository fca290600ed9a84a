//===- pyk/Stream.h - Streams and events -----------------------------------===//
//
// A Stream orders kernels and copies; work on different streams may overlap.
// On the CPU device a stream runs its work in submission order on a worker
// of its own. As with CUDA's legacy default stream, work on the default
// stream (a null Stream*) starts after all work queued before it on every
// stream, and work queued after it follows it. An Event marks a point in a
// stream, for waiting and timing. Both are move-only RAII handles; a
// destroyed stream's queued work still completes.
//
// With CUDA code of your own: native() is a GPU stream's CUstream (a
// cudaStream_t), and Stream::adopt makes a Stream of one your code created,
// so pyk's launches and copies order with your work on it.
//
// begin_capture() and end_capture() make a pyk::Graph of the work queued in
// between, which runs only when the Graph is launched (pyk/Graph.h).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_STREAM_H
#define PYK_STREAM_H

#include "pyk/Graph.h"

#include <memory>

namespace pyk {

namespace detail {
struct StreamImpl;
struct EventImpl;
} // namespace detail

class Stream {
public:
  /// A new stream on the current device.
  Stream();
  ~Stream();
  Stream(Stream &&) noexcept;
  Stream &operator=(Stream &&) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  /// Waits until all work in this stream has finished.
  void synchronize();

  /// The CUDA stream (a CUstream, which the CUDA runtime takes as a
  /// cudaStream_t), for your own CUDA calls on it; null on the CPU device,
  /// which has none.
  void *native() const;

  /// A Stream of `cuda_stream`, a CUstream (or cudaStream_t) of the current
  /// GPU that your code created: pyk queues its work on it and does not
  /// destroy it, which your code does after this Stream is gone.
  /// DeviceError on the CPU device, and for a null stream.
  static Stream adopt(void *cuda_stream);

  /// From now until end_capture(), the kernels launched and the
  /// asynchronous copies queued on this stream are captured, not run. While
  /// a stream captures, work on the default stream (a launch or copy
  /// without a stream, pyk::synchronize()) is an error, as CUDA makes it,
  /// and so are this stream's synchronize() and an event recorded on it.
  /// Error if it captures already.
  void begin_capture();
  /// Ends the capture: the Graph of the work captured since
  /// begin_capture(). Error if it was not capturing.
  Graph end_capture();
  /// Whether the stream is between begin_capture() and end_capture().
  bool capturing() const;

  detail::StreamImpl *impl() const { return impl_.get(); }

private:
  struct Adopting {};
  Stream(Adopting, void *cudaStream);

  std::unique_ptr<detail::StreamImpl> impl_;
};

class Event {
public:
  Event();
  ~Event();
  Event(Event &&) noexcept;
  Event &operator=(Event &&) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;

  /// Marks the current end of `stream` (the default stream if null).
  void record(Stream *stream = nullptr);
  /// Waits until the recorded point is reached.
  void synchronize();
  /// Milliseconds between `start`'s and this event's recorded points; both
  /// must have completed.
  float elapsed_ms(const Event &start) const;

  detail::EventImpl *impl() const { return impl_.get(); }

private:
  std::unique_ptr<detail::EventImpl> impl_;
};

} // namespace pyk

#endif // PYK_STREAM_H
