//===- ArrayTest.cpp - Device arrays: allocation, shapes, copies, moves ----===//
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Wrong element types, ranks and constness are compile errors.
static_assert(std::is_convertible_v<DeviceArray<float, 1> &, ArrayView<float, 1>>);
static_assert(std::is_convertible_v<DeviceArray<float, 1> &, ArrayView<const float, 1>>);
static_assert(std::is_convertible_v<const DeviceArray<float, 1> &, ArrayView<const float, 1>>);
static_assert(!std::is_convertible_v<const DeviceArray<float, 1> &, ArrayView<float, 1>>);
static_assert(!std::is_convertible_v<DeviceArray<double, 1> &, ArrayView<float, 1>>);
static_assert(!std::is_convertible_v<DeviceArray<float, 2> &, ArrayView<float, 1>>);
static_assert(std::is_convertible_v<ArrayView<float, 2>, ArrayView<const float, 2>>);
static_assert(!std::is_convertible_v<ArrayView<const float, 2>, ArrayView<float, 2>>);
static_assert(!std::is_copy_constructible_v<DeviceArray<float, 1>>);
// A view of a temporary array would dangle; a launch's argument is freed
// only after the launch statement, so launches take temporaries.
static_assert(!std::is_convertible_v<DeviceArray<float, 1> &&, ArrayView<const float, 1>>);
static_assert(!std::is_constructible_v<ArrayView<const float, 1>, DeviceArray<float, 1> &&>);
static_assert(!std::is_constructible_v<ArrayView<const float, 1>, const DeviceArray<float, 1> &&>);
static_assert(std::is_convertible_v<DeviceArray<float, 1> &&, detail::ArrayArgument<const float, 1>>);
static_assert(std::is_convertible_v<DeviceArray<float, 1> &&, detail::ArrayArgument<float, 1>>);
static_assert(std::is_convertible_v<DeviceArray<float, 1> &, detail::ArrayArgument<float, 1>>);
static_assert(std::is_convertible_v<const DeviceArray<float, 1> &, detail::ArrayArgument<const float, 1>>);
static_assert(!std::is_convertible_v<const DeviceArray<float, 1> &, detail::ArrayArgument<float, 1>>);
static_assert(!std::is_convertible_v<DeviceArray<double, 1> &&, detail::ArrayArgument<const float, 1>>);
static_assert(!std::is_convertible_v<DeviceArray<float, 2> &, detail::ArrayArgument<float, 1>>);
// An asynchronous copy from a temporary host vector would read it after it
// is freed: it does not compile.
template <typename Host, typename = void> constexpr bool copiesAsyncFrom = false;
template <typename Host>
constexpr bool copiesAsyncFrom<Host, std::void_t<decltype(to_device_async(std::declval<Host>(), std::declval<Stream &>())),
                                                 decltype(std::declval<DeviceArray<float, 1> &>().copy_from_host_async(
                                                     std::declval<Host>(), std::declval<Stream &>()))>> = true;
static_assert(copiesAsyncFrom<const std::vector<float> &>);
static_assert(copiesAsyncFrom<std::vector<float> &>);
static_assert(!copiesAsyncFrom<std::vector<float> &&>);
static_assert(std::is_convertible_v<ArrayView<float, 1>, detail::ArrayArgument<const float, 1>>);
static_assert(!std::is_convertible_v<ArrayView<const float, 1>, detail::ArrayArgument<float, 1>>);
static_assert(!std::is_copy_constructible_v<detail::ArrayArgument<float, 1>>);
static_assert(std::is_nothrow_move_constructible_v<DeviceArray<float, 1>>);

std::vector<float> iota(std::size_t count, float first = 1) {
  std::vector<float> values(count);
  std::iota(values.begin(), values.end(), first);
  return values;
}

class Arrays : public RuntimeTest {};

TEST_F(Arrays, OneDimensionalArrayHasItsShapeAndSize) {
  auto array = device_empty<float>({1000});
  EXPECT_EQ(array.rank, 1);
  EXPECT_EQ(array.shape(), (std::array<std::int64_t, 1>{1000}));
  EXPECT_EQ(array.shape(0), 1000);
  EXPECT_EQ(array.size(), 1000);
  EXPECT_EQ(array.bytes(), 4000u);
  EXPECT_NE(array.data(), nullptr);
}

