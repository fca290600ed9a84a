//===- CpuGridSyncTest.cpp - g.sync() of cuda.cg.this_grid() on the CPU ----===//
//
// Kernels that synchronise their whole grid, written as pykc generates them
// (FiberKernels.h, with KernelInfo::gridSynchronises and the grid barrier's
// argument last): computations whose phases read what other blocks wrote
// before the sync, Numba's sequential-rows example, launches on streams,
// threads that return before the syncs (not waited for, as on a GPU); and
// misuse, which is an error naming the blocks and the call, never a hang:
// a block that finishes while others wait, a block's first thread that
// skips the sync, threads that meet syncthreads there, a grid too large to
// run at once, an exception or a failed check in one block while the
// others wait.
//
//===----------------------------------------------------------------------===//
#include "FiberKernels.h"
#include "MisuseErrors.h"
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::AnyOf;
using ::testing::MatchesRegex;

class CpuGridSync : public CpuDeviceTest {};

std::uint64_t gridBlocks(const Dim3 &grid) {
  return std::uint64_t{grid.x} * grid.y * grid.z;
}

std::uint32_t threadsOf(const Dim3 &block) {
  return block.x * block.y * block.z;
}

/// The thread's index in the grid, blocks in linearBlock order.
std::uint64_t globalThread(const CpuBlockContext *block, std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return std::uint64_t{linearBlock(block)} * blockThreads(block) + linearThread(block, x, y, z);
}

const detail::CheckSiteInfo checkSites[] = {{detail::CheckSiteInfo::Bounds, 7, 9, "x", 0}};

/// Launches the kernel of `Thread` as a generated launch function launches
/// one that synchronises its grid: `values` in 8-byte slots, then the grid
/// barrier's slot, set to 0, and in checked mode the check record's two.
template <pyk_cpu_thread_fn Thread, bool Checked = false, std::size_t FrameBytes = 0, typename... T>
void launchGrid(const Launch &config, T... values) {
  static_assert(((sizeof(T) <= sizeof(std::uint64_t)) && ...), "the launch ABI passes at most 8 bytes per argument");
  static const detail::KernelModule module{"grid.pyk", nullptr, nullptr, 0, checkSites, 1};
  static detail::KernelInfo kernel{.module = &module,
                                   .symbol = "grid_kernel",
                                   .cpuEntry = fiberEntry<Thread, FrameBytes>,
                                   .argCount = sizeof...(T) + 1,
                                   .checked = Checked,
                                   .gridSynchronises = true};
  constexpr std::size_t slotCount = sizeof...(T) + 1 + (Checked ? 2 : 0);
  std::uint64_t slots[slotCount] = {};
  void *args[slotCount] = {};
  for (std::size_t slot = 0; slot < slotCount; ++slot)
    args[slot] = &slots[slot];
  [[maybe_unused]] int i = 0;
  ((std::memcpy(&slots[i], &values, sizeof(T)), ++i), ...);
  detail::launch(kernel, config, args);
}

//===--- Phases that read other blocks' writes -----------------------------===//

/// Element i's value after phase p reads the value of element i + threads
/// per block (another block's) after phase p - 1; over many phases it
/// wraps, on the unsigned bits (a signed overflow would be undefined).
std::int64_t nextValue(std::int64_t own, std::int64_t other, std::uint32_t phase) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(own) * 3 + static_cast<std::uint64_t>(other) + phase);
}

