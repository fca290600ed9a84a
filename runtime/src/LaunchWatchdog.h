//===- LaunchWatchdog.h - PYK_CPU_LAUNCH_TIMEOUT on the CPU device ---------===//
//
// With PYK_CPU_LAUNCH_TIMEOUT set, each thread that runs a block says which
// (WatchedBlock), and a watchdog thread looks at them every quarter of the
// timeout. A block still running when its launch has run for longer than
// the timeout is reported on stderr, naming the kernel and the block, and
// the program aborts: a CPU thread cannot be stopped safely (a kernel in a
// loop without calls never looks at a flag, and a thread left spinning
// would go on writing memory the program frees or reuses), and a test or
// a job is better off failing, saying why, than hanging.
//
// Without the variable nothing is started and a block costs nothing more.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_LAUNCHWATCHDOG_H
#define PYK_RUNTIME_LAUNCHWATCHDOG_H

#include "pyk/Launch.h"

#include <chrono>
#include <cstdint>

namespace pyk::detail {

/// A launch the watchdog times.
struct WatchedLaunch {
  const KernelInfo *kernel;
  std::chrono::steady_clock::time_point start;
};

/// The launch about to run, timed from now; null (nothing to watch) when
/// PYK_CPU_LAUNCH_TIMEOUT is not set. Starts the watchdog on first use.
const WatchedLaunch *watchLaunch(const KernelInfo &kernel, WatchedLaunch &storage);

/// While alive, the calling thread runs block `blockIdx` of `launch` (a
/// no-op when `launch` is null). Nests: a block that launches on the
/// default stream runs the blocks of that launch in its own thread.
class WatchedBlock {
public:
  WatchedBlock(const WatchedLaunch *launch, const std::uint32_t blockIdx[3]) noexcept;
  ~WatchedBlock();
  WatchedBlock(const WatchedBlock &) = delete;
  WatchedBlock &operator=(const WatchedBlock &) = delete;

private:
  const WatchedLaunch *launch_;
  const WatchedLaunch *outerLaunch_ = nullptr;
  std::uint32_t outerBlock_[3] = {};
};

} // namespace pyk::detail

#endif // PYK_RUNTIME_LAUNCHWATCHDOG_H