TEST_F(Arrays, TwoAndThreeDimensionalArraysHaveTheirShapeAndSize) {
  auto matrix = device_empty<double>({3, 5});
  EXPECT_EQ(matrix.rank, 2);
  EXPECT_EQ(matrix.shape(), (std::array<std::int64_t, 2>{3, 5}));
  EXPECT_EQ(matrix.size(), 15);
  EXPECT_EQ(matrix.bytes(), 15 * sizeof(double));

  auto cube = device_empty<std::int16_t>({2, 3, 4});
  EXPECT_EQ(cube.rank, 3);
  EXPECT_EQ(cube.shape(2), 4);
  EXPECT_EQ(cube.size(), 24);
  EXPECT_EQ(cube.bytes(), 48u);
}

TEST_F(Arrays, ShapesComeFromAnyIntegerType) {
  const std::size_t rows = 3, cols = 4;
  const int depth = 2;
  std::vector<float> host(rows * cols);
  std::iota(host.begin(), host.end(), 0.0f);
  auto matrix = pyk::to_device(host, {rows, cols});
  static_assert(decltype(matrix)::rank == 2);
  EXPECT_EQ(matrix.shape(0), 3);
  EXPECT_EQ(matrix.shape(1), 4);
  auto cube = pyk::device_empty<double>({rows, cols, depth});
  static_assert(decltype(cube)::rank == 3);
  EXPECT_EQ(cube.size(), 24);
  EXPECT_THROW(pyk::device_empty<float>({-1}), pyk::ShapeError);
  EXPECT_THROW(pyk::to_device(host, {rows, rows}), pyk::ShapeError) << "12 values do not fill a 3 x 3 array";
}

TEST_F(Arrays, StorageIsAlignedTo256Bytes) {
  for (std::int64_t count : {1, 3, 255, 1000, 4096, 5000, 65537}) {
    auto array = device_empty<char>({count});
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(array.data()) % 256, 0u) << count << " bytes";
  }
}

TEST_F(Arrays, EmptyArrayHasNoStorageAndCopiesNothing) {
  auto empty = device_empty<float>({0, 7});
  EXPECT_EQ(empty.size(), 0);
  EXPECT_EQ(empty.data(), nullptr);
  std::vector<float> host;
  empty.copy_to_host(host);
  empty.copy_from_host(host);
  auto fromEmpty = to_device(std::vector<float>{});
  EXPECT_EQ(fromEmpty.size(), 0);
}

TEST_F(Arrays, NegativeExtentIsAShapeError) {
  try {
    auto array = device_empty<float>({4, -2});
    FAIL() << "no ShapeError";
  } catch (const ShapeError &error) {
    EXPECT_STREQ(error.what(),
                 "pyk: device_empty: the shape {4, -2} has a negative extent; array extents must be non-negative");
  }
}

/// The message of the ShapeError that `make` throws.
template <typename Make> std::string shapeError(Make make) {
  try {
    make();
    ADD_FAILURE() << "no ShapeError";
  } catch (const ShapeError &error) {
    return error.what();
  }
  return "";
}

TEST_F(Arrays, ShapesWhoseSizeOverflowsAreShapeErrors) {
  constexpr std::int64_t twoTo62 = std::int64_t{1} << 62, twoTo32 = std::int64_t{1} << 32;
  // 2^62 floats are 2^64 bytes, which wrapped to 0 (a null buffer).
  EXPECT_EQ(shapeError([] { device_empty<float>({twoTo62}); }),
            "pyk: device_empty: the shape {4611686018427387904} of 4-byte elements has more bytes than a 64-bit "
            "size holds");
  // Wrapped to 256 bytes: a kernel would write far past the buffer.
  EXPECT_THAT(shapeError([] { device_empty<float>({twoTo62 + 64}); }),
              HasSubstr("device_empty: the shape {4611686018427387968} of 4-byte elements has more bytes"));
  // 2^64 elements, which wrapped to 0.
  EXPECT_EQ(shapeError([] {
              device_empty<char>({twoTo32, twoTo32});
            }),
            "pyk: device_empty: the shape {4294967296, 4294967296} has more elements than a 64-bit size holds");
  EXPECT_THAT(shapeError([] {
                device_empty<double>({twoTo32, twoTo32 / 2, 2});
              }),
              HasSubstr("the shape {4294967296, 2147483648, 2} has more elements"));
  EXPECT_THAT(shapeError([] {
                to_device(std::vector<float>(4), {twoTo32, twoTo32});
              }),
              HasSubstr("pyk: to_device: the shape {4294967296, 4294967296} has more elements"));
  EXPECT_THAT(shapeError([] {
                ArrayView<float, 2>(nullptr, {twoTo32, twoTo32}).size();
              }),
              HasSubstr("pyk: size(): the shape {4294967296, 4294967296} has more elements"));
}

