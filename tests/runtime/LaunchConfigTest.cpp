//===- LaunchConfigTest.cpp - Launch configurations rejected before running ===//
//
// Every check runs before the kernel does: the output array keeps the
// sentinel it was filled with.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::HasSubstr;

class LaunchConfig : public RuntimeTest {
protected:
  /// The message of the LaunchConfigError that vector_add with `config`
  /// throws; checks that the kernel did not run.
  std::string rejection(const Launch &config) {
    std::vector<float> sentinel(64, -1.0f);
    auto x = to_device(std::vector<float>(64, 1.0f));
    auto out = to_device(sentinel);
    std::string message;
    try {
      vectorAdd(config, x, x, out);
      ADD_FAILURE() << "the launch was not rejected";
    } catch (const LaunchConfigError &error) {
      message = error.what();
    }
    std::vector<float> after(64);
    out.copy_to_host(after);
    EXPECT_EQ(after, sentinel) << "the kernel ran";
    return message;
  }

  std::string prefix(const std::string &grid, const std::string &block) {
    return "pyk: cannot launch vector_add (from test_kernels.cu) with grid " + grid + " and block " + block + ": ";
  }
};

TEST_F(LaunchConfig, MoreThan1024ThreadsPerBlock) {
  EXPECT_EQ(rejection({1, 1025}),
            prefix("(1, 1, 1)", "(1025, 1, 1)") + "a block of 1025 threads is too large; " + deviceLabel() +
                " allows at most 1024 threads per block (block.x * block.y * block.z): use more blocks of fewer "
                "threads");
  EXPECT_THAT(rejection({1, {32, 32, 2}}), HasSubstr("a block of 2048 threads is too large"));
}

TEST_F(LaunchConfig, ZeroGridDimension) {
  EXPECT_EQ(rejection({0, 64}), prefix("(0, 1, 1)", "(64, 1, 1)") +
                                    "the grid has a zero dimension; every grid and block dimension must be at "
                                    "least 1 (a grid of 0 blocks launches nothing: skip the launch instead)");
  EXPECT_THAT(rejection({{4, 1, 0}, 64}), HasSubstr("the grid has a zero dimension"));
}

TEST_F(LaunchConfig, ZeroBlockDimension) {
  EXPECT_THAT(rejection({1, {64, 0}}), HasSubstr("with grid (1, 1, 1) and block (64, 0, 1): the block has a zero "
                                                 "dimension"));
}

TEST_F(LaunchConfig, BlockZAbove64) {
  EXPECT_EQ(rejection({1, {1, 1, 65}}),
            prefix("(1, 1, 1)", "(1, 1, 65)") + "block.z is 65; " + deviceLabel() + " allows block.z up to 64");
}

TEST_F(LaunchConfig, GridYAndZAbove65535) {
  EXPECT_EQ(rejection({{1, 65536}, 32}),
            prefix("(1, 65536, 1)", "(32, 1, 1)") + "grid.y is 65536; " + deviceLabel() + " allows grid.y up to 65535");
  EXPECT_THAT(rejection({{1, 1, 70000}, 32}), HasSubstr("grid.z is 70000; " + deviceLabel() +
                                                        " allows grid.z up to "
                                                        "65535"));
}

TEST_F(LaunchConfig, GridXAbove2To31Minus1) {
  EXPECT_THAT(rejection({2147483648u, 32}),
              HasSubstr("grid.x is 2147483648; " + deviceLabel() + " allows grid.x up to 2147483647"));
}

TEST_F(LaunchConfig, TooMuchDynamicSharedMemory) {
  if (onCpu()) {
    EXPECT_EQ(rejection({1, 64, 48 * 1024 + 1}),
              prefix("(1, 1, 1)", "(64, 1, 1)") +
                  "49153 bytes of dynamic shared memory per block is too much; the CPU device allows at most 49152 "
                  "bytes per block");
  }
  // More than any GPU has.
  EXPECT_THAT(rejection({1, 64, 1 << 20}), HasSubstr("1048576 bytes of dynamic shared memory per block is too much; " +
                                                     deviceLabel() + " allows at most "));
}

TEST_F(LaunchConfig, NegativeDimensionsAreRejectedAsNegative) {
  // An int variable converted to uint32 was 4294967295, "too large".
  int blocks = -1, threads = 64;
  try {
    rejection({blocks, threads});
    FAIL() << "no LaunchConfigError";
  } catch (const LaunchConfigError &error) {
    EXPECT_STREQ(error.what(), "pyk: a launch's grid or block dimension is -1, which is negative; every grid and "
                               "block dimension must be at least 1 and within the device's limits");
  }
  EXPECT_THROW(Dim3(4, -2), LaunchConfigError);
  EXPECT_THROW(Dim3(4, 1, std::int64_t{-5}), LaunchConfigError);
  // Beyond uint32 it would wrap to 0 (or any value): also rejected here.
  try {
    Dim3 tooLarge(std::int64_t{1} << 32);
    FAIL() << "no LaunchConfigError";
  } catch (const LaunchConfigError &error) {
    EXPECT_THAT(error.what(), HasSubstr("dimension is 4294967296, more than a dimension holds (2^32 - 1)"));
  }
  // Integers of any type, within range, are dimensions.
  const std::size_t wide = 3;
  const std::int64_t high = 5;
  const Dim3 dims(wide, high, 2u);
  EXPECT_EQ(dims.x, 3u);
  EXPECT_EQ(dims.y, 5u);
  EXPECT_EQ(dims.z, 2u);
}

TEST_F(LaunchConfig, LimitsThemselvesAreAccepted) {
  auto counts = to_device(std::vector<int>(1, 0));
  auto ids = to_device(std::vector<int>(9, 0));
  countBlocks({1, {16, 4, 16}}, counts, ids);                                       // 1024 threads
  countBlocks({1, {1, 1, 64}, onCpu() ? std::size_t{48 * 1024} : 0u}, counts, ids); // block.z 64, all shared memory
  std::vector<int> host(1);
  counts.copy_to_host(host);
  EXPECT_EQ(host[0], 1024 + 64);
}

TEST_F(LaunchConfig, AMovedFromStreamIsAnError) {
  Stream stream;
  Stream other(std::move(stream));
  auto x = to_device(std::vector<float>(8, 1.0f));
  auto out = device_empty_like(x);
  try {
    vectorAdd({1, 8, 0, &stream}, x, x, out);
    FAIL() << "launched on a moved-from stream";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "pyk: launching a kernel: the stream was moved from; use the stream it was moved to");
  }
}

} // namespace
} // namespace pyk::test
