//===- Device.cpp - Selecting the device, once per process -----------------===//
//
// Algorithm (runs once, on the first use of the runtime):
//  1. PYK_DEVICE=cpu: PYK_CPU_DEVICES CPU devices (with PYK_CPU_THREADS,
//     PYK_CPU_FIBER_STACK and PYK_CPU_LAUNCH_TIMEOUT checked). Any value
//     other than unset, empty, "cpu" or "cuda": DeviceError.
//  2. Otherwise try the GPUs: load libcuda.so.1, cuInit, and for each
//     device retain its primary context and read its launch limits.
//  3. It works: the GPU. It does not and PYK_DEVICE=cuda: DeviceError saying
//     why (the error is kept and thrown again on every later use). It does
//     not and PYK_DEVICE is unset: the CPU device, with one line on stderr
//     when a driver was found (a GPU was expected) and silently when there is
//     no driver at all (the normal case on machines without a GPU).
//
//===----------------------------------------------------------------------===//
#include "pyk/Device.h"
#include "CpuStream.h"
#include "CudaErrors.h"
#include "CheckFailures.h"
#include "DeviceState.h"
#include "pyk/Error.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include <unistd.h>

namespace pyk {
namespace detail {
namespace {

/// The most CPU threads PYK_CPU_THREADS may ask for.
constexpr unsigned maxCpuThreads = 1024;
/// The range of PYK_CPU_FIBER_STACK: from what the scheduler's own frames
/// and a small kernel need to the most a fiber may get.
constexpr long minCpuFiberStack = 16 * 1024;
constexpr long maxCpuFiberStack = static_cast<long>(maxCpuFiberStackBytes);
/// The longest PYK_CPU_LAUNCH_TIMEOUT, in seconds: a week.
constexpr double maxCpuLaunchTimeout = 7 * 24 * 3600;

struct Selection {
  std::vector<DeviceState> devices;
  std::string error; ///< non-empty: the requested device cannot be used
};

/// The calling thread's current device.
thread_local int currentIndex = 0;

/// The host's memory, which a CPU device's arrays take.
std::size_t hostMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), pageBytes = sysconf(_SC_PAGESIZE);
  return pages > 0 && pageBytes > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageBytes) : 0;
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

/// PYK_CPU_LAUNCH_TIMEOUT, in seconds (0 when unset); false for a value
/// that is not a number of seconds in range.
bool readLaunchTimeout(double &seconds) {
  seconds = 0;
  const char *text = std::getenv("PYK_CPU_LAUNCH_TIMEOUT");
  if (!text || !*text)
    return true;
  char *end = nullptr;
  seconds = std::strtod(text, &end);
  return *end == '\0' && std::isfinite(seconds) && seconds > 0 && seconds <= maxCpuLaunchTimeout;
}

/// The CPU devices (PYK_CPU_DEVICES, default 1), with PYK_CPU_THREADS
/// threads or one per hardware thread.
Selection selectCpu() {
  Selection selection;
  DeviceState state;
  state.kind = DeviceKind::Cpu;
  int count = 1;
  if (const char *text = std::getenv("PYK_CPU_DEVICES"); text && *text) {
    char *end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 1 || value > maxDevices) {
      selection.error = std::string("pyk: PYK_CPU_DEVICES is '") + text + "'; set it to a whole number from 1 to " +
                        std::to_string(maxDevices) + ", or unset it for one CPU device";
      return selection;
    }
    count = static_cast<int>(value);
  }
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (const char *text = std::getenv("PYK_CPU_THREADS"); text && *text) {
    char *end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 1 || value > static_cast<long>(maxCpuThreads)) {
      selection.error = std::string("pyk: PYK_CPU_THREADS is '") + text + "'; set it to a whole number from 1 to " +
                        std::to_string(maxCpuThreads) + ", or unset it to use one thread per hardware thread";
      return selection;
    }
    threads = static_cast<unsigned>(value);
  }
  if (const char *text = std::getenv("PYK_CPU_FIBER_STACK"); text && *text) {
    char *end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < minCpuFiberStack || value > maxCpuFiberStack) {
      selection.error = std::string("pyk: PYK_CPU_FIBER_STACK is '") + text + "'; set it to a number of bytes from " +
                        std::to_string(minCpuFiberStack) + " to " + std::to_string(maxCpuFiberStack) +
                        ", or unset it for " + std::to_string(state.cpuFiberStackBytes);
      return selection;
    }
    state.cpuFiberStackBytes = static_cast<std::size_t>(value);
  }
  if (!readLaunchTimeout(state.cpuLaunchTimeoutSeconds)) {
    selection.error = std::string("pyk: PYK_CPU_LAUNCH_TIMEOUT is '") + std::getenv("PYK_CPU_LAUNCH_TIMEOUT") +
                      "'; set it to a number of seconds greater than 0 and at most " +
                      std::to_string(static_cast<long>(maxCpuLaunchTimeout)) +
                      " (such as 0.5 or 60), or unset it to let launches run for as long as they take";
    return selection;
  }
  state.cpuThreads = threads;
  state.memoryBytes = hostMemoryBytes();
  const std::string threadsText = "(" + std::to_string(threads) + (threads == 1 ? " thread)" : " threads)");
  for (int index = 0; index < count; ++index) {
    state.index = index;
    state.name = count == 1 ? "CPU device " + threadsText : "CPU device " + std::to_string(index) + " " + threadsText;
    selection.devices.push_back(state);
  }
  return selection;
}

