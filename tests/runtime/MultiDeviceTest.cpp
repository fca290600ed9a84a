//===- MultiDeviceTest.cpp - Several devices: selection, ownership, copies -===//
//
// ctest runs these on one CPU device, on four (PYK_CPU_DEVICES=4) and on the
// fake driver's two GPUs; a test that needs two devices skips, saying so,
// with one. On the fake driver a stream, event or function used in another
// GPU's context fails as on a GPU, so the launches and copies here also
// check that the runtime makes the right context current.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <numeric>
#include <thread>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class Devices : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    if (IsSkipped())
      return;
    set_device(0);
  }
  void TearDown() override {
    if (!IsSkipped())
      set_device(0);
  }
};

/// Skips the test unless there are at least two devices.
#define REQUIRE_TWO_DEVICES()                                                                                          \
  if (device_count() < 2)                                                                                              \
  GTEST_SKIP() << "needs two devices; this process has " << device_count()                                             \
               << " (ctest runs it with PYK_CPU_DEVICES=4 and on the fake driver's two GPUs)"

std::vector<float> iota(int n, float from = 0) {
  std::vector<float> values(static_cast<std::size_t>(n));
  std::iota(values.begin(), values.end(), from);
  return values;
}

TEST_F(Devices, EachDeviceDescribesItself) {
  ASSERT_GE(device_count(), 1);
  for (int index = 0; index < device_count(); ++index) {
    const Device described = device(index);
    EXPECT_EQ(described.index, index);
    EXPECT_EQ(described.kind, current_device());
    EXPECT_FALSE(described.name.empty());
    EXPECT_GT(described.memory_bytes, 0u);
    if (described.kind == DeviceKind::Cuda) {
      EXPECT_GT(described.compute_major, 0);
    } else {
      EXPECT_EQ(described.compute_major, 0);
    }
    set_device(index);
    EXPECT_EQ(device_name(), described.name);
  }
  if (device_count() > 1 && onCpu()) {
    EXPECT_THAT(device(1).name, StartsWith("CPU device 1 ("));
  }
}

TEST_F(Devices, ADeviceThatDoesNotExistIsADeviceError) {
  const int count = device_count();
  try {
    set_device(count);
    FAIL() << "made a device that does not exist current";
  } catch (const DeviceError &error) {
    EXPECT_THAT(error.what(), StartsWith("pyk: pyk::set_device(" + std::to_string(count) + "): there is no device " +
                                         std::to_string(count) + "; there "));
  }
  EXPECT_EQ(get_device(), 0);
  EXPECT_THROW(device(-1), DeviceError);
  EXPECT_THROW(DeviceScope{count}, DeviceError);
  EXPECT_EQ(get_device(), 0);
}

TEST_F(Devices, AScopeMakesADeviceCurrentUntilItEnds) {
  const int last = device_count() - 1;
  {
    DeviceScope on(last);
    EXPECT_EQ(get_device(), last);
    {
      DeviceScope back(0);
      EXPECT_EQ(get_device(), 0);
    }
    EXPECT_EQ(get_device(), last);
  }
  EXPECT_EQ(get_device(), 0);
}

TEST_F(Devices, EachThreadHasItsOwnCurrentDevice) {
  REQUIRE_TWO_DEVICES();
  set_device(1);
  int seen = -1;
  std::thread([&] { seen = get_device(); }).join();
  EXPECT_EQ(seen, 0);
  EXPECT_EQ(get_device(), 1);
}

TEST_F(Devices, EachDeviceRunsItsOwnArraysAndLaunches) {
  // Every device at once: arrays and streams made on each, launches on
  // each, results read back after the others' work.
  std::vector<DeviceArray<float, 1>> sums;
  std::vector<Stream> streams;
  for (int index = 0; index < device_count(); ++index) {
    DeviceScope on(index);
    auto x = to_device(iota(1000, static_cast<float>(index)));
    auto out = device_empty_like(x);
    EXPECT_EQ(x.device(), index);
    EXPECT_EQ(out.device(), index);
    streams.emplace_back();
    vectorAdd({4, 256, 0, &streams.back()}, x, x, out);
    sums.push_back(std::move(out));
  }
  for (int index = 0; index < device_count(); ++index) {
    std::vector<float> back(1000);
    sums[static_cast<std::size_t>(index)].copy_to_host(back); // from any current device
    EXPECT_EQ(back[999], 2.0f * (999 + index)) << "device " << index;
    DeviceScope on(index);
    streams[static_cast<std::size_t>(index)].synchronize();
    synchronize();
  }
}