/// buffers: two arrays of one element per thread; phase p reads buffer
/// p % 2 and writes buffer (p + 1) % 2, with a grid sync after each phase
/// (it both publishes the writes and keeps the next phase from overwriting
/// what a slower block still reads).
void phasesThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                  std::uint32_t z) {
  auto buffers = fiberArg<std::int64_t *>(args, 0);
  auto phases = fiberArg<std::uint32_t>(args, 1);
  const std::uint64_t threads = std::uint64_t{blockThreads(block)};
  const std::uint64_t n = threads * block->gridDim[0] * block->gridDim[1] * block->gridDim[2];
  const std::uint64_t i = globalThread(block, x, y, z);
  for (std::uint32_t p = 0; p < phases; ++p) {
    const std::int64_t *from = buffers + (p % 2) * n;
    std::int64_t *to = buffers + ((p + 1) % 2) * n;
    to[i] = nextValue(from[i], from[(i + threads) % n], p);
    pyk_cpu_grid_sync("grid.pyk:9:9");
  }
}

/// What `phases` phases leave of `values`, element i reading element
/// i + `offset` (cyclically) of the phase before, as the kernels do.
std::vector<std::int64_t> afterPhases(std::vector<std::int64_t> values, std::uint32_t phases, std::uint64_t offset) {
  const std::uint64_t n = values.size();
  for (std::uint32_t p = 0; p < phases; ++p) {
    std::vector<std::int64_t> next(n);
    for (std::uint64_t i = 0; i < n; ++i)
      next[i] = nextValue(values[i], values[(i + offset) % n], p);
    values.swap(next);
  }
  return values;
}

void checkPhases(const Dim3 &grid, const Dim3 &block, std::uint32_t phases, Stream *stream = nullptr) {
  const std::uint64_t n = gridBlocks(grid) * threadsOf(block), threads = threadsOf(block);
  std::vector<std::int64_t> buffers(2 * n);
  for (std::uint64_t i = 0; i < n; ++i)
    buffers[i] = static_cast<std::int64_t>(i * 7 % 11);
  const std::vector<std::int64_t> expected =
      afterPhases(std::vector<std::int64_t>(buffers.begin(), buffers.begin() + n), phases, threads);
  launchGrid<phasesThread>({grid, block, 0, stream}, buffers.data(), phases);
  if (stream)
    stream->synchronize();
  std::vector<std::int64_t> got(buffers.begin() + (phases % 2) * n, buffers.begin() + (phases % 2 + 1) * n);
  EXPECT_EQ(got, expected) << "grid (" << grid.x << ", " << grid.y << ", " << grid.z << "), block (" << block.x << ", "
                           << block.y << ", " << block.z << ")";
}

TEST_F(CpuGridSync, PhasesSeeWhatOtherBlocksWroteBeforeTheSync) {
  checkPhases({8}, {32}, 100);
  checkPhases({1}, {64}, 10);
  checkPhases({16}, {1}, 100);
}

TEST_F(CpuGridSync, PhasesOn2DAnd3DGridsAndBlocks) {
  checkPhases({3, 2, 2}, {4, 2, 2}, 60);
  checkPhases({2, 5}, {7, 3}, 60);
  checkPhases({1, 1, 9}, {33}, 60);
}

/// A grid-wide sum, twice, with block barriers between the grid syncs:
/// each block sums its threads' values in shared memory, its thread 0
/// publishes the block's sum, and after the grid sync every thread adds up
/// all the blocks' sums into out[i]; then the values double and it starts
/// again (the first grid sync keeps a block from overwriting its partial
/// sum while another still reads it).
void gridSumThread(void **args, const CpuBlockContext *block, void *frame, std::uint32_t x, std::uint32_t y,
                   std::uint32_t z) {
  auto partials = fiberArg<std::int64_t *>(args, 0);
  auto out = fiberArg<std::int64_t *>(args, 1);
  auto *shared = static_cast<std::int64_t *>(frame);
  const std::uint32_t t = linearThread(block, x, y, z), threads = blockThreads(block);
  const std::uint32_t blocks = block->gridDim[0] * block->gridDim[1] * block->gridDim[2];
  const std::uint64_t i = globalThread(block, x, y, z);
  std::int64_t value = static_cast<std::int64_t>(i) + 1;
  for (int round = 0; round < 2; ++round) {
    shared[t] = value;
    pyk_cpu_syncthreads("grid_sum.pyk:6:9");
    if (t == 0) {
      std::int64_t sum = 0;
      for (std::uint32_t k = 0; k < threads; ++k)
        sum += shared[k];
      partials[linearBlock(block)] = sum;
    }
    pyk_cpu_grid_sync("grid_sum.pyk:11:9");
    std::int64_t total = 0;
    for (std::uint32_t b = 0; b < blocks; ++b)
      total += partials[b];
    out[2 * i + round] = total;
    value *= 2;
    pyk_cpu_grid_sync("grid_sum.pyk:15:9");
  }
}