int attribute(const cuda::Driver &cu, int which, cuda::CUdevice device, int fallback) {
  int value = 0;
  if (cu.cuDeviceGetAttribute(&value, which, device) != cuda::CUDA_SUCCESS || value <= 0)
    return fallback;
  return value;
}

/// Reads the launch limits of `state.device`, and its multiprocessors, into
/// `state`.
void readLimits(DeviceState &state) {
  const cuda::Driver &cu = *state.cu;
  LaunchLimits &limits = state.limits;
  limits.maxThreadsPerBlock = attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, state.device, 1024);
  limits.maxBlock[0] = attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, state.device, 1024);
  limits.maxBlock[1] = attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, state.device, 1024);
  limits.maxBlock[2] = attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, state.device, 64);
  limits.maxGrid[0] = attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, state.device, 2147483647);
  limits.maxGrid[1] = attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, state.device, 65535);
  limits.maxGrid[2] = attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, state.device, 65535);
  state.multiprocessors =
      static_cast<unsigned>(attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, state.device, 1));
  state.defaultSharedBytes = static_cast<std::size_t>(
      attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, state.device, 48 * 1024));
  limits.maxSharedBytes = std::max<std::size_t>(
      state.defaultSharedBytes, static_cast<std::size_t>(attribute(
                                    cu, cuda::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, state.device, 0)));
}

/// Sets up GPU `ordinal` in `state`: its name, compute capability, memory,
/// primary context and limits. Returns false with the reason in `whyNot`.
bool setUpGpu(const cuda::Driver &cu, int ordinal, DeviceState &state, std::string &whyNot) {
  state.cu = &cu;
  state.index = ordinal;
  if (cuda::CUresult code = cu.cuDeviceGet(&state.device, ordinal); code != cuda::CUDA_SUCCESS) {
    whyNot = cuda::describeFailure("cuDeviceGet", code, "GPU " + std::to_string(ordinal));
    return false;
  }
  char name[256] = {};
  if (cu.cuDeviceGetName(name, sizeof(name) - 1, state.device) != cuda::CUDA_SUCCESS || name[0] == '\0')
    std::snprintf(name, sizeof(name), "GPU %d", ordinal);
  state.computeMajor = attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, state.device, 0);
  state.computeMinor = std::max(0, attribute(cu, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, state.device, 0));
  state.name =
      std::string(name) + " (sm_" + std::to_string(state.computeMajor) + std::to_string(state.computeMinor) + ")";
  if (cu.cuDeviceTotalMem(&state.memoryBytes, state.device) != cuda::CUDA_SUCCESS)
    state.memoryBytes = 0;
  if (cuda::CUresult code = cu.cuDevicePrimaryCtxRetain(&state.context, state.device); code != cuda::CUDA_SUCCESS) {
    whyNot = cuda::describeFailure("cuDevicePrimaryCtxRetain", code, state.name);
    return false;
  }
  readLimits(state);
  state.kind = DeviceKind::Cuda;
  return true;
}

/// Makes `devices` the GPUs (at most maxDevices). Returns false with the
/// reason in `whyNot`, and whether a driver library was found at all in
/// `driverFound`.
bool trySelectCuda(std::vector<DeviceState> &devices, std::string &whyNot, bool &driverFound) {
  const cuda::Driver *cu = cuda::loadDriver(&whyNot);
  driverFound = cu != nullptr;
  if (!cu)
    return false;
  if (cuda::CUresult code = cu->cuInit(0); code != cuda::CUDA_SUCCESS) {
    whyNot = cuda::describeFailure("cuInit", code);
    return false;
  }
  int count = 0;
  if (cuda::CUresult code = cu->cuDeviceGetCount(&count); code != cuda::CUDA_SUCCESS) {
    whyNot = cuda::describeFailure("cuDeviceGetCount", code);
    return false;
  }
  if (count == 0) {
    whyNot = "the CUDA driver sees no GPU; check nvidia-smi and CUDA_VISIBLE_DEVICES";
    return false;
  }
  for (int ordinal = 0; ordinal < std::min(count, maxDevices); ++ordinal) {
    DeviceState state;
    if (!setUpGpu(*cu, ordinal, state, whyNot))
      return false;
    devices.push_back(std::move(state));
  }
  return true;
}

