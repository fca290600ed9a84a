//===- GraphTest.cpp - Capturing a stream's work, and replaying it ---------===//
//
// Stream::begin_capture / end_capture and Graph::launch on the CPU device
// and on the fake driver, where a graph is the driver's: the launches it
// replays are not cuLaunchKernel calls, and their arguments are the
// driver's copies (the fake checks both).
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"
#include "fake_cuda/FakeCudaControl.h"

#include <gmock/gmock.h>

#include <atomic>
#include <cstring>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::HasSubstr;

/// The fake driver's counters, or null on the CPU device.
PykFakeCudaState *fakeState() {
  void *symbol = fakeDriverSymbol("pykFakeCudaState");
  if (!symbol)
    return nullptr;
  PykFakeCudaState *(*getState)();
  std::memcpy(&getState, &symbol, sizeof(symbol));
  return getState();
}

// failAtCpu (TestKernels.h) with its PTX parameters, so that a driver can
// capture it.
const detail::CheckSiteInfo checkSites[] = {{detail::CheckSiteInfo::Bounds, 3, 5, "x", 0}};
const detail::KernelModule checkedModule{
    "graph.pyk",
    ".visible .entry graph_fail_at(\n.param .u64 graph_fail_at_param_0,\n.param .u64 graph_fail_at_param_1,\n"
    ".param .u64 graph_fail_at_param_2\n)\n",
    nullptr,
    0,
    checkSites,
    1};
detail::KernelInfo failAtKernel{&checkedModule, "graph_fail_at", &failAtCpu, 1, nullptr, 0, /*checked=*/true};

class Graphs : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    if (IsSkipped())
      return;
    if (!onCpu() && !onFakeDriver())
      GTEST_SKIP() << "the hand-written kernels have CPU code only (the GPU benchmark replays graphs on a GPU)";
    if (onFakeDriver()) {
      ASSERT_TRUE(registerKernelWithFakeDriver("graph_fail_at", &failAtCpu));
    }
    fake = onFakeDriver() ? fakeState() : nullptr;
  }
  void TearDown() override {
    if (!IsSkipped())
      set_device(0);
  }

  void launchFailAt(std::int64_t failing, Stream &stream) {
    std::uint64_t checkSlots[2] = {};
    void *args[] = {&failing, &checkSlots[0], &checkSlots[1]};
    detail::launch(failAtKernel, {{1}, {64}, 0, &stream}, args);
  }

  PykFakeCudaState *fake = nullptr;
};

TEST_F(Graphs, ACapturedSequenceRunsOnlyWhenLaunchedAndAgainEachTime) {
  const int n = 256;
  std::vector<float> host(n, 1.0f);
  auto x = to_device(host);
  auto y = device_empty_like(x);
  Stream stream;
  const int launchesBefore = fake ? fake->launches.load() : 0;
  stream.begin_capture();
  EXPECT_TRUE(stream.capturing());
  scale({{n / 64}, {64}, 0, &stream}, 2.0f, x, y);  // y = 2x
  vectorAdd({{n / 64}, {64}, 0, &stream}, x, y, x); // x = x + y = 3x
  Graph graph = stream.end_capture();
  EXPECT_FALSE(stream.capturing());
  EXPECT_EQ(graph.size(), 2u);
  stream.synchronize();
  x.copy_to_host(host);
  EXPECT_EQ(host[0], 1.0f) << "the captured kernels ran during the capture";

  for (int replay = 0; replay < 3; ++replay)
    graph.launch(stream);
  stream.synchronize();
  x.copy_to_host(host);
  EXPECT_EQ(host[0], 27.0f); // 3 * 3 * 3
  EXPECT_EQ(host[n - 1], 27.0f);
  if (fake) {
    EXPECT_EQ(fake->launches.load(), launchesBefore) << "a replay called cuLaunchKernel instead of the graph";
    EXPECT_GE(fake->graphLaunches.load(), 3);
  }
}

TEST_F(Graphs, CopiesAreCapturedInOrderWithTheLaunches) {
  PinnedBuffer<float> input(64), output(64);
  auto x = device_empty<float>({64});
  auto y = device_empty<float>({64});
  Stream stream;
  stream.begin_capture();
  x.copy_from_host_async(input.data(), input.size(), stream);
  scale({{1}, {64}, 0, &stream}, 0.5f, x, y);
  y.copy_to_host_async(output.data(), output.size(), stream);
  Graph graph = stream.end_capture();
  EXPECT_EQ(graph.size(), 3u);
  for (float first : {8.0f, 20.0f}) {
    // Each replay reads the input as it is then, as a GPU's copy node does.
    for (std::size_t i = 0; i < input.size(); ++i)
      input.data()[i] = first + static_cast<float>(i);
    graph.launch(stream);
    stream.synchronize();
    EXPECT_EQ(output.data()[0], first / 2);
    EXPECT_EQ(output.data()[63], (first + 63) / 2);
  }
}

