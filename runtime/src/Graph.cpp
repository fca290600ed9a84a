//===- Graph.cpp - Capturing a stream's work, and replaying it -------------===//
//
// GPU: the stream's capture by the driver (cuStreamBeginCapture_v2 ...
// cuStreamEndCapture), instantiated once (cuGraphInstantiateWithFlags) and
// launched with cuGraphLaunch. The capture is CUDA's relaxed mode, so that
// pyk may load a kernel's module on its first launch inside one; what a
// launch would allocate and clear with a synchronous copy (which waits on
// the legacy default stream, forbidden in every mode) is made before the
// capture begins: the device's check record and the stream's grid barrier.
//
// CPU device: the CpuStream keeps what is submitted while it captures
// (CpuStream::beginCapture); a replay is one task on the stream it is
// launched on, which runs the kept tasks in order.
//
//===----------------------------------------------------------------------===//
#include "pyk/Graph.h"
#include "CheckFailures.h"
#include "CudaErrors.h"
#include "CudaGridBarriers.h"
#include "DeviceState.h"
#include "StreamImpl.h"
#include "pyk/Error.h"
#include "pyk/Stream.h"

#include <string>
#include <utility>

namespace pyk {
namespace detail {
namespace {

GraphImpl &checkedGraphImpl(const Graph &graph, const char *operation) {
  if (!graph.impl())
    throw Error(std::string("pyk: ") + operation + ": the graph was moved from; use the graph it was moved to");
  return *graph.impl();
}

void destroyGpuGraph(GraphImpl &graph) noexcept {
  try {
    const cuda::Driver &cu = *cudaState(graph.device).cu;
    if (graph.cuGraphExec)
      (void)cu.cuGraphExecDestroy(graph.cuGraphExec);
    if (graph.cuGraph)
      (void)cu.cuGraphDestroy(graph.cuGraph);
  } catch (...) {
  }
  graph.cuGraphExec = nullptr;
  graph.cuGraph = nullptr;
}

} // namespace

void abandonCapture(StreamImpl &stream) noexcept {
  if (!stream.capturing || stream.kind != DeviceKind::Cuda)
    return;
  stream.capturing = false;
  try {
    const cuda::Driver &cu = *cudaState(stream.device).cu;
    cuda::CUgraph captured = nullptr;
    (void)cu.cuStreamEndCapture(stream.cuStream, &captured);
    if (captured)
      (void)cu.cuGraphDestroy(captured);
  } catch (...) {
  }
}

} // namespace detail

void Stream::begin_capture() {
  detail::StreamImpl &impl = detail::checkedImpl(*this, "Stream::begin_capture");
  if (impl.capturing)
    throw Error("pyk: Stream::begin_capture: the stream captures already; call end_capture() first");
  if (impl.kind == DeviceKind::Cpu) {
    impl.cpu->beginCapture();
    impl.capturing = true;
    return;
  }
  detail::allocateGpuCheckRecord(impl.device);
  (void)detail::gpuGridBarrier(&impl);
  const cuda::Driver &cu = *detail::cudaState(impl.device).cu;
  cuda::check(cu.cuStreamBeginCapture(impl.cuStream, cuda::CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture_v2");
  impl.capturing = true;
  impl.capturedCheckedLaunch = false;
  impl.capturedOperations = 0;
}

Graph Stream::end_capture() {
  detail::StreamImpl &impl = detail::checkedImpl(*this, "Stream::end_capture");
  if (!impl.capturing)
    throw Error("pyk: Stream::end_capture: the stream is not capturing; call begin_capture() first");
  impl.capturing = false;
  auto graph = std::make_unique<detail::GraphImpl>();
  graph->kind = impl.kind;
  graph->device = impl.device;
  if (impl.kind == DeviceKind::Cpu) {
    graph->cpu = std::make_shared<detail::CpuGraph>();
    graph->cpu->tasks = impl.cpu->endCapture();
    return Graph(std::move(graph));
  }
  const cuda::Driver &cu = *detail::cudaState(impl.device).cu;
  if (cuda::CUresult code = cu.cuStreamEndCapture(impl.cuStream, &graph->cuGraph))
    cuda::throwError("cuStreamEndCapture", code, "ending the capture of a stream");
  graph->gpuOperations = impl.capturedOperations;
  graph->checked = impl.capturedCheckedLaunch;
  if (cuda::CUresult code = cu.cuGraphInstantiate(&graph->cuGraphExec, graph->cuGraph, 0)) {
    detail::destroyGpuGraph(*graph);
    cuda::throwError("cuGraphInstantiateWithFlags", code, "instantiating the captured graph");
  }
  return Graph(std::move(graph));
}

bool Stream::capturing() const {
  return detail::checkedImpl(*this, "Stream::capturing").capturing;
}

Graph::Graph(std::unique_ptr<detail::GraphImpl> impl) : impl_(std::move(impl)) {}

Graph::~Graph() {
  if (impl_ && impl_->kind == DeviceKind::Cuda)
    detail::destroyGpuGraph(*impl_); // a launched graph's work still completes
}

Graph::Graph(Graph &&) noexcept = default;
Graph &Graph::operator=(Graph &&other) noexcept {
  if (this != &other) {
    Graph old(std::move(*this));
    impl_ = std::move(other.impl_);
  }
  return *this;
}

void Graph::launch(Stream &stream) {
  detail::GraphImpl &graph = detail::checkedGraphImpl(*this, "Graph::launch");
  detail::StreamImpl &impl = detail::checkedImpl(stream, "Graph::launch");
  if (impl.device != graph.device)
    detail::rejectOtherDevice("Graph::launch", "the stream", impl.device, graph.device);
  if (impl.capturing)
    throw Error("pyk: Graph::launch: the stream is capturing a graph; launch the graph before begin_capture() or "
                "after end_capture()");
  if (graph.kind == DeviceKind::Cpu) {
    impl.cpu->submit([cpu = graph.cpu] {
      std::lock_guard lock(cpu->running);
      for (const detail::CpuStream::Task &task : cpu->tasks)
        task();
    });
    return;
  }
  const cuda::Driver &cu = *detail::cudaState(graph.device).cu;
  cuda::check(cu.cuGraphLaunch(graph.cuGraphExec, impl.cuStream), "cuGraphLaunch");
  if (graph.checked)
    (void)detail::gpuCheckRecord(graph.device); // the next synchronisation reads it
}

std::size_t Graph::size() const {
  const detail::GraphImpl &graph = detail::checkedGraphImpl(*this, "Graph::size");
  return graph.kind == DeviceKind::Cpu ? graph.cpu->tasks.size() : graph.gpuOperations;
}

} // namespace pyk