TEST_F(CpuGridSync, BlockBarriersAndGridSyncsTogether) {
  const Dim3 grid{6}, block{4, 8};
  const std::uint64_t n = gridBlocks(grid) * threadsOf(block);
  std::vector<std::int64_t> partials(gridBlocks(grid), 0), out(2 * n, 0);
  launchGrid<gridSumThread, false, 32 * sizeof(std::int64_t)>({grid, block}, partials.data(), out.data());
  const std::int64_t total = static_cast<std::int64_t>(n * (n + 1) / 2);
  for (std::uint64_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[2 * i], total) << "thread " << i;
    ASSERT_EQ(out[2 * i + 1], 2 * total) << "thread " << i;
  }
}

//===--- Numba's example: sequential rows ----------------------------------===//

/// Columns of the sequential-rows matrix: one per thread of the grid.
constexpr std::int64_t columns = 1024;

/// Numba's documentation of grid groups: each row's elements (args[1] rows
/// of `columns`) are one more than the element of the opposite column in
/// the row above, which another block wrote, so every row needs a grid
/// sync.
void sequentialRowsThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t,
                          std::uint32_t) {
  auto m = fiberArg<std::int64_t *>(args, 0);
  auto rows = fiberArg<std::int64_t>(args, 1);
  const std::int64_t col = std::int64_t{block->blockIdx[0]} * block->blockDim[0] + x;
  for (std::int64_t row = 1; row < rows; ++row) {
    const std::int64_t opposite = columns - col - 1;
    m[row * columns + col] = m[(row - 1) * columns + opposite] + 1;
    pyk_cpu_grid_sync("sequential_rows.pyk:12:9");
  }
}

/// Whether every element of row r is r.
::testing::AssertionResult rowsAreSequential(const std::vector<std::int64_t> &m) {
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i] != static_cast<std::int64_t>(i) / columns)
      return ::testing::AssertionFailure() << "M[" << i / columns << ", " << i % columns << "] is " << m[i];
  return ::testing::AssertionSuccess();
}

TEST_F(CpuGridSync, NumbasSequentialRows) {
  // 32 blocks of 32 threads and 1023 grid syncs, as Numba launches it.
  const std::int64_t rows = 1024;
  std::vector<std::int64_t> m(rows * columns, 0);
  const auto start = std::chrono::steady_clock::now();
  launchGrid<sequentialRowsThread>({columns / 32, 32}, m.data(), rows);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(rowsAreSequential(m));
  EXPECT_LT(seconds, 60) << "1023 grid syncs of 32 blocks";
}

//===--- Streams -----------------------------------------------------------===//

TEST_F(CpuGridSync, OnAStream) {
  Stream stream;
  checkPhases({8}, {32}, 50, &stream);
  checkPhases({3, 2}, {5, 2}, 50, &stream);
}

TEST_F(CpuGridSync, TwoStreamsAtOnce) {
  // Each launch has a barrier of its own: the two grids' blocks all run at
  // once, and neither's syncs wait for the other's blocks.
  Stream first, second;
  const std::int64_t rows = 200;
  std::vector<std::int64_t> a(rows * columns, 0), b(rows * columns, 0);
  launchGrid<sequentialRowsThread>({columns / 32, 32, 0, &first}, a.data(), rows);
  launchGrid<sequentialRowsThread>({columns / 64, 64, 0, &second}, b.data(), rows);
  // The default stream waits for both.
  std::vector<std::int64_t> buffers(2 * 64, 1);
  launchGrid<phasesThread>({4, 16}, buffers.data(), 20u);
  EXPECT_TRUE(rowsAreSequential(a));
  EXPECT_TRUE(rowsAreSequential(b));
  first.synchronize();
  second.synchronize();
}