TEST_F(Graphs, TheDefaultStreamIsAnErrorWhileAStreamCaptures) {
  auto x = to_device(std::vector<float>(64, 1.0f));
  auto y = device_empty_like(x);
  std::vector<float> host(64);
  Stream stream;
  stream.begin_capture();
  scale({{1}, {64}, 0, &stream}, 2.0f, x, y);
  // Each waits for every stream, the capturing one too, which CUDA forbids.
  EXPECT_ANY_THROW(scale({1, 64}, 2.0f, x, y));
  EXPECT_ANY_THROW(x.copy_to_host(host));
  EXPECT_ANY_THROW(synchronize());
  if (onCpu()) {
    try {
      scale({1, 64}, 2.0f, x, y);
      FAIL() << "a default-stream launch ran during a capture";
    } catch (const Error &error) {
      EXPECT_THAT(error.what(), HasSubstr("a stream is capturing a graph (Stream::begin_capture)"));
    }
    EXPECT_NO_THROW((void)stream.end_capture());
    return;
  }
  // On a GPU the capture is over: the driver invalidated it.
  try {
    (void)stream.end_capture();
    FAIL() << "an invalidated capture made a graph";
  } catch (const CudaError &error) {
    EXPECT_THAT(error.what(), HasSubstr("CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"));
  }
  EXPECT_FALSE(stream.capturing());
}

TEST_F(Graphs, WhatACaptureCannotHoldIsRefused) {
  Stream stream;
  EXPECT_THROW((void)stream.end_capture(), Error) << "ended a capture that never began";
  stream.begin_capture();
  EXPECT_THROW(stream.begin_capture(), Error) << "began a capture twice";
  try {
    stream.synchronize();
    FAIL() << "synchronised a capturing stream";
  } catch (const Error &error) {
    EXPECT_THAT(error.what(), HasSubstr("Stream::synchronize: the stream is capturing a graph"));
  }
  Event event;
  EXPECT_THROW(event.record(&stream), Error);
  Graph empty = stream.end_capture();
  EXPECT_EQ(empty.size(), 0u);
  empty.launch(stream); // nothing to run
  stream.begin_capture();
  EXPECT_THROW(empty.launch(stream), Error) << "launched a graph into a capture";
  (void)stream.end_capture();
  stream.synchronize();
}

TEST_F(Graphs, AFailedCheckInAReplaySurfacesAtTheNextSynchronisation) {
  Stream stream;
  stream.begin_capture();
  launchFailAt(37, stream);
  Graph graph = stream.end_capture();
  graph.launch(stream);
  try {
    stream.synchronize();
    FAIL() << "the replay's failed check was not raised";
  } catch (const KernelError &error) {
    EXPECT_THAT(error.what(), HasSubstr("graph.pyk:3:5: index 37 out of bounds for axis 0 of 'x'"));
  }
  // The record was cleared, and a device-wide synchronisation finds it
  // clean (on a GPU, nothing is left to read after it): the next replay
  // fails again, on its own, and is read again.
  synchronize();
  graph.launch(stream);
  EXPECT_THROW(stream.synchronize(), KernelError);
}

TEST_F(Graphs, AGraphBelongsToItsDevice) {
  if (device_count() < 2)
    GTEST_SKIP() << "needs two devices; this process has " << device_count();
  Stream stream;
  stream.begin_capture();
  Graph graph = stream.end_capture();
  set_device(1);
  Stream other;
  EXPECT_THROW(graph.launch(other), DeviceError);
}

TEST_F(Graphs, MovedFromGraphsAndGraphsThatGoAreHandled) {
  const int liveBefore = fake ? fake->liveGraphs.load() : 0;
  {
    Stream stream;
    stream.begin_capture();
    Graph graph = stream.end_capture();
    Graph moved = std::move(graph);
    EXPECT_THROW(graph.launch(stream), Error); // NOLINT(bugprone-use-after-move): the moved-from state is tested
    EXPECT_THROW((void)graph.size(), Error);   // NOLINT(bugprone-use-after-move)
    moved.launch(stream);
    stream.synchronize();
    // A stream destroyed mid-capture drops what it captured.
    Stream abandoned;
    abandoned.begin_capture();
  }
  if (fake) {
    EXPECT_EQ(fake->liveGraphs.load(), liveBefore) << "a graph or executable graph was not destroyed";
  }
}

} // namespace
} // namespace pyk::test
