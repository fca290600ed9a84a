//===- CpuDeviceTest.cpp - What only the CPU device does ---------------------===//
//
// Its thread pool, its streams' worker threads (ordering, copied launch
// arguments, errors surfacing at synchronisation), and its messages.
//
//===----------------------------------------------------------------------===//
#include "StreamImpl.h"
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace pyk::test {
namespace {

class CpuDevice : public CpuDeviceTest {
protected:
  /// Threads the CPU device runs blocks on (PYK_CPU_THREADS when set).
  unsigned poolThreads() const {
    const char *text = std::getenv("PYK_CPU_THREADS");
    return text ? static_cast<unsigned>(std::atoi(text)) : std::max(1u, std::thread::hardware_concurrency());
  }
};

/// Opens `gate` after `delay` from another thread.
std::thread openLater(std::atomic<int> &gate, std::chrono::milliseconds delay) {
  return std::thread([&gate, delay] {
    std::this_thread::sleep_for(delay);
    gate.store(1);
  });
}

TEST_F(CpuDevice, NameSaysHowManyThreads) {
  unsigned threads = poolThreads();
  EXPECT_EQ(device_name(), "CPU device (" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)"));
}

std::mutex idsMutex;
std::set<std::thread::id> blockThreads;

void recordThread(void **, const detail::CpuBlockContext *) {
  std::this_thread::sleep_for(std::chrono::microseconds(200));
  std::lock_guard lock(idsMutex);
  blockThreads.insert(std::this_thread::get_id());
}

TEST_F(CpuDevice, BlocksRunOnThePoolsThreads) {
  detail::KernelModule module{"record_thread", nullptr};
  detail::KernelInfo kernel{&module, "record_thread", recordThread, 0};
  blockThreads.clear();
  detail::launch(kernel, {256, 1}, nullptr);
  unsigned threads = poolThreads();
  EXPECT_LE(blockThreads.size(), threads);
  if (threads > 1) {
    EXPECT_GT(blockThreads.size(), 1u) << "256 blocks of 0.2 ms all ran on one thread";
  }
}

TEST_F(CpuDevice, AnExceptionInABlockReachesTheLauncher) {
  try {
    throwInBlock({1000, 1}, 517);
    FAIL() << "no exception";
  } catch (const std::runtime_error &error) {
    EXPECT_STREQ(error.what(), "block 517 failed");
  }
  // The pool still works.
  auto counts = to_device(std::vector<int>(100, 0));
  auto ids = device_empty<int>({0});
  countBlocks({100, 2}, counts, ids);
  std::vector<int> host(100);
  counts.copy_to_host(host);
  EXPECT_EQ(host, std::vector<int>(100, 2));
}

TEST_F(CpuDevice, AnExceptionInQueuedWorkSurfacesAtSynchronize) {
  Stream stream;
  throwInBlock({4, 1, 0, &stream}, 2);
  try {
    stream.synchronize();
    FAIL() << "no exception";
  } catch (const std::runtime_error &error) {
    EXPECT_STREQ(error.what(), "block 2 failed");
  }
  stream.synchronize(); // reported once

  throwInBlock({4, 1, 0, &stream}, 3);
  EXPECT_THROW(synchronize(), std::runtime_error); // pyk::synchronize() reports it too
  synchronize();
}

TEST_F(CpuDevice, AnExceptionOnADestroyedStreamSurfacesAtTheNextSynchronize) {
  {
    Stream stream;
    throwInBlock({4, 1, 0, &stream}, 2);
  } // waits for the launch; nobody synchronised the stream
  try {
    synchronize();
    FAIL() << "the destroyed stream's error was lost";
  } catch (const std::runtime_error &error) {
    EXPECT_STREQ(error.what(), "block 2 failed");
  }
  synchronize(); // reported once
}

/// Does nothing; counts its blocks in launchesRun.
std::atomic<int> launchesRun{0};
detail::KernelModule countingModule{"counting", nullptr};
detail::KernelInfo countingKernel{&countingModule, "count_launches",
                                  [](void **, const detail::CpuBlockContext *) { ++launchesRun; }, 0};

/// Polls `condition` for up to ten seconds; returns whether it held.
template <typename Condition> bool eventually(Condition condition) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

TEST_F(CpuDevice, AStreamQueuesAtMostItsBoundAndTheLauncherWaits) {
  constexpr int bound = static_cast<int>(detail::CpuStream::maxQueued);
  std::atomic<int> gate{0}, done{0}, launched{0};
  launchesRun = 0;
  Stream stream;
  detail::CpuStream &queue = *stream.impl()->cpu;
  waitForGate({1, 1, 0, &stream}, &gate, &done); // holds the worker
  std::thread launcher([&] {
    for (int i = 0; i < 3 * bound; ++i, ++launched)
      detail::launch(countingKernel, {1, 1, 0, &stream}, nullptr);
  });
  ASSERT_TRUE(eventually([&] { return launched.load() == bound; })) << "launched " << launched.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(launched.load(), bound) << "a launch did not wait for room in the full queue";
  EXPECT_EQ(queue.queued(), detail::CpuStream::maxQueued);
  gate.store(1);
  launcher.join();
  stream.synchronize();
  EXPECT_EQ(launchesRun.load(), 3 * bound);
  EXPECT_EQ(queue.queued(), 0u);
}

/// Queues 1.5 queues' worth of count_launches on the stream args[0] points
/// to, from inside a block.
void queueOnStreamCpu(void **args, const detail::CpuBlockContext *) {
  Stream *stream;
  std::memcpy(&stream, args[0], sizeof stream);
  for (std::size_t i = 0; i < detail::CpuStream::maxQueued * 3 / 2; ++i)
    detail::launch(countingKernel, {1, 1, 0, stream}, nullptr);
}

TEST_F(CpuDevice, ABlockQueuingOnAFullStreamDoesNotWaitForIt) {
  // The stream's worker runs the launch whose blocks queue more work on the
  // same stream: waiting for room there would wait for itself.
  detail::KernelInfo kernel{&countingModule, "queue_on_stream", queueOnStreamCpu, 1};
  launchesRun = 0;
  Stream stream;
  Stream *target = &stream;
  void *args[] = {&target};
  detail::launch(kernel, {4, 1, 0, &stream}, args);
  stream.synchronize(); // the launch, which has queued the rest by then
  stream.synchronize();
  EXPECT_EQ(launchesRun.load(), 4 * static_cast<int>(detail::CpuStream::maxQueued * 3 / 2));
  EXPECT_EQ(stream.impl()->cpu->queued(), 0u);
}

TEST_F(CpuDevice, QueuedLaunchesKeepCopiesOfTheirArguments) {
  // The gate holds the stream while scale() returns and its argument slots
  // (on scale's stack) are overwritten by a launch on another stream. (Work
  // on the default stream would wait for the gate.)
  auto dx = to_device(std::vector<float>(300, 2.0f));
  auto dout = device_empty_like(dx), other = device_empty_like(dx);
  std::atomic<int> gate{0}, done{0};
  Stream stream, otherStream;
  waitForGate({1, 1, 0, &stream}, &gate, &done);
  scale({3, 100, 0, &stream}, 1.5f, dx, dout);
  scale({3, 100, 0, &otherStream}, 7.0f, dx, other); // reuses the stack
  otherStream.synchronize();
  EXPECT_EQ(done.load(), 0) << "the stream did not wait for the gate";
  gate.store(1);
  stream.synchronize();
  EXPECT_EQ(done.load(), 1);
  std::vector<float> out(300), otherOut(300);
  dout.copy_to_host(out);
  other.copy_to_host(otherOut);
  EXPECT_EQ(out, std::vector<float>(300, 3.0f));
  EXPECT_EQ(otherOut, std::vector<float>(300, 14.0f));
}

TEST_F(CpuDevice, DefaultStreamWaitsForEveryStream) {
  std::atomic<int> gate{0}, done{0};
  Stream stream;
  waitForGate({1, 1, 0, &stream}, &gate, &done);
  std::thread opener = openLater(gate, std::chrono::milliseconds(20));
  auto counts = to_device(std::vector<int>(1, 0)); // a default-stream copy: waits for the gate
  EXPECT_EQ(done.load(), 1);
  opener.join();
}

TEST_F(CpuDevice, EventSynchronizeWaitsForItsStream) {
  std::atomic<int> gate{0}, done{0};
  Stream stream;
  Event start, end;
  start.record(&stream);
  waitForGate({1, 1, 0, &stream}, &gate, &done);
  end.record(&stream);
  try {
    (void)end.elapsed_ms(start);
    FAIL() << "timed an event that was not reached";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "pyk: Event::elapsed_ms: the end event's stream has not reached it yet; call "
                               "synchronize() on the event first");
  }
  std::thread opener = openLater(gate, std::chrono::milliseconds(20));
  end.synchronize();
  EXPECT_EQ(done.load(), 1);
  EXPECT_GE(end.elapsed_ms(start), 10.0f);
  opener.join();
}

TEST_F(CpuDevice, AKernelWithoutCpuCodeIsAnError) {
  auto x = to_device(std::vector<float>(4, 1.0f));
  auto out = device_empty_like(x);
  std::uint64_t slots[6] = {};
  void *args[6];
  for (int i = 0; i < 6; ++i)
    args[i] = &slots[i];
  try {
    detail::launch(gpuOnlyKernel, {1, 4}, args);
    FAIL() << "launched a kernel without CPU code";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "pyk: cannot launch vector_add (from test_kernels.cu) on the CPU device: it was "
                               "compiled without CPU-device code; rebuild it with pykc, or run on a GPU");
  }
}