//===--- Misuse ------------------------------------------------------------===//

/// Grid syncs (the phases kernel) still work after an error.
void gridSyncsStillWork() {
  checkPhases({4}, {8}, 20);
}

std::atomic<int> arrivedBeforeReturning{0};
std::atomic<int> finishedBlocks{0};

/// Block args[0] of a 1-D grid returns at once; the other blocks' threads
/// sync. With args[1] set, the returning block's first thread waits until
/// every other thread is about to sync (and a while more, for them to
/// arrive), so that the block finishes while they wait.
void earlyReturnThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                       std::uint32_t z) {
  auto returning = fiberArg<std::uint32_t>(args, 0);
  auto waitForOthers = fiberArg<std::uint32_t>(args, 1);
  const int others = static_cast<int>((block->gridDim[0] - 1) * blockThreads(block));
  if (linearBlock(block) == returning) {
    if (waitForOthers && linearThread(block, x, y, z) == 0) {
      while (arrivedBeforeReturning.load() < others)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return;
  }
  ++arrivedBeforeReturning;
  pyk_cpu_grid_sync("early.pyk:5:5");
}

/// Block args[0] (of one thread) returns at once; the other blocks wait
/// until it is about to (and a while more, for the launch to hear that it
/// has finished), then sync.
void lateArrivalThread(void **args, const CpuBlockContext *block, void *, std::uint32_t, std::uint32_t, std::uint32_t) {
  auto returning = fiberArg<std::uint32_t>(args, 0);
  if (linearBlock(block) == returning) {
    ++finishedBlocks;
    return;
  }
  while (finishedBlocks.load() == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  pyk_cpu_grid_sync("late.pyk:8:5");
}

TEST_F(CpuGridSync, ABlockFinishingWhileOthersWaitIsAnError) {
  arrivedBeforeReturning = 0;
  std::string message = kernelError([] { launchGrid<earlyReturnThread>({4, 8}, 2u, 1u); });
  EXPECT_THAT(message,
              MatchesRegex("block \\(2, 0, 0\\) finished \\(every thread of it returned\\) while block \\([013], 0, "
                           "0\\) waits at cuda\\.cg\\.this_grid\\(\\)\\.sync\\(\\) at early\\.pyk:5:5: every block of "
                           "the grid must reach each grid sync, and a GPU would wait for the finished block "
                           "forever"));
  gridSyncsStillWork();
}

TEST_F(CpuGridSync, ABlockArrivingAfterOneFinishedIsAnError) {
  finishedBlocks = 0;
  std::string message = kernelError([] { launchGrid<lateArrivalThread>({2, 1}, 1u); });
  EXPECT_EQ(message, "block (0, 0, 0) reached cuda.cg.this_grid().sync() at late.pyk:8:5 after block (1, 0, 0) had "
                     "finished (every thread of it returned): every block of the grid must reach each grid sync, and "
                     "a GPU would wait for the finished block forever");
  gridSyncsStillWork();
}

TEST_F(CpuGridSync, ABlockReturningEarlyAmongManyIsAnError) {
  // Whether block 5 finishes before the others arrive or while they wait
  // depends on the timing; it is an error either way, naming it.
  std::string message = kernelError([] { launchGrid<earlyReturnThread>({12, 16}, 5u, 0u); });
  EXPECT_THAT(message,
              AnyOf(MatchesRegex("block \\(5, 0, 0\\) finished \\(every thread of it returned\\) while block "
                                 "\\([0-9]+, 0, 0\\) waits at cuda\\.cg\\.this_grid\\(\\)\\.sync\\(\\) at "
                                 "early\\.pyk:5:5: .*"),
                    MatchesRegex("block \\([0-9]+, 0, 0\\) reached cuda\\.cg\\.this_grid\\(\\)\\.sync\\(\\) at "
                                 "early\\.pyk:5:5 after block \\(5, 0, 0\\) had finished \\(every thread of it "
                                 "returned\\): .*")));
  gridSyncsStillWork();
}

/// As phasesThread, on the first args[2] elements only: the threads past
/// them return first, as in Numba's heat-equation example (`if i >= n:
/// return` before the loop of syncs), which a GPU runs.
void boundedPhasesThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                         std::uint32_t z) {
  auto buffers = fiberArg<std::int64_t *>(args, 0);
  auto phases = fiberArg<std::uint32_t>(args, 1);
  auto n = fiberArg<std::uint64_t>(args, 2);
  const std::uint64_t i = globalThread(block, x, y, z);
  if (i >= n)
    return;
  for (std::uint32_t p = 0; p < phases; ++p) {
    const std::int64_t *from = buffers + (p % 2) * n;
    std::int64_t *to = buffers + ((p + 1) % 2) * n;
    to[i] = nextValue(from[i], from[(i + 1) % n], p);
    pyk_cpu_grid_sync("heat.pyk:14:9");
  }
}

TEST_F(CpuGridSync, ThreadsThatReturnedBeforeAGridSyncAreNotWaitedFor) {
  // 6 blocks of 32: the last has 8 threads left, the one before all.
  const std::uint64_t n = 5 * 32 + 8;
  const std::uint32_t phases = 9;
  std::vector<std::int64_t> buffers(2 * n);
  for (std::uint64_t i = 0; i < n; ++i)
    buffers[i] = static_cast<std::int64_t>(i * 5 % 13);
  const std::vector<std::int64_t> expected =
      afterPhases(std::vector<std::int64_t>(buffers.begin(), buffers.begin() + n), phases, 1);
  launchGrid<boundedPhasesThread>({6, 32}, buffers.data(), phases, n);
  std::vector<std::int64_t> got(buffers.begin() + (phases % 2) * n, buffers.begin() + (phases % 2 + 1) * n);
  EXPECT_EQ(got, expected);
}

/// In block args[0], thread `args[1]` returns before the grid sync.
void skippedSyncThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                       std::uint32_t z) {
  if (linearBlock(block) == fiberArg<std::uint32_t>(args, 0) &&
      linearThread(block, x, y, z) == fiberArg<std::uint32_t>(args, 1))
    return;
  pyk_cpu_grid_sync("kern.pyk:12:9");
}

