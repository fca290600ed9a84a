//===- CpuFiberErrorsTest.cpp - Misused barriers and warp operations --------===//
//
// Misuse that CUDA leaves undefined is a KernelError naming the call and the
// block, raised by the launch (or the stream's synchronize()), never a hang;
// a C++ exception thrown on a fiber reaches the launcher as it is; the
// runtime works afterwards. Also: a fiber's stack overflow faults on its
// guard, and PYK_CPU_FIBER_STACK sets the stacks' size.
//
//===----------------------------------------------------------------------===//
#include "FiberKernels.h"
#include "MisuseErrors.h"
#include "TestSupport.h"

#include <gmock/gmock.h>

#include <sys/resource.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

constexpr std::uint32_t fullMask = 0xffffffffu;

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PYK_TEST_TSAN 1
#endif
#if __has_feature(address_sanitizer)
#define PYK_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(PYK_TEST_TSAN)
constexpr bool underThreadSanitizer = true;
#else
constexpr bool underThreadSanitizer = false;
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(PYK_TEST_ASAN)
constexpr bool underAddressSanitizer = true;
#else
constexpr bool underAddressSanitizer = false;
#endif

/// One block of 256 threads per block, summed by a tree reduction; checks
/// the runtime still runs kernels that synchronise after an error.
void blockSumsStillWork();

class CpuFiberErrors : public CpuDeviceTest {};

//===--- Barriers --------------------------------------------------------===//

/// Threads from 224 on return before the barrier; the others count, at the
/// barrier, how many of them arrived (out[block]) and each adds 1 to
/// out[blocks + block] after it.
void returnsBeforeBarrierThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x,
                                std::uint32_t y, std::uint32_t z) {
  auto out = fiberArg<std::int64_t *>(args, 0);
  const std::uint32_t blocks = block->gridDim[0];
  if (linearThread(block, x, y, z) >= 224)
    return;
  const std::int32_t arrived = pyk_cpu_syncthreads_count(1, "kern.pyk:12:9");
  if (linearThread(block, x, y, z) == 0)
    out[linearBlock(block)] = arrived;
  pyk_cpu_syncthreads("kern.pyk:14:9");
  __atomic_fetch_add(&out[blocks + linearBlock(block)], 1, __ATOMIC_RELAXED);
}

TEST_F(CpuFiberErrors, ABarrierDoesNotWaitForThreadsThatReturned) {
  // As PTX's bar.sync waits for the threads that have not exited, and
  // Numba's simulator for those still alive.
  std::vector<std::int64_t> out(12, 0);
  launchFibers<returnsBeforeBarrierThread>({6, 256}, out.data());
  synchronize();
  for (int b = 0; b < 6; ++b) {
    EXPECT_EQ(out[b], 224) << "block " << b;
    EXPECT_EQ(out[6 + b], 224) << "block " << b;
  }
}

/// Every thread of a 3-D block but (1, 2, 3) returns before the barrier.
void loneBarrierThread(void **args, const CpuBlockContext *, void *, std::uint32_t x, std::uint32_t y,
                       std::uint32_t z) {
  if (x == 1 && y == 2 && z == 3)
    *fiberArg<std::int32_t *>(args, 0) = pyk_cpu_syncthreads_and(1, "lone.pyk:3:12");
}

TEST_F(CpuFiberErrors, ABarrierOneThreadReachesOpensForIt) {
  std::int32_t result = -1;
  launchFibers<loneBarrierThread>({1, {4, 4, 4}}, &result);
  synchronize();
  EXPECT_EQ(result, 1);
}

/// Thread 0 waits at syncthreads_count, the others at syncthreads.
void mixedBarriersThread(void **, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                         std::uint32_t z) {
  if (linearThread(block, x, y, z) == 0)
    pyk_cpu_syncthreads_count(1, "mixed.pyk:3:9");
  else
    pyk_cpu_syncthreads("mixed.pyk:5:9");
}