TEST_F(Arrays, OneDimensionalRoundTrip) {
  std::vector<float> host = iota(100'003);
  auto array = to_device(host);
  EXPECT_EQ(array.size(), 100'003);
  std::vector<float> back(host.size());
  array.copy_to_host(back);
  EXPECT_EQ(back, host);
}

TEST_F(Arrays, TwoAndThreeDimensionalRoundTrips) {
  std::vector<float> host = iota(6 * 7);
  auto matrix = to_device(host, {6, 7});
  EXPECT_EQ(matrix.shape(), (std::array<std::int64_t, 2>{6, 7}));
  std::vector<float> back(host.size());
  matrix.copy_to_host(back);
  EXPECT_EQ(back, host);

  std::vector<int> cubeHost(2 * 3 * 5);
  std::iota(cubeHost.begin(), cubeHost.end(), -10);
  auto cube = to_device(cubeHost, {2, 3, 5});
  EXPECT_EQ(cube.shape(), (std::array<std::int64_t, 3>{2, 3, 5}));
  std::vector<int> cubeBack(cubeHost.size());
  cube.copy_to_host(cubeBack.data(), cubeBack.size());
  EXPECT_EQ(cubeBack, cubeHost);
}

TEST_F(Arrays, CopyFromHostReplacesTheContents) {
  auto array = to_device(iota(10));
  array.copy_from_host(iota(10, 100));
  std::vector<float> back(10);
  array.copy_to_host(back);
  EXPECT_EQ(back, iota(10, 100));
}

TEST_F(Arrays, CopyToHostBufferOfWrongSizeIsAShapeError) {
  auto array = device_empty<float>({10});
  std::vector<float> tooSmall(9);
  try {
    array.copy_to_host(tooSmall);
    FAIL() << "no ShapeError";
  } catch (const ShapeError &error) {
    EXPECT_STREQ(error.what(), "pyk: copy_to_host: the host buffer holds 9 elements but the device array holds 10; "
                               "resize the host buffer to match");
  }
  std::vector<float> tooLarge(11);
  EXPECT_THROW(array.copy_to_host(tooLarge), ShapeError);
}

TEST_F(Arrays, ToDeviceWithAShapeOfAnotherSizeIsAShapeError) {
  try {
    auto matrix = to_device(iota(5), {2, 3});
    FAIL() << "no ShapeError";
  } catch (const ShapeError &error) {
    EXPECT_STREQ(error.what(), "pyk: to_device: the host vector holds 5 elements but the shape {2, 3} holds 6; give "
                               "a shape with as many elements as the vector");
  }
}

TEST_F(Arrays, MoveConstructionLeavesTheSourceEmpty) {
  auto source = to_device(iota(16));
  const float *storage = source.data();
  DeviceArray<float, 1> target(std::move(source));
  EXPECT_EQ(target.data(), storage);
  EXPECT_EQ(target.size(), 16);
  EXPECT_EQ(source.data(), nullptr); // NOLINT(bugprone-use-after-move): moved-from state is specified
  EXPECT_EQ(source.size(), 0);
  std::vector<float> back(16);
  target.copy_to_host(back);
  EXPECT_EQ(back, iota(16));
}

TEST_F(Arrays, MoveAssignmentReleasesTheOldStorage) {
  auto a = to_device(iota(8));
  auto b = to_device(iota(4, 50));
  const float *bStorage = b.data();
  a = std::move(b);
  EXPECT_EQ(a.data(), bStorage);
  EXPECT_EQ(a.size(), 4);
  EXPECT_EQ(b.data(), nullptr); // NOLINT(bugprone-use-after-move)
  b = to_device(iota(2));       // a moved-from array can be assigned again
  EXPECT_EQ(b.size(), 2);
  std::vector<float> back(2);
  b.copy_to_host(back);
  EXPECT_EQ(back, iota(2));
}

TEST_F(Arrays, UsingAMovedFromArrayIsAnError) {
  auto source = to_device(iota(4));
  auto target = std::move(source);
  std::vector<float> none;
  const std::string movedFrom = ": the array was moved from; use the array it was moved to";
  // NOLINTBEGIN(bugprone-use-after-move): the misuse under test
  try {
    source.copy_to_host(none); // sizes match (0), but it is no longer an array
    FAIL() << "no Error";
  } catch (const Error &error) {
    EXPECT_EQ(error.what(), "pyk: copy_to_host" + movedFrom);
  }
  EXPECT_THROW(source.copy_from_host(none), Error);
  EXPECT_THROW(source.view(), Error);
  try {
    ArrayView<const float, 1> view = source;
    (void)view;
    FAIL() << "no Error";
  } catch (const Error &error) {
    EXPECT_EQ(error.what(), "pyk: an ArrayView of a DeviceArray" + movedFrom);
  }
  // NOLINTEND(bugprone-use-after-move)
  auto empty = device_empty<float>({0}); // an empty array is one
  empty.copy_to_host(none);
  EXPECT_EQ(empty.view().data(), nullptr);
}

TEST_F(Arrays, DeviceEmptyLikeHasTheSameShapeAndItsOwnStorage) {
  auto like = device_empty<float>({4, 6});
  auto other = device_empty_like(like);
  static_assert(std::is_same_v<decltype(other), DeviceArray<float, 2>>);
  EXPECT_EQ(other.shape(), like.shape());
  EXPECT_NE(other.data(), like.data());
}

TEST_F(Arrays, DeviceToDeviceCopy) {
  auto from = to_device(iota(33));
  auto to = device_empty_like(from);
  copy(to, from);
  std::vector<float> back(33);
  to.copy_to_host(back);
  EXPECT_EQ(back, iota(33));

  Stream stream;
  auto later = device_empty_like(from);
  copy(later, from, &stream);
  later.copy_to_host_async(back, stream);
  stream.synchronize();
  EXPECT_EQ(back, iota(33));
}

TEST_F(Arrays, CopyingBetweenArraysOfTwoShapesIsAShapeError) {
  auto from = to_device(iota(6), {2, 3});
  auto to = device_empty<float>({3, 2});
  try {
    copy(to, from);
    FAIL() << "copied a 2x3 array into a 3x2 one";
  } catch (const ShapeError &error) {
    EXPECT_STREQ(error.what(), "pyk::copy: the source array's shape is {2, 3} but the target's is {3, 2}; copy "
                               "between arrays of one shape");
  }
}

TEST_F(Arrays, ViewsCarryTheDataPointerAndShape) {
  auto array = device_empty<float>({3, 4});
  ArrayView<float, 2> view = array;
  ArrayView<const float, 2> readOnly = view;
  EXPECT_EQ(view.data(), array.data());
  EXPECT_EQ(readOnly.data(), array.data());
  EXPECT_EQ(readOnly.shape(), array.shape());
  EXPECT_EQ(readOnly.size(), 12);
}

TEST_F(Arrays, AllocatingMoreThanTheDeviceHasFails) {
  constexpr std::int64_t fourTiB = std::int64_t{1} << 42;
  if (onCpu()) {
    try {
      auto huge = device_empty<char>({fourTiB});
      FAIL() << "allocated 4 TiB";
    } catch (const Error &error) {
      // (mmap's reason is ENOMEM, or EINVAL under valgrind.)
      EXPECT_THAT(error.what(), StartsWith("pyk: the CPU device has no room for the 4398046511104 bytes of "
                                           "device_empty (mmap: "));
      EXPECT_THAT(error.what(), EndsWith("); free device arrays you no longer need"));
    }
    return;
  }
  try {
    auto huge = device_empty<char>({fourTiB});
    FAIL() << "allocated 4 TiB";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.call(), "cuMemAlloc_v2");
    EXPECT_EQ(error.code(), 2);
    EXPECT_EQ(error.name(), "CUDA_ERROR_OUT_OF_MEMORY");
    EXPECT_STREQ(error.what(), "pyk: cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2): the GPU has no room for the "
                               "4398046511104 bytes of device_empty; free device arrays you no longer need");
  }
}

} // namespace
} // namespace pyk::test
