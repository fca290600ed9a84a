//===- ArraySliceTest.cpp - Slices of device arrays: rows, copies, launches -===//
//
// array.slice(begin, end) is Numba's d_ary[begin:end]: some rows of an
// array, which copies and launches take as they take the whole array (a
// stencil's halo rows are the use that asks for it).
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::HasSubstr;

// A const array's slice is read-only, and a read-only view has no copies
// into it; a slice of a temporary array would dangle.
static_assert(
    std::is_same_v<decltype(std::declval<const DeviceArray<float, 2> &>().slice(0, 1)), ArrayView<const float, 2>>);
static_assert(std::is_same_v<decltype(std::declval<DeviceArray<float, 2> &>().slice(0, 1)), ArrayView<float, 2>>);
template <typename View, typename = void> constexpr bool copiesFromHostInto = false;
template <typename View>
constexpr bool copiesFromHostInto<
    View, std::void_t<decltype(std::declval<View>().copy_from_host(std::declval<const std::vector<float> &>()))>> =
    true;
static_assert(copiesFromHostInto<ArrayView<float, 2>>);
static_assert(!copiesFromHostInto<ArrayView<const float, 2>>);
template <typename Array, typename = void> constexpr bool slices = false;
template <typename Array> constexpr bool slices<Array, std::void_t<decltype(std::declval<Array>().slice(0, 1))>> = true;
static_assert(slices<DeviceArray<float, 1> &>);
static_assert(!slices<DeviceArray<float, 1> &&>);

std::vector<float> iota(std::size_t count, float first = 0) {
  std::vector<float> values(count);
  std::iota(values.begin(), values.end(), first);
  return values;
}

class ArraySlices : public RuntimeTest {};

TEST_F(ArraySlices, ASliceViewsRowsOfTheArraysMemory) {
  auto grid = to_device(iota(5 * 4), {5, 4});
  const ArrayView<float, 2> rows = grid.slice(1, 3);
  EXPECT_EQ(rows.data(), grid.data() + 4);
  EXPECT_EQ(rows.shape(), (std::array<std::int64_t, 2>{2, 4}));
  EXPECT_EQ(rows.device(), grid.device());
  EXPECT_EQ(rows.slice(1, 2).data(), grid.data() + 8); // a slice of a slice

  auto cube = device_empty<double>({4, 3, 2});
  EXPECT_EQ(cube.slice(3, 4).data(), cube.data() + 18);
  EXPECT_EQ(cube.slice(2, 2).size(), 0); // empty, as d_ary[2:2] is
}

TEST_F(ArraySlices, CopiesReadAndWriteOnlyTheSlicedRows) {
  auto grid = to_device(iota(5 * 4), {5, 4});
  std::vector<float> row(4);
  grid.slice(3, 4).copy_to_host(row);
  EXPECT_EQ(row, (std::vector<float>{12, 13, 14, 15}));

  grid.slice(1, 3).copy_from_host(std::vector<float>(8, -1.0f));
  std::vector<float> all(20);
  grid.copy_to_host(all);
  std::vector<float> expected = iota(20);
  std::fill(expected.begin() + 4, expected.begin() + 12, -1.0f);
  EXPECT_EQ(all, expected);
}

TEST_F(ArraySlices, AsynchronousCopiesOfSlicesQueueOnTheStream) {
  auto grid = to_device(iota(6 * 3), {6, 3});
  Stream stream;
  PinnedBuffer<float> halo(3);
  grid.slice(4, 5).copy_to_host_async(halo.data(), halo.size(), stream);
  const std::vector<float> edge{7, 8, 9};
  grid.slice(0, 1).copy_from_host_async(edge, stream);
  stream.synchronize();
  EXPECT_EQ(std::vector<float>(halo.data(), halo.data() + 3), (std::vector<float>{12, 13, 14}));
  std::vector<float> first(3);
  grid.slice(0, 1).copy_to_host(first);
  EXPECT_EQ(first, edge);
}

