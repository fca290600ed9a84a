//===- InteropTest.cpp - pyk with CUDA code of the program's own -----------===//
//
// Views of memory pyk did not allocate (external_view), the streams of the
// program's CUDA code (Stream::native, Stream::adopt), and pinned host
// memory for asynchronous copies (PinnedBuffer). What only a
// driver can show (an adopted stream is used and left alive) is in
// FakeDriverTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <numeric>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::StartsWith;

class Interop : public RuntimeTest {
protected:
  void TearDown() override {
    if (!IsSkipped())
      set_device(0);
  }
};

std::vector<float> iota(int n) {
  std::vector<float> values(static_cast<std::size_t>(n));
  std::iota(values.begin(), values.end(), 0.0f);
  return values;
}

TEST_F(Interop, AnExternalViewIsLaunchedLikeAnArray) {
  // Memory "of another library": here pyk's own, known only by its pointer.
  auto storage = to_device(iota(64));
  auto out = device_empty<float>({64});
  ArrayView<const float, 1> x = external_view(static_cast<const float *>(storage.data()), {64});
  EXPECT_EQ(x.device(), get_device());
  EXPECT_EQ(x.shape(0), 64);
  vectorAdd({1, 64}, x, x, external_view(out.data(), {64}, {1}));
  std::vector<float> back(64);
  out.copy_to_host(back);
  EXPECT_EQ(back[63], 126.0f);
}

TEST_F(Interop, AnExternalViewMustBeRowMajorAndContiguous) {
  auto storage = device_empty<float>({24});
  float *data = storage.data();
  EXPECT_EQ(external_view(data, {2, 3, 4}, {12, 4, 1}).size(), 24);
  // An axis of extent 1 may have any stride, and an empty array any strides.
  EXPECT_EQ(external_view(data, {1, 24}, {7, 1}).size(), 24);
  EXPECT_EQ(external_view(data, {0, 5}, {1, 1}).size(), 0);
  try {
    (void)external_view(data, {4, 6}, {1, 4});
    FAIL() << "viewed a column-major array";
  } catch (const ShapeError &error) {
    EXPECT_STREQ(error.what(), "pyk: pyk::external_view: strides {1, 4} (in elements) do not lay out an array of "
                               "shape {4, 6} row-major and contiguous, which needs strides {6, 1}; copy it into a "
                               "contiguous array first (pyk's kernels index arrays row-major)");
  }
  EXPECT_THROW((void)external_view(data, {12}, {2}), ShapeError);
  EXPECT_THROW((void)external_view(data, {-1}), ShapeError);
}

TEST_F(Interop, AnExternalViewBelongsToTheCurrentDevice) {
  if (device_count() < 2)
    GTEST_SKIP() << "needs two devices; this process has " << device_count();
  auto storage = to_device(iota(8));
  set_device(1);
  auto view = external_view(storage.data(), {8}); // claimed for device 1
  EXPECT_EQ(view.device(), 1);
  set_device(0);
  auto out = device_empty<float>({8});
  EXPECT_THROW(vectorAdd({1, 8}, view, view, out), DeviceError);
}

TEST_F(Interop, AStreamsNativeHandleIsItsCudaStream) {
  Stream stream;
  if (onCpu()) {
    EXPECT_EQ(stream.native(), nullptr);
    try {
      (void)Stream::adopt(&stream);
      FAIL() << "adopted a CUDA stream on the CPU device";
    } catch (const DeviceError &error) {
      EXPECT_THAT(error.what(), StartsWith("pyk: Stream::adopt: CPU device"));
    }
    return;
  }
  EXPECT_NE(stream.native(), nullptr);
  EXPECT_THROW((void)Stream::adopt(nullptr), DeviceError);
  // A Stream of the same CUDA stream queues on it, and leaves it to its owner.
  {
    Stream same = Stream::adopt(stream.native());
    EXPECT_EQ(same.native(), stream.native());
    auto x = to_device(iota(16));
    auto out = device_empty_like(x);
    vectorAdd({1, 16, 0, &same}, x, x, out);
    same.synchronize();
  }
  stream.synchronize();
}

TEST_F(Interop, APinnedBufferRoundTripsAsynchronously) {
  PinnedBuffer<float> host(1000);
  EXPECT_EQ(host.size(), 1000u);
  EXPECT_EQ(host[999], 0.0f) << "value-initialised";
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<float>(i);
  Stream stream;
  auto x = device_empty<float>({1000});
  auto out = device_empty_like(x);
  x.copy_from_host_async(host.data(), host.size(), stream);
  vectorAdd({4, 256, 0, &stream}, x, x, out);
  PinnedBuffer<float> back(1000);
  out.copy_to_host_async(back.data(), back.size(), stream);
  stream.synchronize();
  EXPECT_EQ(back[999], 1998.0f);
  EXPECT_THROW(out.copy_to_host_async(back.data(), 999, stream), ShapeError);

  PinnedBuffer<float> moved = std::move(back);
  EXPECT_EQ(back.data(), nullptr);
  EXPECT_EQ(moved[1], 2.0f);
  PinnedBuffer<double> none(0);
  EXPECT_EQ(none.data(), nullptr);
}

} // namespace
} // namespace pyk::test