TEST_F(Devices, ALaunchWithAnotherDevicesArrayIsADeviceError) {
  REQUIRE_TWO_DEVICES();
  auto x = to_device(iota(8));
  set_device(1);
  auto out = device_empty<float>({8});
  try {
    vectorAdd({1, 8}, x, x, out);
    FAIL() << "launched on device 1 with an array of device 0";
  } catch (const DeviceError &error) {
    EXPECT_EQ(std::string(error.what()),
              "pyk: cannot launch vector_add (from test_kernels.cu) on device 1: its array argument 'x' is on device 0 "
              "(" + device(0).name + "), not on device 1 (" + device(1).name +
                  "); make its device current (pyk::set_device, pyk::DeviceScope) or copy it there (pyk::copy)");
  }
  // A view of memory pyk did not allocate says no device and is not checked.
  ArrayView<float, 1> foreign(out.data(), {8});
  EXPECT_EQ(foreign.device(), -1);
  vectorAdd({1, 8}, foreign, foreign, out);
  synchronize();
}

TEST_F(Devices, ALaunchOnAnotherDevicesStreamIsADeviceError) {
  REQUIRE_TWO_DEVICES();
  Stream onZero;
  set_device(1);
  auto x = to_device(iota(8));
  auto out = device_empty_like(x);
  try {
    vectorAdd({1, 8, 0, &onZero}, x, x, out);
    FAIL() << "launched on device 1 on a stream of device 0";
  } catch (const DeviceError &error) {
    EXPECT_THAT(error.what(), StartsWith("pyk: cannot launch vector_add (from test_kernels.cu) on device 1: its "
                                         "stream is on device 0 ("));
  }
}

TEST_F(Devices, ArraysAreCopiedBetweenDevices) {
  REQUIRE_TWO_DEVICES();
  auto source = to_device(iota(300, 1), {10, 30});
  set_device(1);
  auto target = device_empty<float>({10, 30});
  copy(target, source);
  std::vector<float> back(300);
  target.copy_to_host(back);
  EXPECT_EQ(back, iota(300, 1));

  // On a stream of either device, asynchronously.
  auto again = device_empty<float>({10, 30});
  Stream onOne;
  copy(again, source, &onOne);
  again.copy_to_host_async(back, onOne);
  onOne.synchronize();
  EXPECT_EQ(back, iota(300, 1));
  set_device(0);
  Stream onZero;
  copy(source, again, &onZero);
  onZero.synchronize();
}

TEST_F(Devices, AStreamOfNeitherDeviceIsADeviceError) {
  REQUIRE_TWO_DEVICES();
  Stream onZero;
  set_device(1);
  auto a = to_device(iota(4));
  auto b = device_empty_like(a);
  try {
    copy(b, a, &onZero);
    FAIL() << "copied within device 1 on a stream of device 0";
  } catch (const DeviceError &error) {
    EXPECT_THAT(error.what(), StartsWith("pyk: pyk::copy: the stream is on device 0 ("));
  }
  std::vector<float> host(4);
  EXPECT_THROW(a.copy_to_host_async(host, onZero), DeviceError);
}

TEST_F(Devices, AnEventMarksOnlyItsOwnDevicesStreams) {
  REQUIRE_TWO_DEVICES();
  Event onZero;
  set_device(1);
  Stream onOne;
  try {
    onZero.record(&onOne);
    FAIL() << "recorded an event of device 0 on a stream of device 1";
  } catch (const DeviceError &error) {
    EXPECT_THAT(error.what(), HasSubstr("Event::record: the stream is on device 1"));
  }
  // Its own device's default stream, and waiting for it, with another
  // device current.
  onZero.record();
  onZero.synchronize();
  Event start, end;
  start.record(&onOne);
  end.record(&onOne);
  end.synchronize();
  EXPECT_GE(end.elapsed_ms(start), 0.0f);
  EXPECT_THROW((void)end.elapsed_ms(onZero), DeviceError);
}

TEST_F(Devices, AnArrayIsFreedOnItsOwnDevice) {
  REQUIRE_TWO_DEVICES();
  set_device(1);
  auto onOne = to_device(iota(5000));
  set_device(0);
  onOne = to_device(iota(10)); // frees device 1's array with device 0 current
  EXPECT_EQ(onOne.device(), 0);
  std::vector<float> back(10);
  onOne.copy_to_host(back);
  EXPECT_EQ(back, iota(10));
}

} // namespace
} // namespace pyk::test
