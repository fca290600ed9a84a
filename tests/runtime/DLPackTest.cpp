//===- DLPackTest.cpp - DLPack tensors into and out of pyk ------------------===//
//
// Tensors made by hand, as another library would hand them over (its own
// deleter, which counts its calls), and pyk's own arrays exported and taken
// back. Each runs on the CPU device (host memory, kDLCPU) and on the fake
// driver (GPU memory, kDLCUDA).
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "pyk/DLPack.h"

#include <gmock/gmock.h>

#include <numeric>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::StartsWith;

std::vector<float> iota(int n) {
  std::vector<float> values(static_cast<std::size_t>(n));
  std::iota(values.begin(), values.end(), 0.0f);
  return values;
}

/// A tensor of another library: memory it owns (here a pyk array, kept by
/// the test), its own shape and strides, and a deleter that counts.
struct ForeignTensor {
  DLManagedTensor managed{};
  std::vector<std::int64_t> shape, strides;
  int deleted = 0;

  ForeignTensor(void *data, DLDevice device, DLDataType type, std::vector<std::int64_t> shape_,
                std::vector<std::int64_t> strides_ = {})
      : shape(std::move(shape_)), strides(std::move(strides_)) {
    DLTensor &t = managed.dl_tensor;
    t.data = data;
    t.device = device;
    t.ndim = static_cast<int>(shape.size());
    t.dtype = type;
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor *self) { ++static_cast<ForeignTensor *>(self->manager_ctx)->deleted; };
  }
};

class DLPack : public RuntimeTest {
protected:
  void TearDown() override {
    if (!IsSkipped())
      set_device(0);
  }
  /// Where the current device's memory is, as DLPack says it.
  DLDevice here() const { return onCpu() ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, get_device()}; }
  static constexpr DLDataType float32{kDLFloat, 32, 1};
};

TEST_F(DLPack, AnExportedArrayDescribesItself) {
  auto array = to_device(iota(6), {2, 3});
  const float *data = array.data();
  DLManagedTensor *tensor = to_dlpack(std::move(array));
  const DLTensor &t = tensor->dl_tensor;
  EXPECT_EQ(t.data, data);
  EXPECT_EQ(t.device.device_type, here().device_type);
  EXPECT_EQ(t.device.device_id, here().device_id);
  EXPECT_EQ(t.ndim, 2);
  EXPECT_EQ(t.shape[0], 2);
  EXPECT_EQ(t.shape[1], 3);
  EXPECT_EQ(t.strides[0], 3);
  EXPECT_EQ(t.strides[1], 1);
  EXPECT_EQ(t.byte_offset, 0u);
  EXPECT_EQ(t.dtype.code, kDLFloat);
  EXPECT_EQ(t.dtype.bits, 32);
  EXPECT_EQ(t.dtype.lanes, 1);
  EXPECT_EQ(array.data(), nullptr) << "the tensor owns the array now";
  tensor->deleter(tensor); // frees it (valgrind and ASan check that it does, once)
}

TEST_F(DLPack, AnArrayTakenBackIsLaunchedAndFreedWithIt) {
  auto out = device_empty<float>({64});
  {
    DLPackArray<const float, 1> x = from_dlpack<const float, 1>(to_dlpack(to_device(iota(64))));
    EXPECT_EQ(x.device(), get_device());
    EXPECT_EQ(x.shape()[0], 64);
    vectorAdd({1, 64}, x.view(), x.view(), out);
    synchronize();
  }
  std::vector<float> back(64);
  out.copy_to_host(back);
  EXPECT_EQ(back[63], 126.0f);
}