TEST_F(CpuGridSync, ABlocksFirstThreadReturningBeforeAGridSyncIsAnError) {
  std::string message = kernelError([] { launchGrid<skippedSyncThread>({6, 32}, 3u, 0u); });
  EXPECT_EQ(message, "cuda.cg.this_grid().sync() at kern.pyk:12:9 was not reached by thread (0, 0, 0) of block "
                     "(3, 0, 0), which had returned: the first thread of each block stands for its block at the "
                     "grid's barrier, so a GPU would wait for it forever (the block's other threads may return "
                     "first)");
  gridSyncsStillWork();
  // Another thread of the block may return: the sync goes on without it.
  launchGrid<skippedSyncThread>({6, 32}, 3u, 1u);
}

/// Thread 0 of each block syncs the grid, the others the block.
void syncthreadsAtGridSyncThread(void **, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                                 std::uint32_t z) {
  if (linearThread(block, x, y, z) == 0)
    pyk_cpu_grid_sync("mixed.pyk:3:9");
  else
    pyk_cpu_syncthreads("mixed.pyk:5:9");
}

TEST_F(CpuGridSync, SyncthreadsMeetingAGridSyncIsAnError) {
  std::string message = kernelError([] { launchGrid<syncthreadsAtGridSyncThread>({1, 8}); });
  EXPECT_EQ(message, "cuda.syncthreads() at mixed.pyk:5:9 in thread (1, 0, 0) of block (0, 0, 0) meets "
                     "cuda.cg.this_grid().sync() at mixed.pyk:3:9: the threads of a block must all reach a grid sync "
                     "together, not meet syncthreads, syncthreads_count, syncthreads_and or syncthreads_or there");
}