TEST_F(CpuFiberErrors, WhenEveryBlockFailsTheFirstErrorWins) {
  // Each pool thread stops at its first failing block, and the blocks
  // nobody has started are skipped; which block comes first varies.
  std::string message = kernelError([] { launchFibers<mixedBarriersThread>({300, 8}); });
  EXPECT_THAT(message, MatchesRegex("cuda\\.syncthreads\\(\\) at mixed\\.pyk:5:9 in thread \\(1, 0, 0\\) of block "
                                    "\\([0-9]+, 0, 0\\) meets .*"));
  blockSumsStillWork();
}

TEST_F(CpuFiberErrors, AnErrorOnAStreamIsReportedOnceAndLaterLaunchesRun) {
  Stream stream;
  launchFibers<mixedBarriersThread>({6, 8, 0, &stream});
  std::string message = kernelError([&] { stream.synchronize(); });
  EXPECT_THAT(message, HasSubstr("meets cuda.syncthreads_count() at mixed.pyk:3:9"));
  stream.synchronize(); // reported once
  blockSumsStillWork();
}

TEST_F(CpuFiberErrors, DifferentBarrierOperationsMeetingIsAnError) {
  std::string message = kernelError([] { launchFibers<mixedBarriersThread>({1, 8}); });
  EXPECT_EQ(message,
            "cuda.syncthreads() at mixed.pyk:5:9 in thread (1, 0, 0) of block (0, 0, 0) meets "
            "cuda.syncthreads_count() at mixed.pyk:3:9: the threads of a barrier must all call the same one of "
            "syncthreads, syncthreads_count, syncthreads_and and syncthreads_or");
}

/// Thread 0 waits at the barrier; the rest of its warp at a syncwarp that
/// needs thread 0.
void barrierAgainstWarpThread(void **, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                              std::uint32_t z) {
  if (linearThread(block, x, y, z) == 0)
    pyk_cpu_syncthreads("deadlock.pyk:3:9");
  else
    pyk_cpu_syncwarp(fullMask, "deadlock.pyk:5:9");
}

TEST_F(CpuFiberErrors, ABarrierAndAWarpOperationWaitingForEachOtherIsAnError) {
  std::string message = kernelError([] { launchFibers<barrierAgainstWarpThread>({1, 32}); });
  EXPECT_EQ(message,
            "cuda.syncthreads() at deadlock.pyk:3:9 was not reached by every thread of block (0, 0, 0): "
            "cuda.syncwarp() at deadlock.pyk:5:9 with mask 0xffffffff in thread (1, 0, 0) waits for lanes that wait "
            "at the barrier");
  blockSumsStillWork();
}

//===--- Warp operations -------------------------------------------------===//
//
// Lanes that have returned, or that a partial warp lacks, are no misuse: a
// warp operation waits for the lanes of its mask that have not exited
// (CpuFibersTest.cpp). What is left is a mask without the caller and lanes
// of one effective mask that disagree.

/// Thread 0 votes with a mask that leaves it out.
void voteOutsideMaskThread(void **, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                           std::uint32_t z) {
  pyk_cpu_warp_ballot(linearThread(block, x, y, z) == 0 ? 0x6u : fullMask, 1, "vote.pyk:2:9");
}

TEST_F(CpuFiberErrors, AMaskWithoutTheCallerIsAnError) {
  std::string message = kernelError([] { launchFibers<voteOutsideMaskThread>({1, 32}); });
  EXPECT_EQ(message,
            "a warp vote at vote.pyk:2:9 with mask 0x00000006 in thread (0, 0, 0) of block (0, 0, 0): the mask leaves "
            "out the calling thread's lane 0");
}

/// Even lanes shuffle, odd lanes vote, all over the full mask.
void differentOperationsThread(void **, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                               std::uint32_t z) {
  std::uint32_t t = linearThread(block, x, y, z);
  if (t % 2 == 0)
    pyk_cpu_warp_shuffle(fullMask, t, 0, "ops.pyk:3:13");
  else
    pyk_cpu_warp_ballot(fullMask, 1, "ops.pyk:5:13");
}

