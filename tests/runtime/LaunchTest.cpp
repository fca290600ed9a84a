//===- LaunchTest.cpp - Kernels run, on every block, with the right data ---===//
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <numeric>
#include <thread>
#include <vector>

namespace pyk::test {
namespace {

std::vector<float> iota(std::size_t count, float first = 0) {
  std::vector<float> values(count);
  std::iota(values.begin(), values.end(), first);
  return values;
}

class Launches : public RuntimeTest {};

TEST_F(Launches, VectorAddOverManyBlocks) {
  const std::size_t n = (1 << 20) + 3;
  std::vector<float> x = iota(n), y = iota(n, 0.5f);
  auto dx = to_device(x), dy = to_device(y);
  auto dout = device_empty_like(dx);
  std::uint32_t threads = 256, blocks = static_cast<std::uint32_t>((n + threads - 1) / threads);
  vectorAdd({blocks, threads}, dx, dy, dout);
  std::vector<float> out(n);
  dout.copy_to_host(out);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], x[i] + y[i]) << "at " << i;
}

TEST_F(Launches, ScalarArgument) {
  std::vector<float> x = iota(1000, -500);
  auto dx = to_device(x);
  auto dout = device_empty_like(dx);
  scale({8, 128}, 2.5f, dx, dout);
  std::vector<float> out(x.size());
  dout.copy_to_host(out);
  for (std::size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(out[i], 2.5f * x[i]) << "at " << i;
}

TEST_F(Launches, TemporaryArraysLiveUntilTheLaunchStatementEnds) {
  std::vector<float> x = iota(1000, -500);
  auto dout = to_device(std::vector<float>(x.size(), 0.0f));
  scale({8, 128}, 2.0f, to_device(x), dout);
  std::vector<float> out(x.size());
  dout.copy_to_host(out);
  for (std::size_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(out[i], 2.0f * x[i]) << "at " << i;
  // A temporary output is allowed too (its results are dropped).
  vectorAdd({8, 128}, dout, dout, device_empty<float>({1000}));
}

TEST_F(Launches, AMovedFromArrayArgumentIsAnErrorAndAnEmptyArrayIsNot) {
  auto dx = to_device(iota(64));
  auto dout = device_empty_like(dx);
  auto kept = std::move(dout);
  try {
    vectorAdd({1, 64}, dx, dx, dout); // NOLINT(bugprone-use-after-move): the misuse under test
    FAIL() << "no Error";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "pyk: launching a kernel: the array was moved from; use the array it was moved to");
  }
  auto empty = device_empty<float>({0});
  vectorAdd({1, 64}, empty, empty, empty);
  synchronize();
}

TEST_F(Launches, EveryBlockOfA3DGridRunsOnceWithItsIndices) {
  const Dim3 grid(7, 5, 3), block(4, 2, 2);
  const int blocks = 7 * 5 * 3, threads = 4 * 2 * 2;
  auto counts = to_device(std::vector<int>(blocks, 0));
  auto ids = to_device(std::vector<int>(9 * blocks, -1));
  countBlocks({grid, block}, counts, ids);
  std::vector<int> countsHost(blocks), idsHost(9 * blocks);
  counts.copy_to_host(countsHost);
  ids.copy_to_host(idsHost);
  for (int b = 0; b < blocks; ++b) {
    EXPECT_EQ(countsHost[b], threads) << "block " << b;
    std::vector<int> id(idsHost.begin() + 9 * b, idsHost.begin() + 9 * b + 9);
    EXPECT_EQ(id, (std::vector<int>{b % 7, b / 7 % 5, b / 35, 4, 2, 2, 7, 5, 3})) << "block " << b;
  }
}

TEST_F(Launches, ManyBlocksEachRunExactlyOnce) {
  const std::uint32_t blocks = 70'000;
  auto counts = to_device(std::vector<int>(blocks, 0));
  auto ids = device_empty<int>({0});
  countBlocks({blocks, 3}, counts, ids);
  std::vector<int> host(blocks);
  counts.copy_to_host(host);
  for (std::uint32_t b = 0; b < blocks; ++b)
    ASSERT_EQ(host[b], 3) << "block " << b;
}

TEST_F(Launches, DynamicSharedMemoryIsPerBlock) {
  const std::uint32_t threads = 256, blocks = 64;
  std::vector<float> x = iota(threads * blocks);
  auto dx = to_device(x);
  auto dout = device_empty_like(dx);
  reverseBlocks({blocks, threads, threads * sizeof(float)}, dx, dout);
  std::vector<float> out(x.size());
  dout.copy_to_host(out);
  for (std::uint32_t b = 0; b < blocks; ++b)
    for (std::uint32_t t = 0; t < threads; ++t)
      ASSERT_EQ(out[b * threads + t], x[b * threads + threads - 1 - t]) << "block " << b << " thread " << t;
}

TEST_F(Launches, MoreSharedMemoryThanTheDefault) {
  if (onCpu())
    GTEST_SKIP() << "the CPU device allows no more than the GPU default of 48 KiB";
  const std::uint32_t threads = 1024, blocks = 4;
  std::vector<float> x = iota(threads * blocks);
  auto dx = to_device(x);
  auto dout = device_empty_like(dx);
  reverseBlocks({blocks, threads, 64 * 1024}, dx, dout);
  std::vector<float> out(x.size());
  dout.copy_to_host(out);
  EXPECT_EQ(out[0], x[threads - 1]);
  EXPECT_EQ(out[x.size() - 1], x[x.size() - threads]);
}

TEST_F(Launches, LaunchesFromSeveralThreadsAtOnce) {
  const std::size_t n = 10'000;
  std::vector<float> x = iota(n);
  auto dx = to_device(x);
  std::vector<std::thread> threads;
  std::vector<std::vector<float>> results(6);
  for (std::size_t t = 0; t < results.size(); ++t)
    threads.emplace_back([&, t] {
      auto dout = device_empty_like(dx);
      for (int repeat = 0; repeat < 10; ++repeat)
        scale({static_cast<std::uint32_t>((n + 63) / 64), 64}, static_cast<float>(t), dx, dout);
      results[t].resize(n);
      dout.copy_to_host(results[t]);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (std::size_t t = 0; t < results.size(); ++t)
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(results[t][i], static_cast<float>(t) * x[i]) << "thread " << t << " at " << i;
}

TEST_F(Launches, SynchronizeAfterLaunches) {
  auto dx = to_device(iota(100));
  auto dout = device_empty_like(dx);
  scale({1, 128}, 3.0f, dx, dout);
  synchronize();
  std::vector<float> out(100);
  dout.copy_to_host(out);
  EXPECT_EQ(out[99], 297.0f);
}

} // namespace
} // namespace pyk::test
