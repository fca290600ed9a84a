//===- CpuLaunchTimeoutTest.cpp - PYK_CPU_LAUNCH_TIMEOUT ---------------------===//
//
// A block that never finishes, with the timeout set, aborts the program
// naming the kernel and the block; launches that finish in time, however
// many, run as usual. Death tests: each runs in a fresh process (the
// "threadsafe" style), which selects the device itself with the
// environment the test sets.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace pyk::test {
namespace {

/// Block args[0] (an x index) never finishes: a loop without calls, which
/// nothing can interrupt from inside.
void spinInBlockCpu(void **args, const detail::CpuBlockContext *block) {
  std::int64_t spinning;
  std::memcpy(&spinning, args[0], sizeof spinning);
  if (block->blockIdx[0] != spinning)
    return;
  volatile int forever = 1;
  while (forever) {
  }
}

/// Every block sleeps for args[0] milliseconds.
void sleepInBlockCpu(void **args, const detail::CpuBlockContext *) {
  std::int64_t milliseconds;
  std::memcpy(&milliseconds, args[0], sizeof milliseconds);
  std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
}

const detail::KernelModule timeoutModule{"spin.pyk", nullptr};
detail::KernelInfo spinInBlockKernel{&timeoutModule, "spin_in_block", spinInBlockCpu, 1};
detail::KernelInfo sleepInBlockKernel{&timeoutModule, "sleep_in_block", sleepInBlockCpu, 1};

void launchWithArgument(detail::KernelInfo &kernel, const Launch &config, std::int64_t value) {
  void *args[] = {&value};
  detail::launch(kernel, config, args);
}

void selectCpuWithTimeout(const char *seconds) {
  setenv("PYK_DEVICE", "cpu", 1);
  setenv("PYK_CPU_LAUNCH_TIMEOUT", seconds, 1);
}

const char *const runawayBlock2 =
    "pyk: kernel spin_in_block \\(from spin\\.pyk\\) has run for more than PYK_CPU_LAUNCH_TIMEOUT=0\\.2 seconds and "
    "its block \\(2, 0, 0\\) has not finished; a CPU thread cannot be stopped safely, so the program aborts \\(look "
    "for a loop in the kernel that never ends, or raise PYK_CPU_LAUNCH_TIMEOUT\\)\n";

TEST(CpuLaunchTimeoutDeathTest, ARunawayBlockAbortsNamingTheKernelAndTheBlock) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        selectCpuWithTimeout("0.2");
        launchWithArgument(spinInBlockKernel, {4, 32}, 2);
        std::exit(0);
      },
      testing::KilledBySignal(SIGABRT), runawayBlock2);
}

TEST(CpuLaunchTimeoutDeathTest, ARunawayBlockOnAStreamAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        selectCpuWithTimeout("0.2");
        Stream stream;
        launchWithArgument(spinInBlockKernel, {4, 32, 0, &stream}, 2);
        stream.synchronize();
        std::exit(0);
      },
      testing::KilledBySignal(SIGABRT), runawayBlock2);
}

TEST(CpuLaunchTimeoutDeathTest, TheTimeoutIsPerLaunch) {
  // Eight launches of 60 ms take longer than the timeout together, and
  // blocks that wait on a stream's queue are not timed.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        selectCpuWithTimeout("0.3");
        Stream stream;
        for (int i = 0; i < 8; ++i)
          launchWithArgument(sleepInBlockKernel, {1, 1, 0, &stream}, 60);
        stream.synchronize();
        for (int i = 0; i < 8; ++i)
          launchWithArgument(sleepInBlockKernel, {1, 1}, 60);
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
}

} // namespace
} // namespace pyk::test