TEST_F(CpuFiberErrors, LanesOfAMaskAtDifferentOperationsIsAnError) {
  std::string message = kernelError([] { launchFibers<differentOperationsThread>({1, 32}); });
  EXPECT_EQ(message,
            "a warp vote at ops.pyk:5:13 with mask 0xffffffff in thread (1, 0, 0) of block (0, 0, 0) meets a warp "
            "shuffle at ops.pyk:3:13 with mask 0xffffffff in thread (0, 0, 0): the lanes of a mask must all call the "
            "same warp operation with the same mask (or masks that differ only in lanes that have returned)");
}

/// Lane 1 calls syncwarp(0x3), the others syncwarp(`others`); lanes from
/// `firstReturning` on return at once.
void differentMasksThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                          std::uint32_t z) {
  auto others = fiberArg<std::uint32_t>(args, 0);
  auto firstReturning = fiberArg<std::uint32_t>(args, 1);
  std::uint32_t t = linearThread(block, x, y, z);
  if (t >= firstReturning)
    return;
  pyk_cpu_syncwarp(t == 1 ? 0x3u : others, "masks.pyk:3:5");
}

TEST_F(CpuFiberErrors, LanesOfAMaskWithDifferentMasksIsAnError) {
  // Lane 1 (0x3) and lane 0 (full mask) differ in lanes that have not
  // arrived yet, which might return; lane 2 arriving with the full mask
  // makes the difference final.
  std::string message = kernelError([] { launchFibers<differentMasksThread>({1, 32}, fullMask, 32u); });
  EXPECT_EQ(message,
            "cuda.syncwarp() at masks.pyk:3:5 with mask 0xffffffff in thread (2, 0, 0) of block (0, 0, 0) meets "
            "cuda.syncwarp() at masks.pyk:3:5 with mask 0x00000003 in thread (1, 0, 0): the lanes of a mask must all "
            "call the same warp operation with the same mask (or masks that differ only in lanes that have "
            "returned)");
}

TEST_F(CpuFiberErrors, MasksDifferingInALaneThatHasNotReturnedIsAnErrorAmongReturnedLanes) {
  // Lanes 16-31 return, which makes 0x0000ffff and the full mask one group,
  // but not 0x3: lane 2 takes part.
  for (std::uint32_t others : {fullMask, 0x0000ffffu}) {
    std::string message = kernelError([&] { launchFibers<differentMasksThread>({1, 32}, others, 16u); });
    char expected[400];
    std::snprintf(expected, sizeof expected,
                  "cuda.syncwarp() at masks.pyk:3:5 with mask 0x%08x in thread (2, 0, 0) of block (0, 0, 0) meets "
                  "cuda.syncwarp() at masks.pyk:3:5 with mask 0x00000003 in thread (1, 0, 0): the lanes of a mask "
                  "must all call the same warp operation with the same mask (or masks that differ only in lanes "
                  "that have returned)",
                  others);
    EXPECT_EQ(message, expected);
  }
  blockSumsStillWork();
}

/// Lane 0 calls syncwarp(full mask), lane 1 syncwarp(0x3), the others wait
/// at the barrier: lane 0 waits for them, lane 1 for lanes that might still
/// return, and neither completes.
void differentMasksAgainstBarrierThread(void **, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                                        std::uint32_t z) {
  std::uint32_t t = linearThread(block, x, y, z);
  if (t < 2)
    pyk_cpu_syncwarp(t == 0 ? fullMask : 0x3u, "pending.pyk:3:9");
  else
    pyk_cpu_syncthreads("pending.pyk:5:9");
}

