//===- DeviceState.h - The selected device, as the runtime sees it ---------===//
//
// The device is selected once per process (Device.cpp); everything else in
// the runtime reads the result through deviceState(). For the GPU it holds
// the loaded driver, the device, its primary context and the limits a launch
// is checked against; for the CPU device, the number of threads, the size
// of its fibers' stacks and the launch timeout.
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

struct DeviceState {
  DeviceKind kind = DeviceKind::Cpu;
  std::string name; ///< device_name()
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

/// The selected device; selects it on the first call (thread-safe). Throws
/// DeviceError, on this and every later call, when the requested device
/// cannot be used.
const DeviceState &deviceState();

/// The GPU's state with its primary context current in the calling thread
/// (one thread-local comparison when it already is). Only for the GPU.
const DeviceState &cudaState();

} // namespace pyk::detail

#endif // PYK_RUNTIME_DEVICESTATE_H
