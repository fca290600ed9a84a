//===- CudaLaunch.cpp - Loading modules and launching kernels on the GPU ---===//
//
// The slow paths (first launch of a kernel, a launch with more dynamic
// shared memory than a kernel gets by default, a failed launch) take one
// mutex and may allocate; the fast path takes neither. A kernel that
// synchronises its grid asks the driver how many of its blocks fit at once
// (cuOccupancyMaxActiveBlocksPerMultiprocessor) on every launch, and is
// launched with cuLaunchCooperativeKernel and its stream's grid barrier
// (CudaGridBarriers.h).
//
//===----------------------------------------------------------------------===//
#include "CudaLaunch.h"
#include "CheckFailures.h"

#include "CudaErrors.h"
#include "CudaGridBarriers.h"
#include "DeviceState.h"
#include "LaunchCheck.h"
#include "StreamImpl.h"
#include "pyk/Error.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace pyk::detail {
namespace {

using cuda::CUfunction;
using cuda::CUmodule;
using cuda::CUresult;

/// Loaded modules, each GPU's own, and the per-function opt-ins to large
/// shared memory. Never destroyed, so launches from static destructors
/// still work.
struct ModuleCache {
  std::mutex mutex;
  std::map<std::pair<const KernelModule *, int>, CUmodule> modules;
  /// The functions of GPUs other than GPU 0, whose are in
  /// KernelInfo::cachedFunction (a launch on them takes the mutex).
  std::map<std::pair<const KernelInfo *, int>, CUfunction> functions;
  /// The dynamic shared memory each function was allowed with
  /// cuFuncSetAttribute (only functions launched with more than the default).
  std::vector<std::pair<CUfunction, std::size_t>> sharedOptIns;
};

ModuleCache &moduleCache() {
  static ModuleCache *cache = new ModuleCache;
  return *cache;
}

/// Bytes for each of the JIT compiler's info and error logs.
constexpr std::size_t jitLogBytes = 16 * 1024;

/// The JIT compiler's logs, as options of cuModuleLoadDataEx and cuLinkCreate.
struct JitLogs {
  std::vector<char> info = std::vector<char>(jitLogBytes, '\0'), error = std::vector<char>(jitLogBytes, '\0');
  cuda::CUjit_option options[4] = {cuda::CU_JIT_INFO_LOG_BUFFER, cuda::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                                   cuda::CU_JIT_ERROR_LOG_BUFFER, cuda::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[4] = {info.data(), reinterpret_cast<void *>(static_cast<std::uintptr_t>(jitLogBytes - 1)),
                     error.data(), reinterpret_cast<void *>(static_cast<std::uintptr_t>(jitLogBytes - 1))};

  /// The error log without its trailing blank lines.
  std::string errorText() const {
    std::string text = error.data();
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
      text.pop_back();
    return text;
  }
};

/// cuModuleLoadDataEx with the JIT logs; the error log goes to `errorLog`.
CUresult loadImage(const cuda::Driver &cu, CUmodule &module, const void *image, std::string &errorLog) {
  JitLogs logs;
  CUresult code = cu.cuModuleLoadDataEx(&module, image, 4, logs.options, logs.values);
  errorLog = logs.errorText();
  return code;
}

/// Links the kernels' PTX with that of the CUDA C++ files they call (the
/// driver's JIT linker) and loads the result. `step` gets the driver call
/// that failed, `errorLog` its log.
CUresult linkAndLoad(const cuda::Driver &cu, CUmodule &module, const KernelModule &kernels, std::string &errorLog,
                     const char *&step) {
  JitLogs logs;
  cuda::CUlinkState link = nullptr;
  step = "cuLinkCreate_v2";
  CUresult code = cu.cuLinkCreate(4, logs.options, logs.values, &link);
  if (code != cuda::CUDA_SUCCESS) {
    errorLog = logs.errorText();
    return code;
  }
  auto add = [&](const char *ptx, const char *name) {
    return cu.cuLinkAddData(link, cuda::CU_JIT_INPUT_PTX, const_cast<char *>(ptx), std::strlen(ptx) + 1, name, 0,
                            nullptr, nullptr);
  };
  step = "cuLinkAddData_v2";
  code = add(kernels.ptx, kernels.sourceName ? kernels.sourceName : "kernels");
  for (std::size_t i = 0; i < kernels.linkedPtxCount && code == cuda::CUDA_SUCCESS; ++i)
    code = add(kernels.linkedPtx[i], "linked CUDA C++");
  void *image = nullptr;
  std::size_t imageBytes = 0;
  if (code == cuda::CUDA_SUCCESS) {
    step = "cuLinkComplete";
    code = cu.cuLinkComplete(link, &image, &imageBytes);
  }
  errorLog = logs.errorText();
  if (code == cuda::CUDA_SUCCESS) {
    // The image belongs to the link state: loaded before it goes.
    step = "cuModuleLoadDataEx";
    code = loadImage(cu, module, image, errorLog);
  }
  cu.cuLinkDestroy(link);
  return code;
}

/// The cubin `state`'s GPU runs best: its own architecture's, else the
/// newest of the same major version below it (binary compatible); null
/// when there is none.
const CubinImage *cubinFor(const KernelModule &module, const DeviceState &state) {
  const CubinImage *best = nullptr;
  int bestMinor = -1;
  const std::string own = "sm_" + std::to_string(state.computeMajor) + std::to_string(state.computeMinor);
  for (std::size_t i = 0; i < module.cubinCount; ++i) {
    const CubinImage &image = module.cubins[i];
    if (!image.arch || !image.data || image.size == 0)
      continue;
    const std::string arch = image.arch;
    if (arch == own || arch == own + "a")
      return &image;
    // "sm_XY" with X the GPU's major version and Y at most its minor one.
    const std::string major = "sm_" + std::to_string(state.computeMajor);
    if (arch.size() != major.size() + 1 || arch.compare(0, major.size(), major) != 0 ||
        !std::isdigit(static_cast<unsigned char>(arch.back())))
      continue;
    const int minor = arch.back() - '0';
    if (minor <= state.computeMinor && minor > bestMinor) {
      best = &image;
      bestMinor = minor;
    }
  }
  return best;
}

/// "sm_75, sm_80": the architectures `module` has cubins for.
std::string cubinArchitectures(const KernelModule &module) {
  std::string list;
  for (std::size_t i = 0; i < module.cubinCount; ++i)
    list += (list.empty() ? "" : ", ") + std::string(module.cubins[i].arch ? module.cubins[i].arch : "?");
  return list;
}

/// The loaded module of `kernel`, loading it on first use. Needs the cache's mutex.
CUmodule loadModule(ModuleCache &cache, const DeviceState &state, const KernelInfo &kernel) {
  const KernelModule &module = *kernel.module;
  const std::pair key(&module, state.index);
  if (auto it = cache.modules.find(key); it != cache.modules.end())
    return it->second;
  const char *source = module.sourceName ? module.sourceName : "the kernels";
  CUmodule loaded = nullptr;
  std::string log, cubinFailure;
  if (const CubinImage *cubin = cubinFor(module, state)) {
    CUresult code = loadImage(*state.cu, loaded, cubin->data, log);
    if (code == cuda::CUDA_SUCCESS)
      return cache.modules[key] = loaded;
    cubinFailure = " (its " + std::string(cubin->arch) +
                   " cubin failed too: " + cuda::describeFailure("cuModuleLoadDataEx", code, log) + ")";
  }
  if (!module.ptx) {
    if (cubinFailure.empty() && module.cubinCount)
      cubinFailure = " and has cubins for " + cubinArchitectures(module) + " only";
    throw Error("pyk: cannot launch " + kernelLabel(kernel) + " on " + state.name + ": " + source +
                " was compiled without PTX" + cubinFailure + "; rebuild it with pykc for this GPU");
  }
  const char *step = "cuModuleLoadDataEx";
  const bool linksCuda = module.linkedPtxCount > 0;
  CUresult code = linksCuda ? linkAndLoad(*state.cu, loaded, module, log, step)
                            : loadImage(*state.cu, loaded, module.ptx, log);
  if (code != cuda::CUDA_SUCCESS) {
    const std::string doing = linksCuda ? "linking the PTX of " + std::string(source) +
                                              " with the CUDA C++ it calls, for " + state.name
                                        : "loading the PTX of " + std::string(source) + " for " + state.name;
    std::string message = cuda::errorMessage(step, code, doing) + cubinFailure;
    if (!log.empty())
      message += "\nthe JIT compiler's log:\n" + log;
    throw CudaError(step, code, cuda::errorName(code), message);
  }
  return cache.modules[key] = loaded;
}

/// The kernel's CUfunction on `state`'s GPU, loading its module on first
/// use; caches it (GPU 0: in kernel.cachedFunction).
CUfunction loadFunction(const DeviceState &state, KernelInfo &kernel) {
  if (!kernel.module)
    throw Error("pyk: cannot launch " + kernelLabel(kernel) + " on " + state.name + ": it has no GPU module");
  ModuleCache &cache = moduleCache();
  std::lock_guard lock(cache.mutex);
  if (state.index != 0) {
    if (auto it = cache.functions.find({&kernel, state.index}); it != cache.functions.end())
      return it->second;
  } else if (void *function = kernel.cachedFunction.load(std::memory_order_acquire)) {
    return static_cast<CUfunction>(function); // another thread loaded it
  }
  CUmodule module = loadModule(cache, state, kernel);
  CUfunction function = nullptr;
  CUresult code = state.cu->cuModuleGetFunction(&function, module, kernel.symbol);
  if (code == cuda::CUDA_ERROR_NOT_FOUND)
    cuda::throwError("cuModuleGetFunction", code,
                     "the GPU code of " + kernelLabel(kernel) + " has no kernel named '" + kernel.symbol +
                         "': the generated files are out of date; rebuild them with pykc");
  if (code != cuda::CUDA_SUCCESS)
    cuda::throwError("cuModuleGetFunction", code, "looking up " + kernelLabel(kernel));
  if (state.index != 0)
    cache.functions[{&kernel, state.index}] = function;
  else
    kernel.cachedFunction.store(function, std::memory_order_release);
  return function;
}

/// The kernel's CUfunction on `state`'s GPU: on GPU 0 after the first
/// launch, one atomic load.
CUfunction functionFor(const DeviceState &state, KernelInfo &kernel) {
  if (state.index == 0)
    if (void *function = kernel.cachedFunction.load(std::memory_order_acquire))
      return static_cast<CUfunction>(function);
  return loadFunction(state, kernel);
}

int functionAttribute(const DeviceState &state, CUfunction function, int which) {
  int value = -1;
  if (state.cu->cuFuncGetAttribute(&value, which, function) != cuda::CUDA_SUCCESS)
    return -1;
  return value;
}

/// Lets `function` use `bytes` of dynamic shared memory (more than the
/// default), once per function and size.
void allowSharedMemory(const DeviceState &state, const KernelInfo &kernel, const Launch &config, CUfunction function) {
  ModuleCache &cache = moduleCache();
  std::lock_guard lock(cache.mutex);
  for (const auto &[f, allowed] : cache.sharedOptIns)
    if (f == function && allowed >= config.shared_bytes)
      return;
  int staticBytes = functionAttribute(state, function, cuda::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  if (staticBytes > 0 && static_cast<std::size_t>(staticBytes) + config.shared_bytes > state.limits.maxSharedBytes)
    throw LaunchConfigError("pyk: cannot launch " + launchLabel(kernel, config) + ": it has " +
                            std::to_string(staticBytes) + " bytes of static shared memory, and with " +
                            std::to_string(config.shared_bytes) + " dynamic bytes needs " +
                            std::to_string(staticBytes + config.shared_bytes) + "; " + state.name + " allows at most " +
                            std::to_string(state.limits.maxSharedBytes) + " bytes per block");
  CUresult code = state.cu->cuFuncSetAttribute(function, cuda::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                               static_cast<int>(config.shared_bytes));
  if (code != cuda::CUDA_SUCCESS)
    cuda::throwError("cuFuncSetAttribute", code,
                     "allowing " + kernelLabel(kernel) + " " + std::to_string(config.shared_bytes) +
                         " bytes of dynamic shared memory");
  for (auto &[f, allowed] : cache.sharedOptIns)
    if (f == function) {
      allowed = config.shared_bytes;
      return;
    }
  cache.sharedOptIns.emplace_back(function, config.shared_bytes);
}

/// The CudaError of a failed `call` (cuLaunchKernel or
/// cuLaunchCooperativeKernel), with what the kernel's attributes say about
/// the cause where they can.
[[noreturn]] void throwLaunchError(const DeviceState &state, const KernelInfo &kernel, const Launch &config,
                                   CUfunction function, CUresult code, const char *call) {
  std::string what = "launching " + launchLabel(kernel, config);
  std::uint64_t threads = std::uint64_t{config.block.x} * config.block.y * config.block.z;
  if (code == 701 /* CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES */) {
    int maxThreads = functionAttribute(state, function, cuda::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    int registers = functionAttribute(state, function, cuda::CU_FUNC_ATTRIBUTE_NUM_REGS);
    if (maxThreads > 0 && threads > static_cast<std::uint64_t>(maxThreads))
      what += "; the kernel uses " + std::to_string(registers) +
              " registers per thread, so a block of it can have "
              "at most " +
              std::to_string(maxThreads) + " threads, not " + std::to_string(threads);
  }
  if (code == 1 /* CUDA_ERROR_INVALID_VALUE */) {
    int staticBytes = functionAttribute(state, function, cuda::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    if (staticBytes > 0 && static_cast<std::size_t>(staticBytes) + config.shared_bytes > state.defaultSharedBytes)
      what += "; its " + std::to_string(staticBytes) + " bytes of static shared memory and " +
              std::to_string(config.shared_bytes) + " dynamic bytes exceed the " +
              std::to_string(state.defaultSharedBytes) + " bytes a block gets";
  }
  cuda::throwError(call, code, what);
}

/// How many blocks of `threads` threads with `sharedBytes` of dynamic shared
/// memory one multiprocessor holds at once for `function`.
int blocksPerMultiprocessor(const DeviceState &state, const KernelInfo &kernel, CUfunction function,
                            std::uint64_t threads, std::size_t sharedBytes) {
  int perMultiprocessor = 0;
  if (CUresult code = state.cu->cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &perMultiprocessor, function, static_cast<int>(threads), sharedBytes))
    cuda::throwError("cuOccupancyMaxActiveBlocksPerMultiprocessor", code,
                     "finding how many blocks of " + std::to_string(threads) + " threads of " + kernelLabel(kernel) +
                         " the GPU holds at once");
  return std::max(perMultiprocessor, 0);
}

/// Throws LaunchConfigError when the grid of `config` has more blocks than
/// the GPU holds at once for `function` with this block and dynamic shared
/// memory (what a cooperative launch needs).
void checkCooperativeGrid(const DeviceState &state, const KernelInfo &kernel, const Launch &config,
                          CUfunction function) {
  const std::uint64_t threads = std::uint64_t{config.block.x} * config.block.y * config.block.z;
  const std::uint64_t blocks = std::uint64_t{config.grid.x} * config.grid.y * config.grid.z;
  const int perMultiprocessor = blocksPerMultiprocessor(state, kernel, function, threads, config.shared_bytes);
  const std::uint64_t largest = std::uint64_t(perMultiprocessor) * state.multiprocessors;
  if (blocks <= largest)
    return;
  const std::string block = std::to_string(threads) + (threads == 1 ? " thread" : " threads") + " with " +
                            std::to_string(config.shared_bytes) + " bytes of dynamic shared memory";
  const std::string held = largest == 0
                               ? "not one block of " + block + " fits on a multiprocessor of " + state.name +
                                     " (its registers or shared memory): launch smaller blocks"
                               : state.name + " holds at most " + std::to_string(largest) + " blocks of " + block +
                                     " at once (" + std::to_string(perMultiprocessor) + " per multiprocessor on " +
                                     std::to_string(state.multiprocessors) + " multiprocessors): launch at most " +
                                     std::to_string(largest) + " blocks";
  throw LaunchConfigError("pyk: cannot launch " + launchLabel(kernel, config) +
                          ": the kernel synchronises its grid (cuda.cg.this_grid().sync()), so it is launched "
                          "cooperatively, with every block resident on the GPU at once; the grid has " +
                          std::to_string(blocks) + " blocks, and " + held);
}

/// A kernel that synchronises its grid: checks that the grid fits, then
/// launches it cooperatively with the stream's grid barrier in its last
/// argument. The caller's args stay as they are: the launch gets a copy of
/// the pointers whose last one points to the barrier's address.
void launchCooperatively(const DeviceState &state, KernelInfo &kernel, const Launch &config, CUfunction function,
                         StreamImpl *stream, void **args) {
  if (kernel.argCount == 0)
    throw Error("pyk: cannot launch " + kernelLabel(kernel) +
                ": it synchronises its grid but has no arguments, where the last must be the grid barrier's; the "
                "generated files are out of date: rebuild them with pykc");
  checkCooperativeGrid(state, kernel, config, function);
  std::uint64_t barrier = gpuGridBarrier(stream);
  const unsigned slots = kernel.argCount + (kernel.checked ? 2 : 0);
  void *inlineArgs[32];
  std::vector<void *> manyArgs;
  void **launchArgs = inlineArgs;
  if (slots > std::size(inlineArgs)) {
    manyArgs.resize(slots);
    launchArgs = manyArgs.data();
  }
  std::copy(args, args + slots, launchArgs);
  launchArgs[kernel.argCount - 1] = &barrier;
  CUresult code = state.cu->cuLaunchCooperativeKernel(
      function, config.grid.x, config.grid.y, config.grid.z, config.block.x, config.block.y, config.block.z,
      static_cast<unsigned>(config.shared_bytes), stream ? stream->cuStream : nullptr, launchArgs);
  if (code != cuda::CUDA_SUCCESS)
    throwLaunchError(state, kernel, config, function, code, "cuLaunchCooperativeKernel");
}

} // namespace

std::uint64_t maxCooperativeGridOnGpu(KernelInfo &kernel, const Dim3 &block, std::size_t sharedBytes) {
  const DeviceState &state = cudaState();
  CUfunction function = functionFor(state, kernel);
  // The occupancy counts dynamic shared memory past the default only once
  // the function is allowed it, as the launch allows it.
  if (sharedBytes > state.defaultSharedBytes)
    allowSharedMemory(state, kernel, Launch{{1}, block, sharedBytes}, function);
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  return std::uint64_t(blocksPerMultiprocessor(state, kernel, function, threads, sharedBytes)) *
         state.multiprocessors;
}

void launchOnGpu(KernelInfo &kernel, const Launch &config, void **args) {
  const DeviceState &state = cudaState();
  CUfunction function = functionFor(state, kernel);
  if (config.shared_bytes > state.defaultSharedBytes)
    allowSharedMemory(state, kernel, config, function);
  StreamImpl *stream = config.stream ? &checkedImpl(*config.stream, "launching a kernel") : nullptr;
  if (kernel.checked)
    bindCheckArguments(kernel, args, gpuCheckRecord(state.index));
  if (kernel.gridSynchronises) {
    launchCooperatively(state, kernel, config, function, stream, args);
  } else {
    CUresult code = state.cu->cuLaunchKernel(function, config.grid.x, config.grid.y, config.grid.z, config.block.x,
                                             config.block.y, config.block.z,
                                             static_cast<unsigned>(config.shared_bytes),
                                             stream ? stream->cuStream : nullptr, args, nullptr);
    if (code != cuda::CUDA_SUCCESS)
      throwLaunchError(state, kernel, config, function, code, "cuLaunchKernel");
  }
  if (stream && stream->capturing) {
    // One launch more in the graph, whose replays write the check record
    // when it is checked.
    stream->capturedCheckedLaunch |= kernel.checked;
    ++stream->capturedOperations;
  }
}

} // namespace pyk::detail
