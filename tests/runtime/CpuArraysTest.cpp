//===- CpuArraysTest.cpp - Where the CPU device puts its arrays -------------===//
//
// An array of a page or more ends, as closely as the 256-byte alignment
// allows, at an inaccessible guard page: a kernel that writes past it
// faults at once instead of overwriting the runtime's own objects.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <unistd.h>

namespace pyk::test {
namespace {

class CpuArrays : public CpuDeviceTest {};

std::uintptr_t roundedEnd(const void *data, std::size_t bytes) {
  return reinterpret_cast<std::uintptr_t>(data) + (bytes + 255) / 256 * 256;
}

TEST_F(CpuArrays, ALargeArrayEndsAtAPageBoundary) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  for (std::int64_t count : {1024, 1100, 100'000, 1'000'001}) {
    auto array = device_empty<float>({count});
    EXPECT_EQ(roundedEnd(array.data(), array.bytes()) % page, 0u) << count << " floats";
  }
  auto matrix = device_empty<double>({300, 7});
  EXPECT_EQ(roundedEnd(matrix.data(), matrix.bytes()) % page, 0u);
}

TEST_F(CpuArrays, LargeArraysAreUsableToTheirLastElement) {
  auto array = device_empty<std::uint8_t>({8192 + 17});
  std::uint8_t *data = array.data();
  for (std::int64_t i = 0; i < array.size(); ++i)
    data[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(data[array.size() - 1], static_cast<std::uint8_t>(8192 + 16));
}

// Death tests: the statement runs in a fresh process (the "threadsafe"
// style), which selects the device itself, so these are not CpuArrays tests.

/// Writes one float `past` floats after the end of a CPU-device array of
/// `count` floats, then says it did not fault.
void writePastTheEnd(std::int64_t count, std::int64_t past) {
  setenv("PYK_DEVICE", "cpu", 1);
  auto array = device_empty<float>({count});
  volatile float *data = array.data();
  data[count + past] = 1.0f;
  std::fprintf(stderr, "no fault\n");
  std::exit(0);
}

TEST(CpuArrayDeathTest, WritingJustPastALargeArrayFaults) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // (Any death: under ASan a fault is a report and exit code 1.)
  // 4096 floats end exactly at the guard page.
  EXPECT_DEATH(writePastTheEnd(4096, 0), "");
  // 1100 floats (4400 bytes) are 4608 with the alignment: 52 floats more.
  EXPECT_DEATH(writePastTheEnd(1100, 52), "");
}

} // namespace
} // namespace pyk::test