TEST_F(DLPack, AnotherLibrarysTensorIsViewedAtItsOffsetAndDeletedOnce) {
  auto memory = to_device(iota(16));
  ForeignTensor foreign(memory.data(), here(), float32, {3, 4});
  foreign.managed.dl_tensor.byte_offset = 4 * sizeof(float);
  {
    auto x = from_dlpack<float, 2>(&foreign.managed);
    EXPECT_EQ(x.data(), memory.data() + 4);
    EXPECT_EQ(x.size(), 12);
    auto moved = std::move(x);
    EXPECT_EQ(foreign.deleted, 0);
  }
  EXPECT_EQ(foreign.deleted, 1);
}

TEST_F(DLPack, ATensorOfAnotherTypeOrRankIsRejectedAndDeleted) {
  auto memory = device_empty<std::int32_t>({8});
  ForeignTensor ints(memory.data(), here(), DLDataType{kDLInt, 32, 1}, {8});
  try {
    (void)from_dlpack<float, 1>(&ints.managed);
    FAIL() << "took int32 as float32";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "pyk::from_dlpack: the tensor holds int32, not the float32 asked for");
  }
  EXPECT_EQ(ints.deleted, 1);
  ForeignTensor flat(memory.data(), here(), DLDataType{kDLInt, 32, 1}, {8});
  EXPECT_THROW((void)(from_dlpack<std::int32_t, 2>(&flat.managed)), ShapeError);
  EXPECT_EQ(flat.deleted, 1);
  ForeignTensor vectors(memory.data(), here(), DLDataType{kDLFloat, 32, 4}, {2});
  try {
    (void)from_dlpack<float, 1>(&vectors.managed);
    FAIL() << "took float4 vectors as float32";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "pyk::from_dlpack: the tensor holds type code 2 with 32 bits and 4 lanes, not the "
                               "float32 asked for");
  }
}

TEST_F(DLPack, StridesMustBeRowMajorAndContiguous) {
  auto memory = device_empty<float>({24});
  ForeignTensor columnMajor(memory.data(), here(), float32, {4, 6}, {1, 4});
  EXPECT_THROW((void)(from_dlpack<float, 2>(&columnMajor.managed)), ShapeError);
  EXPECT_EQ(columnMajor.deleted, 1);
  ForeignTensor rowMajor(memory.data(), here(), float32, {4, 6}, {6, 1});
  EXPECT_EQ((from_dlpack<float, 2>(&rowMajor.managed).size()), 24);
  EXPECT_EQ(rowMajor.deleted, 1);
}

TEST_F(DLPack, MemoryThePyksDevicesCannotUseIsADeviceError) {
  auto memory = device_empty<float>({4});
  const DLDevice elsewhere = onCpu() ? DLDevice{kDLCUDA, 0} : DLDevice{kDLCPU, 0};
  ForeignTensor tensor(memory.data(), elsewhere, float32, {4});
  try {
    (void)from_dlpack<float, 1>(&tensor.managed);
    FAIL() << "took memory the device cannot use";
  } catch (const DeviceError &error) {
    EXPECT_THAT(error.what(), StartsWith("pyk::from_dlpack: the tensor's memory is on DLPack device type "));
  }
  EXPECT_EQ(tensor.deleted, 1);
}

TEST_F(DLPack, ATensorOnAnotherGpuBelongsToIt) {
  if (onCpu() || device_count() < 2)
    GTEST_SKIP() << "needs two GPUs (the fake driver has two)";
  set_device(1);
  auto memory = to_device(iota(8));
  set_device(0);
  ForeignTensor onOne(memory.data(), DLDevice{kDLCUDA, 1}, float32, {8});
  auto x = from_dlpack<float, 1>(&onOne.managed);
  EXPECT_EQ(x.device(), 1);
  auto out = device_empty<float>({8});
  EXPECT_THROW(vectorAdd({1, 8}, x.view(), x.view(), out), DeviceError);
  ForeignTensor unknown(memory.data(), DLDevice{kDLCUDA, 7}, float32, {8});
  EXPECT_THROW((void)(from_dlpack<float, 1>(&unknown.managed)), DeviceError);
}

} // namespace
} // namespace pyk::test