TEST_F(CpuFiberErrors, MasksThatNeverAgreeBeforeABarrierIsAnError) {
  std::string message = kernelError([] { launchFibers<differentMasksAgainstBarrierThread>({1, 32}); });
  EXPECT_EQ(message,
            "cuda.syncthreads() at pending.pyk:5:9 was not reached by every thread of block (0, 0, 0): "
            "cuda.syncwarp() at pending.pyk:3:9 with mask 0xffffffff in thread (0, 0, 0) waits for lanes that wait "
            "at the barrier");
}

/// Lane 0 calls syncwarp(0x3), lane 1 syncwarp(0x6), lane 2 returns.
void overlappingMasksThread(void **, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                            std::uint32_t z) {
  std::uint32_t t = linearThread(block, x, y, z);
  if (t == 0)
    pyk_cpu_syncwarp(0x3u, "overlap.pyk:3:9");
  else if (t == 1)
    pyk_cpu_syncwarp(0x6u, "overlap.pyk:5:9");
}

TEST_F(CpuFiberErrors, OverlappingMasksIsAnError) {
  std::string message = kernelError([] { launchFibers<overlappingMasksThread>({1, 3}); });
  EXPECT_EQ(message,
            "cuda.syncwarp() at overlap.pyk:5:9 with mask 0x00000006 in thread (1, 0, 0) of block (0, 0, 0) meets "
            "cuda.syncwarp() at overlap.pyk:3:9 with mask 0x00000003 in thread (0, 0, 0): the lanes of a mask must "
            "all call the same warp operation with the same mask (or masks that differ only in lanes that have "
            "returned)");
}

//===--- C++ exceptions and stacks ---------------------------------------===//

/// Thread 5 of block 2 throws after the first barrier; the others wait at
/// the second.
void throwingThread(void **, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  pyk_cpu_syncthreads("throw.pyk:2:5");
  if (linearBlock(block) == 2 && linearThread(block, x, y, z) == 5)
    throw std::runtime_error("thread 5 of block 2 failed");
  pyk_cpu_syncthreads("throw.pyk:5:5");
}

TEST_F(CpuFiberErrors, AnExceptionOnAFiberReachesTheLauncher) {
  withinAMinute([] {
    try {
      launchFibers<throwingThread>({4, 64});
      FAIL() << "no exception";
    } catch (const std::runtime_error &error) {
      EXPECT_STREQ(error.what(), "thread 5 of block 2 failed");
    }
  });
  blockSumsStillWork();
}

void blockSumThread(void **args, const CpuBlockContext *block, void *frame, std::uint32_t x, std::uint32_t y,
                    std::uint32_t z) {
  auto out = fiberArg<std::int64_t *>(args, 0);
  auto *partial = static_cast<std::int64_t *>(frame);
  std::uint32_t t = linearThread(block, x, y, z);
  partial[t] = t;
  for (std::uint32_t half = 128; half > 0; half /= 2) {
    pyk_cpu_syncthreads("sum.pyk:5:9");
    if (t < half)
      partial[t] += partial[t + half];
  }
  if (t == 0)
    out[linearBlock(block)] = partial[0];
}

void blockSumsStillWork() {
  std::vector<std::int64_t> out(20, 0);
  launchFibers<blockSumThread, 256 * sizeof(std::int64_t)>({20, 256}, out.data());
  EXPECT_EQ(out, std::vector<std::int64_t>(20, 255 * 256 / 2));
}

/// Recurses `depth` times, 512 bytes of stack each.
std::uint64_t recurse(std::uint64_t depth) {
  volatile std::uint8_t frame[512];
  frame[0] = static_cast<std::uint8_t>(depth);
  return depth == 0 ? 0 : recurse(depth - 1) + frame[0];
}

/// Recurses deeper than any fiber stack.
void overflowingThread(void **args, const CpuBlockContext *, void *, std::uint32_t, std::uint32_t, std::uint32_t) {
  *fiberArg<std::uint64_t *>(args, 0) = recurse(std::uint64_t{1} << 40);
}