Selection selectDevice() {
  const char *env = std::getenv("PYK_DEVICE");
  std::string request = lowercase(env ? env : "");
  if (request == "cpu")
    return selectCpu();
  if (!request.empty() && request != "cuda") {
    Selection selection;
    selection.error = std::string("pyk: PYK_DEVICE is '") + env +
                      "'; set it to 'cpu' or 'cuda', or unset it to use a GPU when there is one and the CPU "
                      "device otherwise";
    return selection;
  }
  Selection selection;
  std::string whyNot;
  bool driverFound = false;
  if (trySelectCuda(selection.devices, whyNot, driverFound))
    return selection;
  if (request == "cuda") {
    selection.error = "pyk: PYK_DEVICE=cuda, but no GPU can be used: " + whyNot +
                      ". Unset PYK_DEVICE or set PYK_DEVICE=cpu to run kernels on the CPU device";
    return selection;
  }
  Selection cpu = selectCpu();
  if (driverFound && cpu.error.empty())
    std::fprintf(stderr,
                 "pyk: note: running kernels on the CPU device: a CUDA driver is installed but no GPU can be "
                 "used (%s)\n",
                 whyNot.c_str());
  return cpu;
}

const Selection &selection() {
  // Never destroyed: arrays and streams that are statics of the program use
  // it from their destructors, after this function's statics would be gone.
  static const Selection *selection = new Selection(selectDevice());
  if (!selection->error.empty())
    throw DeviceError(selection->error);
  return *selection;
}

/// DeviceError, naming `operation`, unless device `index` exists.
void requireDevice(int index, const char *operation) {
  const int count = deviceCount();
  if (index < 0 || index >= count)
    throw DeviceError("pyk: " + std::string(operation) + "(" + std::to_string(index) + "): there is no device " +
                      std::to_string(index) + "; there " +
                      (count == 1 ? "is 1 device (0)" : "are " + std::to_string(count) + " devices (0 to " +
                                                            std::to_string(count - 1) + ")"));
}

} // namespace

const DeviceState &deviceState(int index) {
  return selection().devices[static_cast<std::size_t>(index)];
}

const DeviceState &deviceState() {
  return deviceState(currentIndex);
}

int deviceCount() {
  return static_cast<int>(selection().devices.size());
}

int currentDeviceIndex() {
  return currentIndex;
}

const DeviceState &cudaState(int index) {
  const DeviceState &state = deviceState(index);
  thread_local cuda::CUcontext current = nullptr;
  if (current != state.context) {
    cuda::check(state.cu->cuCtxSetCurrent(state.context), "cuCtxSetCurrent");
    current = state.context;
  }
  return state;
}

const DeviceState &cudaState() {
  return cudaState(currentIndex);
}

void rejectOtherDevice(const std::string &operation, const std::string &what, int found, int expected) {
  throw DeviceError("pyk: " + operation + ": " + what + " is on device " + std::to_string(found) + " (" +
                    deviceState(found).name + "), not on device " + std::to_string(expected) + " (" +
                    deviceState(expected).name +
                    "); make its device current (pyk::set_device, pyk::DeviceScope) or copy it there (pyk::copy)");
}

} // namespace detail

DeviceKind current_device() {
  return detail::deviceState().kind;
}

std::string device_name() {
  return detail::deviceState().name;
}

void synchronize() {
  const detail::DeviceState &state = detail::deviceState();
  if (state.kind == DeviceKind::Cpu) {
    detail::rejectDefaultStreamWorkWhileCapturing("pyk::synchronize");
    return detail::synchronizeCpuStreams();
  }
  cuda::CUresult code = detail::cudaState().cu->cuCtxSynchronize();
  if (code != cuda::CUDA_SUCCESS)
    cuda::throwError("cuCtxSynchronize", code, "a kernel or copy that ran before this pyk::synchronize() failed");
  detail::raiseGpuCheckFailure(/*allWorkDone=*/true);
}

int device_count() {
  return detail::deviceCount();
}

Device device(int index) {
  detail::requireDevice(index, "pyk::device");
  const detail::DeviceState &state = detail::deviceState(index);
  Device described;
  described.index = index;
  described.kind = state.kind;
  described.name = state.name;
  described.compute_major = state.computeMajor;
  described.compute_minor = state.computeMinor;
  described.memory_bytes = state.memoryBytes;
  return described;
}

int get_device() {
  return detail::currentDeviceIndex();
}

void set_device(int index) {
  detail::requireDevice(index, "pyk::set_device");
  detail::currentIndex = index;
}

DeviceScope::DeviceScope(int index) : previous_(get_device()) {
  set_device(index);
}

DeviceScope::~DeviceScope() {
  detail::currentIndex = previous_;
}

} // namespace pyk