TEST_F(CpuGridSync, AGridSyncInAKernelNotLaunchedCooperativelyIsAnError) {
  std::string message = kernelError([] { launchFibers<skippedSyncThread>({1, 4}, 99u, 99u); });
  EXPECT_EQ(message, "cuda.cg.this_grid().sync() at kern.pyk:12:9 in thread (0, 0, 0) of block (0, 0, 0): the kernel "
                     "was not launched cooperatively (its KernelInfo::gridSynchronises is false), so its blocks need "
                     "not run at once and cannot wait for each other");
}

/// Thread 5 of block 2 throws after the first grid sync; the others wait at
/// the second.
void throwingThread(void **, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  pyk_cpu_grid_sync("throw.pyk:2:5");
  if (linearBlock(block) == 2 && linearThread(block, x, y, z) == 5)
    throw std::runtime_error("thread 5 of block 2 failed");
  pyk_cpu_grid_sync("throw.pyk:5:5");
}

TEST_F(CpuGridSync, AnExceptionInOneBlockWhileOthersWaitIsReported) {
  withinAMinute([] {
    try {
      launchGrid<throwingThread>({8, 16});
      FAIL() << "no exception";
    } catch (const std::runtime_error &error) {
      EXPECT_STREQ(error.what(), "thread 5 of block 2 failed");
    }
  });
  gridSyncsStillWork();
}

/// Checked mode: thread 3 of block 1 fails a bounds check (recorded as
/// pykc's code records it), and its load's zero sends its whole block
/// past the grid sync that the other blocks wait at.
void failedCheckThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                       std::uint32_t z) {
  auto *record = fiberArg<pyk_check_record *>(args, 1);
  auto launch = fiberArg<std::uint64_t>(args, 2);
  const bool failing = linearBlock(block) == 1;
  std::uint32_t expected = 0;
  if (failing && linearThread(block, x, y, z) == 3 &&
      std::atomic_ref<std::uint32_t>(record->failed).compare_exchange_strong(expected, 1)) {
    record->site = 0;
    record->launch = launch;
    record->index = 40;
    record->extent = 32;
    const std::uint32_t thread[3] = {x, y, z};
    for (int axis = 0; axis < 3; ++axis) {
      record->thread[axis] = thread[axis];
      record->block[axis] = block->blockIdx[axis];
    }
  }
  if (failing)
    return;
  pyk_cpu_grid_sync("checked.pyk:9:5");
}

TEST_F(CpuGridSync, AFailedCheckThatMakesABlockSkipTheSyncIsWhatIsReported) {
  const char *const failure = "grid.pyk:7:9: index 40 out of bounds for axis 0 of 'x' with size 32 (thread (3,0,0) "
                              "of block (1,0,0) of kernel 'grid_kernel')";
  EXPECT_EQ(kernelError([] { launchGrid<failedCheckThread, true>({4, 8}); }), failure);
  Stream stream;
  launchGrid<failedCheckThread, true>({4, 8, 0, &stream});
  EXPECT_EQ(kernelError([&] { stream.synchronize(); }), failure);
  gridSyncsStillWork();
}

//===--- A grid too large to run at once -----------------------------------===//

std::atomic<int> threadsRun{0};

void countingThread(void **, const CpuBlockContext *, void *, std::uint32_t, std::uint32_t, std::uint32_t) {
  ++threadsRun;
  pyk_cpu_grid_sync("count.pyk:3:5");
}

