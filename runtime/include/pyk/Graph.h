//===- pyk/Graph.h - Captured work, replayed ---------------------------------===//
//
// A Graph is the work a stream was given between Stream::begin_capture()
// and Stream::end_capture() (kernel launches and asynchronous copies),
// captured instead of run, to be launched again and again with one call. On
// a GPU it is a CUDA graph: the driver launches the whole sequence at once,
// which saves most of each kernel launch's CPU cost when kernels are short.
// On the CPU device it is the list of that work, run in order on the
// stream it is launched on.
//
// A launch captures its arguments' values: every replay runs the kernels on
// the same arrays (the same device memory) and copies between the same
// addresses, which must stay valid while the Graph may be launched.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_GRAPH_H
#define PYK_GRAPH_H

#include <cstddef>
#include <memory>

namespace pyk {

class Stream;

namespace detail {
struct GraphImpl;
} // namespace detail

class Graph {
public:
  ~Graph();
  Graph(Graph &&) noexcept;
  Graph &operator=(Graph &&) noexcept;
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;

  /// Queues the captured work on `stream`, of the device the Graph was
  /// captured on (DeviceError otherwise), behind the work queued there
  /// before. Replays of one Graph run one after another, as CUDA runs one
  /// executable graph's launches; a failure surfaces where a launch's would
  /// (the stream's or the device's next synchronisation).
  void launch(Stream &stream);

  /// The launches and copies it holds.
  std::size_t size() const;

  detail::GraphImpl *impl() const { return impl_.get(); }

private:
  friend class Stream;
  explicit Graph(std::unique_ptr<detail::GraphImpl> impl);

  std::unique_ptr<detail::GraphImpl> impl_;
};

} // namespace pyk

#endif // PYK_GRAPH_H
