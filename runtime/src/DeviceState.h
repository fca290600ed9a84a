//===- DeviceState.h - The selected device, as the runtime sees it ---------===//
//
// The devices are found once per process (Device.cpp); everything else in
// the runtime reads them through deviceState(), the calling thread's
// current device, or deviceState(index), the device an array or stream
// belongs to. For a GPU it holds the loaded driver, the device, its primary
// context and the limits a launch is checked against; for a CPU device, the
// number of threads, the size of its fibers' stacks and the launch timeout
// (the same for every CPU device: they share the threads).
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_DEVICESTATE_H
#define PYK_RUNTIME_DEVICESTATE_H

#include "CudaDriver.h"
#include "pyk/Device.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace pyk::detail {

/// What a launch is checked against before it runs.
struct LaunchLimits {
  std::uint64_t maxThreadsPerBlock = 1024;
  std::uint64_t maxBlock[3] = {1024, 1024, 64};
  std::uint64_t maxGrid[3] = {2147483647, 65535, 65535};
  /// The most dynamic shared memory a launch may ask for.
  std::size_t maxSharedBytes = 48 * 1024;
};

/// The most stack a fiber of the CPU device may get: what 1024 fibers on
/// each CPU thread can reserve (256 GiB of address space per thread).
inline constexpr std::size_t maxCpuFiberStackBytes = 256 * 1024 * 1024;

/// The most devices the runtime uses (more GPUs than this are left out).
inline constexpr int maxDevices = 64;

struct DeviceState {
  int index = 0;
  DeviceKind kind = DeviceKind::Cpu;
  std::string name; ///< device_name()
  std::size_t memoryBytes = 0;
  LaunchLimits limits;

  // CPU device.
  unsigned cpuThreads = 1; ///< threads that run blocks, the launching one included
  /// The stack of each fiber (a GPU thread of a block that synchronises),
  /// besides the kernel's local arrays (KernelInfo::localMemoryBytes).
  std::size_t cpuFiberStackBytes = 64 * 1024;
  /// PYK_CPU_LAUNCH_TIMEOUT: a launch running longer aborts the program,
  /// saying which block has not finished (LaunchWatchdog.h); 0: no limit.
  double cpuLaunchTimeoutSeconds = 0;

  // GPU.
  const cuda::Driver *cu = nullptr;
  cuda::CUdevice device = 0;
  cuda::CUcontext context = nullptr;
  int computeMajor = 0, computeMinor = 0;
  /// Streaming multiprocessors: a cooperative launch's grid holds at most
  /// this many times the blocks one of them holds at once.
  unsigned multiprocessors = 1;
  /// Dynamic shared memory a kernel gets without opting in (48 KiB).
  std::size_t defaultSharedBytes = 48 * 1024;
};

/// The calling thread's current device; finds the devices on the first
/// call (thread-safe). Throws DeviceError, on this and every later call,
/// when the requested device cannot be used.
const DeviceState &deviceState();
/// Device `index` (0 <= index < deviceCount()).
const DeviceState &deviceState(int index);
int deviceCount();
/// The calling thread's current device's index, without finding the devices.
int currentDeviceIndex();

/// The current GPU's state with its primary context current in the calling
/// thread (one thread-local comparison when it already is). Only for GPUs.
const DeviceState &cudaState();
/// GPU `index`, with its primary context current in the calling thread
/// (until the next cudaState call for another device).
const DeviceState &cudaState(int index);

/// Throws DeviceError: `what` (on device `found`) was used where device
/// `expected` is, in `operation`.
[[noreturn]] void rejectOtherDevice(const std::string &operation, const std::string &what, int found, int expected);

} // namespace pyk::detail

#endif // PYK_RUNTIME_DEVICESTATE_H
