//===- ThreadPoolTest.cpp - The CPU device's thread pool -------------------===//
//
// Unit tests of runtime/src/ThreadPool.h, on pools of their own (not the
// CPU device's, so they do not select a device).
//
//===----------------------------------------------------------------------===//
#include "ThreadPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using pyk::detail::ThreadPool;

/// Counts the calls of each index, and which threads made them.
struct Counts {
  explicit Counts(std::size_t n) : calls(n) {}
  std::vector<std::atomic<int>> calls;
  std::mutex mutex;
  std::vector<std::thread::id> threads;

  static void body(void *context, std::uint64_t index) {
    auto &counts = *static_cast<Counts *>(context);
    counts.calls[index].fetch_add(1);
    std::lock_guard lock(counts.mutex);
    if (counts.threads.empty() || counts.threads.back() != std::this_thread::get_id())
      counts.threads.push_back(std::this_thread::get_id());
  }

  bool allOnce() const {
    for (const auto &c : calls)
      if (c.load() != 1)
        return false;
    return true;
  }
};

TEST(ThreadPool, EveryIndexRunsExactlyOnce) {
  ThreadPool pool(4);
  EXPECT_EQ(pool.participants(), 4u);
  Counts counts(100'000);
  pool.parallelFor(counts.calls.size(), Counts::body, &counts);
  EXPECT_TRUE(counts.allOnce());
}

TEST(ThreadPool, OneParticipantRunsInTheCallingThread) {
  ThreadPool pool(1);
  EXPECT_EQ(pool.participants(), 1u);
  Counts counts(1000);
  pool.parallelFor(counts.calls.size(), Counts::body, &counts);
  EXPECT_TRUE(counts.allOnce());
  for (std::thread::id id : counts.threads)
    EXPECT_EQ(id, std::this_thread::get_id());
}

TEST(ThreadPool, EmptyLoopCallsNothing) {
  ThreadPool pool(3);
  pool.parallelFor(
      0, [](void *, std::uint64_t) { FAIL() << "called"; }, nullptr);
}

TEST(ThreadPool, TheFirstExceptionReachesTheCaller) {
  ThreadPool pool(4);
  auto throwAt = [](void *, std::uint64_t index) {
    if (index == 300)
      throw std::runtime_error("index 300");
  };
  EXPECT_THROW(pool.parallelFor(10'000, throwAt, nullptr), std::runtime_error);
  Counts counts(5000);
  pool.parallelFor(counts.calls.size(), Counts::body, &counts);
  EXPECT_TRUE(counts.allOnce()) << "the pool is usable after an exception";
}

TEST(ThreadPool, LoopsFromSeveralThreadsAtOnce) {
  ThreadPool pool(3);
  std::vector<std::unique_ptr<Counts>> counts;
  for (int t = 0; t < 6; ++t)
    counts.push_back(std::make_unique<Counts>(20'000));
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&, t] {
      for (int repeat = 0; repeat < 3; ++repeat) {
        Counts local(1000);
        pool.parallelFor(local.calls.size(), Counts::body, &local);
        EXPECT_TRUE(local.allOnce());
      }
      pool.parallelFor(counts[t]->calls.size(), Counts::body, counts[t].get());
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const auto &c : counts)
    EXPECT_TRUE(c->allOnce());
}

TEST(ThreadPool, LoopsAfterShutdownRunInTheCaller) {
  ThreadPool pool(4);
  pool.shutdown();
  pool.shutdown(); // idempotent
  Counts counts(100);
  pool.parallelFor(counts.calls.size(), Counts::body, &counts);
  EXPECT_TRUE(counts.allOnce());
  for (std::thread::id id : counts.threads)
    EXPECT_EQ(id, std::this_thread::get_id());
}

} // namespace
