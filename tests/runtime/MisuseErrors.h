//===- MisuseErrors.h - Misuse of barriers must be an error, not a hang ----===//
//
// What the CPU device's misuse tests (CpuFiberErrorsTest, CpuGridSyncTest)
// share: a watchdog that ends the test program, saying which test hung,
// when a misused barrier or grid sync hangs instead of failing, and the
// message of the KernelError a launch throws.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_TEST_MISUSEERRORS_H
#define PYK_TEST_MISUSEERRORS_H

#include "pyk/Error.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace pyk::test {

/// Runs `body`; ends the test program, saying why, if it has not returned
/// after a minute (misuse must be an error, not a hang).
inline void withinAMinute(const std::function<void()> &body) {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::thread watchdog([&] {
    std::unique_lock lock(mutex);
    if (!finished.wait_for(lock, std::chrono::minutes(1), [&] { return done; })) {
      std::fprintf(stderr, "%s hung\n", testing::UnitTest::GetInstance()->current_test_info()->name());
      std::abort();
    }
  });
  body();
  {
    std::lock_guard lock(mutex);
    done = true;
  }
  finished.notify_one();
  watchdog.join();
}

/// The KernelError message `work` throws (empty, and a failure, if none).
inline std::string kernelError(const std::function<void()> &work) {
  std::string message;
  withinAMinute([&] {
    try {
      work();
      ADD_FAILURE() << "no KernelError";
    } catch (const KernelError &error) {
      message = error.what();
    }
  });
  return message;
}

} // namespace pyk::test

#endif // PYK_TEST_MISUSEERRORS_H
