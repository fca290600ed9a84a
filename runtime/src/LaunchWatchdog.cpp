//===- LaunchWatchdog.cpp - PYK_CPU_LAUNCH_TIMEOUT on the CPU device -------===//
//
// Each OS thread that runs a watched block has a ThreadSlot (thread-local,
// registered with the watchdog while the thread lives) holding the launch
// and block it runs, under the slot's mutex. The watchdog locks a slot to
// read it, so the launch it points to (on its launcher's stack, alive until
// all its blocks have left their slots) cannot go away meanwhile.
//
//===----------------------------------------------------------------------===//
#include "LaunchWatchdog.h"

#include "DeviceState.h"
#include "LaunchCheck.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace pyk::detail {
namespace {

using Clock = std::chrono::steady_clock;

/// What one OS thread runs, for the watchdog.
struct ThreadSlot {
  std::mutex mutex;
  const WatchedLaunch *launch = nullptr; ///< null: no watched block
  std::uint32_t block[3] = {};
  ThreadSlot *next = nullptr; ///< the watchdog's list; guarded by its mutex

  ThreadSlot();
  ~ThreadSlot();
  ThreadSlot(const ThreadSlot &) = delete;
  ThreadSlot &operator=(const ThreadSlot &) = delete;
};

class Watchdog {
public:
  explicit Watchdog(double seconds)
      : seconds_(seconds),
        timeout_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds))) {
    thread_ = std::thread([this] { run(); });
  }

  void add(ThreadSlot &slot) {
    std::lock_guard lock(mutex_);
    slot.next = slots_;
    slots_ = &slot;
  }

  void remove(ThreadSlot &slot) {
    std::lock_guard lock(mutex_);
    for (ThreadSlot **link = &slots_; *link; link = &(*link)->next) {
      if (*link == &slot) {
        *link = slot.next;
        return;
      }
    }
  }

  /// Stops and joins the watchdog's thread (at exit).
  void stop() noexcept {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    stopRequested_.notify_all();
    thread_.join();
  }

private:
  void run() {
    const Clock::duration period =
        std::clamp<Clock::duration>(timeout_ / 4, std::chrono::milliseconds(1), std::chrono::seconds(1));
    std::unique_lock lock(mutex_);
    while (!stopRequested_.wait_for(lock, period, [&] { return stopping_; })) {
      const Clock::time_point now = Clock::now();
      for (ThreadSlot *slot = slots_; slot; slot = slot->next) {
        std::lock_guard slotLock(slot->mutex);
        if (slot->launch && now - slot->launch->start > timeout_)
          report(*slot);
      }
    }
  }

  /// Says which kernel and block ran too long, and aborts.
  [[noreturn]] void report(const ThreadSlot &slot) const {
    const std::string kernel = kernelLabel(*slot.launch->kernel);
    std::fprintf(stderr,
                 "pyk: kernel %s has run for more than PYK_CPU_LAUNCH_TIMEOUT=%g seconds and its block (%u, %u, %u) "
                 "has not finished; a CPU thread cannot be stopped safely, so the program aborts (look for a loop "
                 "in the kernel that never ends, or raise PYK_CPU_LAUNCH_TIMEOUT)\n",
                 kernel.c_str(), seconds_, slot.block[0], slot.block[1], slot.block[2]);
    std::fflush(stderr);
    std::abort();
  }

  std::mutex mutex_;
  std::condition_variable stopRequested_;
  bool stopping_ = false;
  ThreadSlot *slots_ = nullptr;
  const double seconds_;
  const Clock::duration timeout_;
  std::thread thread_;
};

/// Started once by watchLaunch; never destroyed, so that the slots of
/// threads ending after the program's statics can still unregister.
Watchdog *watchdog = nullptr;

/// Joins the watchdog's thread when the program exits.
struct WatchdogShutdown {
  ~WatchdogShutdown() { watchdog->stop(); }
};

ThreadSlot::ThreadSlot() {
  watchdog->add(*this);
}

ThreadSlot::~ThreadSlot() {
  watchdog->remove(*this);
}

ThreadSlot &slotOfThisThread() {
  thread_local ThreadSlot slot;
  return slot;
}

} // namespace

const WatchedLaunch *watchLaunch(const KernelInfo &kernel, WatchedLaunch &storage) {
  const double seconds = deviceState().cpuLaunchTimeoutSeconds;
  if (seconds <= 0)
    return nullptr;
  static std::once_flag started;
  std::call_once(started, [seconds] {
    watchdog = new Watchdog(seconds);
    static WatchdogShutdown shutdownAtExit;
  });
  storage = WatchedLaunch{&kernel, Clock::now()};
  return &storage;
}

WatchedBlock::WatchedBlock(const WatchedLaunch *launch, const std::uint32_t blockIdx[3]) noexcept : launch_(launch) {
  if (!launch_)
    return;
  ThreadSlot &slot = slotOfThisThread();
  std::lock_guard lock(slot.mutex);
  outerLaunch_ = slot.launch;
  std::copy(slot.block, slot.block + 3, outerBlock_);
  slot.launch = launch_;
  std::copy(blockIdx, blockIdx + 3, slot.block);
}

WatchedBlock::~WatchedBlock() {
  if (!launch_)
    return;
  ThreadSlot &slot = slotOfThisThread();
  std::lock_guard lock(slot.mutex);
  slot.launch = outerLaunch_;
  std::copy(outerBlock_, outerBlock_ + 3, slot.block);
}

} // namespace pyk::detail