TEST_F(CpuDevice, QueuedArgumentsLargerThan8BytesAreAnError) {
  static const detail::KernelModule module{"wide_argument", nullptr};
  static const std::uint8_t sizes[] = {16};
  detail::KernelInfo kernel{&module, "wide", [](void **, const detail::CpuBlockContext *) {}, 1, sizes};
  unsigned char wide[16] = {};
  void *args[] = {wide};
  Stream stream;
  try {
    detail::launch(kernel, {1, 1, 0, &stream}, args);
    FAIL() << "queued a 16-byte argument";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "pyk: cannot launch wide (from wide_argument): argument 0 is 16 bytes; the launch ABI "
                               "passes at most 8 bytes per argument");
  }
}

TEST_F(CpuDevice, SharedMemoryIsAligned) {
  static std::atomic<int> misaligned{0};
  misaligned = 0;
  detail::KernelModule module{"check_alignment", nullptr};
  detail::KernelInfo kernel{&module, "check_alignment",
                            [](void **, const detail::CpuBlockContext *block) {
                              if (reinterpret_cast<std::uintptr_t>(block->sharedMemory) % 16 != 0)
                                ++misaligned;
                            },
                            0};
  detail::launch(kernel, {64, 1, 1000}, nullptr);
  EXPECT_EQ(misaligned.load(), 0);
}

} // namespace
} // namespace pyk::test
