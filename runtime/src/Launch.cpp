//===- Launch.cpp - detail::launch: check the configuration, then run ------===//
//
// The one entry point of every generated launch function. It validates the
// configuration against the current device's limits (LaunchConfigError),
// and its stream's and arrays' devices against it (DeviceError), then hands
// the launch to the GPU (CudaLaunch.cpp) or the CPU device (CpuLaunch.cpp).
//
//===----------------------------------------------------------------------===//
#include "pyk/Launch.h"
#include "CpuCooperativeLaunch.h"
#include "CpuLaunch.h"
#include "CudaLaunch.h"
#include "LaunchCheck.h"
#include "StreamImpl.h"
#include "pyk/Error.h"

#include <algorithm>
#include <cstdint>

namespace pyk::detail {
namespace {

std::string dims(const Dim3 &d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

std::string deviceLabel(const DeviceState &state) {
  return state.kind == DeviceKind::Cpu ? std::string("the CPU device") : state.name;
}

[[noreturn]] void reject(const KernelInfo &kernel, const Launch &config, const std::string &why) {
  throw LaunchConfigError("pyk: cannot launch " + launchLabel(kernel, config) + ": " + why);
}

/// Checks one of grid/block's three dimensions against its limit.
void checkExtent(const KernelInfo &kernel, const Launch &config, const char *what, const char *axis,
                 std::uint32_t extent, std::uint64_t limit, const DeviceState &state) {
  if (extent <= limit)
    return;
  reject(kernel, config,
         std::string(what) + "." + axis + " is " + std::to_string(extent) + "; " + deviceLabel(state) + " allows " +
             what + "." + axis + " up to " + std::to_string(limit));
}

} // namespace

std::string kernelLabel(const KernelInfo &kernel) {
  std::string label = kernel.symbol ? kernel.symbol : "a kernel";
  if (kernel.module && kernel.module->sourceName)
    label += std::string(" (from ") + kernel.module->sourceName + ")";
  return label;
}

std::string launchLabel(const KernelInfo &kernel, const Launch &config) {
  return kernelLabel(kernel) + " with grid " + dims(config.grid) + " and block " + dims(config.block);
}

void validateLaunch(const KernelInfo &kernel, const Launch &config, const DeviceState &state) {
  const Dim3 &grid = config.grid, &block = config.block;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
    reject(kernel, config,
           std::string(grid.x == 0 || grid.y == 0 || grid.z == 0 ? "the grid" : "the block") +
               " has a zero dimension; every grid and block dimension must be at least 1 (a grid of 0 blocks "
               "launches nothing: skip the launch instead)");
  const LaunchLimits &limits = state.limits;
  std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (threads > limits.maxThreadsPerBlock)
    reject(kernel, config,
           "a block of " + std::to_string(threads) + " threads is too large; " + deviceLabel(state) +
               " allows at most " + std::to_string(limits.maxThreadsPerBlock) +
               " threads per block (block.x * block.y * block.z): use more blocks of fewer threads");
  if (kernel.maxThreadsPerBlock && threads > kernel.maxThreadsPerBlock)
    reject(kernel, config,
           "a block of " + std::to_string(threads) + " threads is larger than the kernel's launch_bounds of " +
               std::to_string(kernel.maxThreadsPerBlock) +
               " threads, for which its GPU code is compiled: launch smaller blocks or raise launch_bounds");
  checkExtent(kernel, config, "block", "x", block.x, limits.maxBlock[0], state);
  checkExtent(kernel, config, "block", "y", block.y, limits.maxBlock[1], state);
  checkExtent(kernel, config, "block", "z", block.z, limits.maxBlock[2], state);
  checkExtent(kernel, config, "grid", "x", grid.x, limits.maxGrid[0], state);
  checkExtent(kernel, config, "grid", "y", grid.y, limits.maxGrid[1], state);
  checkExtent(kernel, config, "grid", "z", grid.z, limits.maxGrid[2], state);
  if (config.shared_bytes > limits.maxSharedBytes)
    reject(kernel, config,
           std::to_string(config.shared_bytes) + " bytes of dynamic shared memory per block is too much; " +
               deviceLabel(state) + " allows at most " + std::to_string(limits.maxSharedBytes) + " bytes per block");
}

void rejectDimension(const std::string &value, bool negative) {
  throw LaunchConfigError("pyk: a launch's grid or block dimension is " + value +
                          (negative ? ", which is negative" : ", more than a dimension holds (2^32 - 1)") +
                          "; every grid and block dimension must be at least 1 and within the device's limits");
}

void rejectWideArray(const KernelInfo &kernel, const char *array, std::int64_t elements) {
  throw ShapeError("pyk: cannot launch " + kernelLabel(kernel) + ": its array argument '" + array + "' has " +
                   std::to_string(elements) +
                   " elements, but the kernel was compiled with --index-bits=32, which takes arrays of fewer than "
                   "2^31 (2147483648) elements: compile it with --index-bits=64 (the default)");
}

std::uint32_t maxCooperativeGridBlocks(KernelInfo &kernel, const Dim3 &block, std::size_t sharedBytes) {
  if (!kernel.gridSynchronises)
    throw Error("pyk: " + kernelLabel(kernel) +
                " does not synchronise its grid, so its launches are not cooperative and have no such limit");
  const DeviceState &state = deviceState();
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  const std::uint64_t largest = state.kind == DeviceKind::Cuda ? maxCooperativeGridOnGpu(kernel, block, sharedBytes)
                                                               : maxCpuCooperativeGrid(threads);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(largest, UINT32_MAX));
}

void rejectArrayDevice(const KernelInfo &kernel, const char *array, int device) {
  const int current = currentDeviceIndex();
  rejectOtherDevice("cannot launch " + kernelLabel(kernel) + " on device " + std::to_string(current),
                    "its array argument '" + std::string(array) + "'", device, current);
}

void launch(KernelInfo &kernel, const Launch &config, void **args) {
  const DeviceState &state = deviceState();
  if (config.stream) {
    const StreamImpl &stream = checkedImpl(*config.stream, "launching a kernel");
    if (stream.device != state.index)
      rejectOtherDevice("cannot launch " + kernelLabel(kernel) + " on device " + std::to_string(state.index),
                        "its stream", stream.device, state.index);
  }
  validateLaunch(kernel, config, state);
  if (state.kind == DeviceKind::Cuda)
    return launchOnGpu(kernel, config, args);
  if (!kernel.cpuEntry)
    throw Error("pyk: cannot launch " + kernelLabel(kernel) +
                " on the CPU device: it was compiled without CPU-device code; rebuild it with pykc, or run on a GPU");
  launchOnCpu(kernel, config, args);
}

} // namespace pyk::detail