TEST_F(ArraySlices, RowsOutsideTheArrayAreAShapeError) {
  auto grid = device_empty<float>({5, 4});
  for (auto [begin, end] : {std::pair<std::int64_t, std::int64_t>{-1, 2}, {3, 2}, {0, 6}}) {
    try {
      (void)grid.slice(begin, end);
      FAIL() << "sliced rows " << begin << " to " << end << " of 5";
    } catch (const ShapeError &error) {
      EXPECT_EQ(std::string(error.what()), "pyk: slice(" + std::to_string(begin) + ", " + std::to_string(end) +
                                               ") of an array of shape {5, 4}: rows begin to end - 1 must "
                                               "satisfy 0 <= begin <= end <= 5");
    }
  }
}

TEST_F(ArraySlices, AHostBufferOfAnotherSizeThanTheSliceIsAShapeError) {
  auto grid = device_empty<float>({5, 4});
  std::vector<float> wholeGrid(20);
  try {
    grid.slice(0, 2).copy_to_host(wholeGrid);
    FAIL() << "copied 2 rows into a buffer of 5";
  } catch (const ShapeError &error) {
    EXPECT_STREQ(error.what(), "pyk: copy_to_host: the host buffer holds 20 elements but the device array holds 8; "
                               "resize the host buffer to match");
  }
}

TEST_F(ArraySlices, SlicingAMovedFromArrayIsAnError) {
  auto grid = device_empty<float>({5, 4});
  auto taken = std::move(grid);
  try {
    (void)grid.slice(0, 1);
    FAIL() << "sliced a moved-from array";
  } catch (const Error &error) {
    EXPECT_THAT(error.what(), HasSubstr("slice(): the array was moved from"));
  }
}

TEST_F(ArraySlices, CopyBetweenSlicesMovesRows) {
  auto from = to_device(iota(4 * 3), {4, 3});
  auto to = to_device(std::vector<float>(4 * 3, 0.0f), {4, 3});
  copy(to.slice(0, 1), from.slice(3, 4)); // row 3 into row 0
  Stream stream;
  copy(to.slice(2, 4), std::as_const(from).slice(0, 2), &stream);
  stream.synchronize();
  std::vector<float> got(12);
  to.copy_to_host(got);
  EXPECT_EQ(got, (std::vector<float>{9, 10, 11, 0, 0, 0, 0, 1, 2, 3, 4, 5}));
  EXPECT_THROW(copy(to.slice(0, 1), from.slice(0, 2)), ShapeError);
}

TEST_F(ArraySlices, ALaunchOnASliceWritesOnlyItsRows) {
  auto x = to_device(iota(10));
  auto out = to_device(std::vector<float>(10, -1.0f));
  scale({1, 32}, 2.0f, x.slice(2, 5), out.slice(6, 9));
  synchronize();
  std::vector<float> got(10);
  out.copy_to_host(got);
  EXPECT_EQ(got, (std::vector<float>{-1, -1, -1, -1, -1, -1, 4, 6, 8, -1}));
}

TEST_F(ArraySlices, ASliceBelongsToItsArraysDevice) {
  if (device_count() < 2)
    GTEST_SKIP() << "needs two devices; this process has " << device_count();
  auto onFirst = to_device(iota(4 * 2), {4, 2});
  auto vectorOnFirst = to_device(iota(4));
  DeviceScope second(1);
  auto onSecond = to_device(std::vector<float>(4 * 2, 0.0f), {4, 2});
  EXPECT_EQ(onFirst.slice(1, 2).device(), 0);
  copy(onSecond.slice(0, 2), onFirst.slice(2, 4)); // a peer copy of two rows
  std::vector<float> got(8);
  onSecond.copy_to_host(got);
  EXPECT_EQ(got, (std::vector<float>{4, 5, 6, 7, 0, 0, 0, 0}));
  auto out = device_empty<float>({2});
  const ArrayView<const float, 1> firstsRows = vectorOnFirst.slice(1, 3);
  EXPECT_THROW(vectorAdd({1, 32}, firstsRows, firstsRows, out), DeviceError); // launched on device 1
}

} // namespace
} // namespace pyk::test
