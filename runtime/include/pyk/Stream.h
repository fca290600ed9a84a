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
//===----------------------------------------------------------------------===//
#ifndef PYK_STREAM_H
#define PYK_STREAM_H

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

  detail::StreamImpl *impl() const { return impl_.get(); }

private:
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