/// Uses 200 KiB of its stack.
void largeFrameThread(void **args, const CpuBlockContext *block, void *, std::uint32_t x, std::uint32_t y,
                      std::uint32_t z) {
  volatile std::uint8_t buffer[200 * 1024];
  for (std::size_t i = 0; i < sizeof buffer; i += 512)
    buffer[i] = 1;
  pyk_cpu_syncthreads("large.pyk:3:5");
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < sizeof buffer; i += 512)
    sum += buffer[i];
  fiberArg<std::uint64_t *>(args, 0)[linearThread(block, x, y, z)] = sum;
}

// Death tests: the statement runs in a fresh process (the "threadsafe"
// style), which selects the device itself, so these are not CpuDeviceTests.

TEST(CpuFiberStackDeathTest, AnOverflowFaultsOnTheGuardPage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        setenv("PYK_DEVICE", "cpu", 1);
        std::uint64_t result = 0;
        launchFibers<overflowingThread>({1, 4}, &result);
      },
      "");
}

/// Does nothing, on fibers.
void idleThread(void **, const CpuBlockContext *, void *, std::uint32_t, std::uint32_t, std::uint32_t) {}

/// The process's virtual memory, in bytes (VmSize).
std::uint64_t virtualMemory() {
  std::FILE *status = std::fopen("/proc/self/status", "r");
  char line[256];
  std::uint64_t kib = 0;
  while (status && std::fgets(line, sizeof line, status))
    if (std::sscanf(line, "VmSize: %lu kB", &kib) == 1)
      break;
  if (status)
    std::fclose(status);
  return kib * 1024;
}

/// In a fresh process: a launch that needs more stacks than the address
/// space allows fails, saying why (on stderr), and smaller ones still run.
void runOutOfStacks() {
  setenv("PYK_DEVICE", "cpu", 1);
  setenv("PYK_CPU_THREADS", "1", 1);
  launchFibers<idleThread>({1, 64}); // selects the device and makes 64 stacks
  // Room for what the launch allocates, not for 1024 stacks of 128 KiB (64
  // KiB and the guard) of address space.
  rlimit limit{virtualMemory() + (16 << 20), RLIM_INFINITY};
  setrlimit(RLIMIT_AS, &limit);
  try {
    launchFibers<idleThread>({1, 1024});
    std::fprintf(stderr, "no error\n");
  } catch (const Error &error) {
    std::fprintf(stderr, "%s\n", error.what());
  }
  launchFibers<idleThread>({1, 64});
  std::exit(0);
}

TEST(CpuFiberStackDeathTest, RunningOutOfStacksIsAnErrorAndTheRuntimeGoesOn) {
  if (underThreadSanitizer)
    GTEST_SKIP() << "ThreadSanitizer maps memory of its own for each fiber, and runs out first";
  if (underAddressSanitizer)
    GTEST_SKIP() << "AddressSanitizer maps memory of its own (its thread bookkeeping) while the address space is at "
                    "the limit, and dies of it first";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(runOutOfStacks(), testing::ExitedWithCode(0),
              "pyk: cannot map a fiber stack of 65536 bytes for the CPU device: Cannot allocate memory; each thread "
              "of a block that synchronises needs one on the CPU thread that runs the block, in two memory mappings "
              "\\(see PYK_CPU_FIBER_STACK, PYK_CPU_THREADS and the kernel's vm\\.max_map_count\\)\n$");
}

TEST(CpuFiberStackDeathTest, PykCpuFiberStackSetsTheSize) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("PYK_DEVICE", "cpu", 1);
        setenv("PYK_CPU_FIBER_STACK", "262144", 1);
        std::vector<std::uint64_t> sums(64, 0);
        launchFibers<largeFrameThread>({1, 64}, sums.data());
        std::exit(sums == std::vector<std::uint64_t>(64, 400) ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
}

} // namespace
} // namespace pyk::test