/// The LaunchConfigError message `launch` throws (empty, and a failure, if
/// none).
std::string launchConfigError(const std::function<void()> &launch) {
  try {
    launch();
    ADD_FAILURE() << "no LaunchConfigError";
  } catch (const LaunchConfigError &error) {
    return error.what();
  }
  return "";
}

TEST_F(CpuGridSync, AGridTooLargeToRunAtOnceIsRejectedBeforeAnythingRuns) {
  threadsRun = 0;
  EXPECT_EQ(launchConfigError([] {
              launchGrid<countingThread>({1025, 1});
            }),
            "pyk: cannot launch grid_kernel (from grid.pyk) with grid (1025, 1, 1) and block (1, 1, 1): the kernel "
            "synchronises its grid (cuda.cg.this_grid().sync()), so it is launched cooperatively, with every block "
            "running at once; the grid has 1025 blocks, and the CPU device runs at most 1024 blocks of 1 thread at "
            "once (each block on an OS thread of its own, at most 1024 blocks and 16384 threads in all): launch at "
            "most 1024 blocks");
  EXPECT_EQ(launchConfigError([] {
              launchGrid<countingThread>({{2, 1, 9}, 1024});
            }),
            "pyk: cannot launch grid_kernel (from grid.pyk) with grid (2, 1, 9) and block (1024, 1, 1): the kernel "
            "synchronises its grid (cuda.cg.this_grid().sync()), so it is launched cooperatively, with every block "
            "running at once; the grid has 18 blocks, and the CPU device runs at most 16 blocks of 1024 threads at "
            "once (each block on an OS thread of its own, at most 1024 blocks and 16384 threads in all): launch at "
            "most 16 blocks");
  // On a stream too, it is the launch that throws, not the stream's work.
  Stream stream;
  EXPECT_EQ(launchConfigError([&] {
              launchGrid<countingThread>({{11, 3}, {32, 16}, 0, &stream});
            }),
            "pyk: cannot launch grid_kernel (from grid.pyk) with grid (11, 3, 1) and block (32, 16, 1): the kernel "
            "synchronises its grid (cuda.cg.this_grid().sync()), so it is launched cooperatively, with every block "
            "running at once; the grid has 33 blocks, and the CPU device runs at most 32 blocks of 512 threads at "
            "once (each block on an OS thread of its own, at most 1024 blocks and 16384 threads in all): launch at "
            "most 32 blocks");
  stream.synchronize();
  EXPECT_EQ(threadsRun.load(), 0);
  // What fits runs.
  launchGrid<countingThread>({{4, 2}, {32, 16}, 0, &stream});
  stream.synchronize();
  EXPECT_EQ(threadsRun.load(), 8 * 512);
}

//===--- PYK_CPU_LAUNCH_TIMEOUT --------------------------------------------===//

/// Block 1 never finishes (a loop without calls); the others wait for it at
/// the grid sync.
void neverArrivingThread(void **, const CpuBlockContext *block, void *, std::uint32_t, std::uint32_t, std::uint32_t) {
  volatile int forever = 1;
  while (linearBlock(block) == 1 && forever) {
  }
  pyk_cpu_grid_sync("never.pyk:4:5");
}

TEST(CpuGridSyncDeathTest, ABlockThatNeverArrivesIsReportedByTheWatchdog) {
  // A death test: the statement runs in a fresh process, which selects the
  // device with the environment it sets.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("PYK_DEVICE", "cpu", 1);
        setenv("PYK_CPU_LAUNCH_TIMEOUT", "0.2", 1);
        launchGrid<neverArrivingThread>({4, 8});
        std::exit(0);
      },
      testing::KilledBySignal(SIGABRT),
      "pyk: kernel grid_kernel \\(from grid\\.pyk\\) has run for more than PYK_CPU_LAUNCH_TIMEOUT=0\\.2 seconds and "
      "its block \\([0-3], 0, 0\\) has not finished; ");
}

} // namespace
} // namespace pyk::test
