//===- StreamTest.cpp - Streams order their work; events time it ------------===//
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <numeric>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::HasSubstr;

std::vector<float> iota(std::size_t count, float first = 0) {
  std::vector<float> values(count);
  std::iota(values.begin(), values.end(), first);
  return values;
}

class Streams : public RuntimeTest {};

TEST_F(Streams, WorkOnAStreamRunsInOrder) {
  const std::size_t n = 4096;
  std::vector<float> x = iota(n), out(n);
  Stream stream;
  auto a = to_device_async(x, stream);
  auto b = device_empty_like(a);
  // a -> b -> a -> ...: each launch reads what the one before wrote.
  for (int step = 0; step < 10; ++step) {
    if (step % 2 == 0)
      scale({16, 256, 0, &stream}, 2.0f, a, b);
    else
      scale({16, 256, 0, &stream}, 0.5f, b, a);
  }
  scale({16, 256, 0, &stream}, 3.0f, a, b);
  b.copy_to_host_async(out, stream);
  stream.synchronize();
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 3.0f * x[i]) << "at " << i;
}

TEST_F(Streams, SeveralStreamsAtOnce) {
  const std::size_t n = 2048;
  std::vector<Stream> streams(4);
  std::vector<DeviceArray<float, 1>> inputs, outputs;
  std::vector<std::vector<float>> results(streams.size(), std::vector<float>(n));
  std::vector<float> x = iota(n);
  for (std::size_t s = 0; s < streams.size(); ++s) {
    inputs.push_back(to_device_async(x, streams[s]));
    outputs.push_back(device_empty_like(inputs.back()));
  }
  for (std::size_t s = 0; s < streams.size(); ++s) {
    scale({8, 256, 0, &streams[s]}, static_cast<float>(s + 1), inputs[s], outputs[s]);
    outputs[s].copy_to_host_async(results[s], streams[s]);
  }
  synchronize(); // waits for every stream
  for (std::size_t s = 0; s < streams.size(); ++s)
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(results[s][i], static_cast<float>(s + 1) * x[i]) << "stream " << s << " at " << i;
}

TEST_F(Streams, DefaultStreamCopyWaitsForStreamWork) {
  std::vector<float> x = iota(1000), out(1000);
  auto dx = to_device(x);
  auto dout = device_empty_like(dx);
  Stream stream;
  for (int i = 0; i < 5; ++i)
    scale({8, 128, 0, &stream}, 4.0f, dx, dout);
  dout.copy_to_host(out); // the default stream: after the stream's work
  EXPECT_EQ(out[999], 4.0f * 999);
}

TEST_F(Streams, DestroyingAStreamKeepsItsWork) {
  std::vector<float> x = iota(512), out(512);
  auto dx = to_device(x);
  auto dout = device_empty_like(dx);
  {
    Stream stream;
    scale({4, 128, 0, &stream}, -1.0f, dx, dout);
  }
  dout.copy_to_host(out);
  EXPECT_EQ(out[511], -511.0f);
}

TEST_F(Streams, EventsMeasureNonNegativeTime) {
  auto dx = to_device(iota(1 << 16));
  auto dout = device_empty_like(dx);
  Stream stream;
  Event start, end;
  start.record(&stream);
  scale({256, 256, 0, &stream}, 2.0f, dx, dout);
  end.record(&stream);
  end.synchronize();
  EXPECT_GE(end.elapsed_ms(start), 0.0f);

  Event defaultStart, defaultEnd;
  defaultStart.record();
  scale({256, 256}, 2.0f, dx, dout);
  defaultEnd.record();
  defaultEnd.synchronize();
  EXPECT_GE(defaultEnd.elapsed_ms(defaultStart), 0.0f);
}

TEST_F(Streams, ElapsedTimeOfAnUnrecordedEventIsAnError) {
  Event start, end;
  start.record();
  start.synchronize();
  EXPECT_THROW((void)end.elapsed_ms(start), Error);
  if (onCpu()) {
    try {
      (void)end.elapsed_ms(start);
    } catch (const Error &error) {
      EXPECT_STREQ(error.what(), "pyk: Event::elapsed_ms: the end event was never recorded; call record() on it first");
    }
  }
}

TEST_F(Streams, SynchronizingAnUnrecordedEventReturns) {
  Event event;
  event.synchronize();
}

TEST_F(Streams, MovedStreamsAndEvents) {
  Stream first;
  Stream second(std::move(first));
  EXPECT_EQ(first.impl(), nullptr); // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_NE(second.impl(), nullptr);
  try {
    first.synchronize();
    FAIL() << "synchronized a moved-from stream";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "pyk: Stream::synchronize: the stream was moved from; use the stream it was moved to");
  }
  Stream third;
  third = std::move(second);
  third.synchronize();

  Event event;
  Event moved(std::move(event));
  moved.record(&third);
  moved.synchronize();
  EXPECT_THROW(event.record(), Error); // NOLINT(bugprone-use-after-move)
  Event assigned;
  assigned = std::move(moved);
  assigned.synchronize();
}

TEST_F(Streams, MoveAssigningOverAStreamWithQueuedWork) {
  std::vector<float> x = iota(256), out(256);
  auto dx = to_device(x);
  auto dout = device_empty_like(dx);
  Stream busy;
  scale({2, 128, 0, &busy}, 5.0f, dx, dout);
  busy = Stream(); // the old stream's work still completes
  dout.copy_to_host(out);
  EXPECT_EQ(out[255], 5.0f * 255);
}

TEST_F(Streams, ArraysFreedWhileAStreamUsesThemAreFreedAfterIt) {
  std::vector<float> out(1000);
  auto dout = device_empty<float>({1000});
  Stream stream;
  {
    auto dx = to_device(iota(1000));
    scale({8, 128, 0, &stream}, 2.0f, dx, dout);
  } // frees dx: waits for the launch, as cuMemFree does
  stream.synchronize();
  dout.copy_to_host(out);
  EXPECT_EQ(out[999], 1998.0f);
}

} // namespace
} // namespace pyk::test
