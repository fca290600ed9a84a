//===- FakeCudaDriver.cpp - A fake libcuda.so.1 for testing the GPU path ---===//
//
// Built as libcuda.so.1 in a directory of its own; a test process that has
// it on LD_LIBRARY_PATH and PYK_DEVICE=cuda runs the runtime's whole GPU
// path (driver loading, context per thread, module cache, JIT logs, launch
// errors, streams and events) on a machine without a GPU. Device memory is
// host memory; a launch runs the kernel's registered CPU entry, block by
// block, at once (so every stream is trivially in order). A capturing
// stream keeps its launches (with copies of their arguments' values, sized
// by the kernel's PTX parameters) and copies, which a graph launch runs;
// work on the default stream while a stream captures fails and ends the
// capture, as CUDA's stream capture does.
//
// Environment: PYK_FAKE_CUDA_INIT_ERROR=N makes cuInit return N;
// PYK_FAKE_CUDA_DEVICES=N sets the device count (default 2, so that every
// test also runs with a second GPU present). Each device has its primary
// context; streams, events and modules belong to the context current when
// they were made, and using one while another context is current fails as
// on a GPU (CUDA_ERROR_INVALID_HANDLE) and is counted.
//
// Not for use outside the runtime's tests.
//
//===----------------------------------------------------------------------===//
#include "FakeCudaControl.h"
#include "FakePtx.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace {

using CUresult = int;
constexpr CUresult SUCCESS = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3, INVALID_DEVICE = 101,
                   INVALID_CONTEXT = 201, INVALID_PTX = 218, INVALID_HANDLE = 400, NOT_FOUND = 500,
                   ILLEGAL_STATE = 401, LAUNCH_OUT_OF_RESOURCES = 701, LAUNCH_FAILED = 719,
                   COOPERATIVE_LAUNCH_TOO_LARGE = 720, STREAM_CAPTURE_UNSUPPORTED = 900,
                   STREAM_CAPTURE_INVALIDATED = 901, STREAM_CAPTURE_IMPLICIT = 906;

constexpr std::size_t defaultShared = 48 * 1024, optInShared = 232448;
constexpr std::size_t largestAllocation = std::size_t{1} << 40;
constexpr int multiprocessors = 132;

/// The most fake devices.
constexpr int maxDevices = 8;

struct Function {
  std::string name;
  int dynamicShared = 0;
  void *context = nullptr;             ///< its module's
  std::vector<std::size_t> paramSizes; ///< its .entry's parameters, in bytes
};
struct Module {
  std::string text;
  std::vector<std::unique_ptr<Function>> functions; ///< owned, as a driver's module owns them
};
/// A captured launch or copy, run again by each graph launch.
using Operation = std::function<CUresult()>;
struct Stream {
  void *context = nullptr;
  bool capturing = false;
  bool invalidated = false; ///< the capture met an operation it forbids
  std::vector<Operation> captured;
};
struct Graph {
  std::vector<Operation> operations;
};
struct GraphExec {
  std::vector<Operation> operations;
};
struct Event {
  bool recorded = false;
  std::chrono::steady_clock::time_point time;
  void *context = nullptr;
};

struct Driver {
  std::mutex mutex;
  bool initialised = false;
  int contexts[maxDevices] = {};              ///< their addresses are the devices' primary contexts
  std::map<void *, std::size_t> allocations; ///< live ones and their sizes
  std::map<const void *, std::size_t> pinned; ///< live cuMemHostAlloc'd memory and its sizes
  std::map<std::string, pyk::detail::CpuKernelEntry> kernels;
  std::vector<Stream *> capturing; ///< streams between begin and end of a capture
  PykFakeCudaState state;
};

Driver &driver() {
  static Driver *d = new Driver;
  return *d;
}

thread_local void *currentContext = nullptr;

int deviceCount() {
  const char *devices = std::getenv("PYK_FAKE_CUDA_DEVICES");
  return devices ? std::clamp(std::atoi(devices), 0, maxDevices) : 2;
}

/// Whether the calling thread may use the driver (counts the misuse).
bool ready() {
  if (!driver().initialised)
    return false;
  const int *contexts = driver().contexts;
  if (currentContext < static_cast<const void *>(contexts) ||
      currentContext >= static_cast<const void *>(contexts + deviceCount())) {
    ++driver().state.contextErrors;
    return false;
  }
  return true;
}

/// Whether a handle made in `context` may be used now (counts the misuse).
bool inCurrentContext(void *context) {
  if (context == currentContext)
    return true;
  ++driver().state.otherContextUses;
  return false;
}

CUresult notReady() {
  return driver().initialised ? INVALID_CONTEXT : NOT_INITIALIZED;
}

/// Work on the default stream while a stream captures: it would wait for
/// that stream, which CUDA forbids; the capture is over (invalidated).
bool defaultStreamWorkForbidden() {
  std::lock_guard lock(driver().mutex);
  if (driver().capturing.empty())
    return false;
  for (Stream *stream : driver().capturing)
    stream->invalidated = true;
  return true;
}

void *host(unsigned long long pointer) {
  return reinterpret_cast<void *>(static_cast<std::uintptr_t>(pointer));
}

/// A synchronous copy (the default stream's).
CUresult copy(void *to, const void *from, std::size_t bytes) {
  if (!ready())
    return notReady();
  if (defaultStreamWorkForbidden())
    return STREAM_CAPTURE_IMPLICIT;
  std::memcpy(to, from, bytes);
  return SUCCESS;
}

void writeLog(unsigned count, const int *options, void **values, int bufferOption, int sizeOption, const char *text) {
  char *buffer = nullptr;
  std::size_t size = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (options[i] == bufferOption)
      buffer = static_cast<char *>(values[i]);
    if (options[i] == sizeOption)
      size = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(values[i]));
  }
  if (buffer && size > 0)
    std::snprintf(buffer, size, "%s", text);
}

/// A JIT link (cuLinkCreate_v2): the PTX added so far, and the image once complete.
struct LinkState {
  std::string text;
  std::string image;
  std::vector<int> options;
  std::vector<void *> values;
};

/// Runs the kernel's registered CPU entry for every block, one after
/// another (cuLaunchKernel and cuLaunchCooperativeKernel alike).
CUresult runKernel(Function *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void **params);

/// A launch on a capturing stream: kept, with copies of its arguments'
/// values (the caller's go away), for each launch of the graph.
CUresult capture(Stream *stream, Function *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                 unsigned bz, unsigned shared, void **params) {
  std::vector<std::vector<unsigned char>> values;
  for (std::size_t i = 0; i < function->paramSizes.size(); ++i) {
    const auto *bytes = static_cast<const unsigned char *>(params[i]);
    values.emplace_back(bytes, bytes + function->paramSizes[i]);
  }
  stream->captured.push_back([=]() mutable {
    std::vector<void *> pointers;
    for (std::vector<unsigned char> &value : values)
      pointers.push_back(value.data());
    return runKernel(function, gx, gy, gz, bx, by, bz, shared, pointers.data());
  });
  ++driver().state.capturedLaunches;
  return SUCCESS;
}

} // namespace

extern "C" {

PykFakeCudaState *pykFakeCudaState() {
  return &driver().state;
}

void pykFakeCudaRegisterKernel(const char *symbol, pyk::detail::CpuKernelEntry entry) {
  std::lock_guard lock(driver().mutex);
  driver().kernels[symbol] = entry;
}

unsigned long long pykFakeCudaAllocationBytes(unsigned long long pointer) {
  std::lock_guard lock(driver().mutex);
  auto it = driver().allocations.find(host(pointer));
  return it == driver().allocations.end() ? 0 : it->second;
}

CUresult cuInit(unsigned) {
  if (const char *error = std::getenv("PYK_FAKE_CUDA_INIT_ERROR"))
    return std::atoi(error);
  driver().initialised = true;
  return SUCCESS;
}

CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  *count = deviceCount();
  return SUCCESS;
}

CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal >= deviceCount())
    return INVALID_DEVICE;
  *device = ordinal;
  return SUCCESS;
}

CUresult cuDeviceTotalMem_v2(std::size_t *bytes, int) {
  *bytes = std::size_t{80} << 30;
  return SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  switch (attribute) {
  case 1:
    *value = 1024;
    return SUCCESS; // max threads per block
  case 2:
  case 3:
    *value = 1024;
    return SUCCESS; // max block x, y
  case 4:
    *value = 64;
    return SUCCESS; // max block z
  case 5:
    *value = 2147483647;
    return SUCCESS; // max grid x
  case 6:
  case 7:
    *value = 65535;
    return SUCCESS; // max grid y, z
  case 8:
    *value = static_cast<int>(defaultShared);
    return SUCCESS; // shared per block
  case 16:
    *value = multiprocessors;
    return SUCCESS;
  case 75:
    *value = 9;
    return SUCCESS; // compute capability
  case 76:
    *value = 0;
    return SUCCESS;
  case 97:
    *value = static_cast<int>(optInShared);
    return SUCCESS; // opt-in shared per block
  }
  return INVALID_VALUE;
}

CUresult cuDeviceGetName(char *name, int length, int) {
  std::snprintf(name, static_cast<std::size_t>(length), "pyk fake GPU");
  return SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  if (device < 0 || device >= deviceCount())
    return INVALID_DEVICE;
  *context = &driver().contexts[device];
  return SUCCESS;
}

CUresult cuCtxSetCurrent(void *context) {
  currentContext = context;
  return SUCCESS;
}

CUresult cuCtxSynchronize() {
  if (!ready())
    return notReady();
  return defaultStreamWorkForbidden() ? STREAM_CAPTURE_UNSUPPORTED : driver().state.synchronizeError.load();
}

CUresult cuMemAlloc_v2(unsigned long long *pointer, std::size_t bytes) {
  if (!ready())
    return notReady();
  if (bytes == 0)
    return INVALID_VALUE;
  if (bytes > largestAllocation)
    return OUT_OF_MEMORY;
  void *memory = ::operator new (bytes, std::align_val_t{256});
  std::lock_guard lock(driver().mutex);
  driver().allocations.emplace(memory, bytes);
  ++driver().state.liveAllocations;
  *pointer = reinterpret_cast<std::uintptr_t>(memory);
  return SUCCESS;
}

CUresult cuMemFree_v2(unsigned long long pointer) {
  if (!ready())
    return notReady();
  std::lock_guard lock(driver().mutex);
  if (driver().allocations.erase(host(pointer)) == 0) {
    ++driver().state.badFrees;
    return INVALID_VALUE;
  }
  --driver().state.liveAllocations;
  ::operator delete (host(pointer), std::align_val_t{256});
  return SUCCESS;
}

CUresult cuMemHostAlloc(void **pointer, std::size_t bytes, unsigned flags) {
  if (!ready())
    return notReady();
  if (bytes == 0 || flags > 7)
    return INVALID_VALUE;
  *pointer = ::operator new (bytes, std::align_val_t{256});
  std::lock_guard lock(driver().mutex);
  driver().pinned.emplace(*pointer, bytes);
  ++driver().state.livePinnedAllocations;
  return SUCCESS;
}

CUresult cuMemFreeHost(void *pointer) {
  if (!ready())
    return notReady();
  std::lock_guard lock(driver().mutex);
  if (driver().pinned.erase(pointer) == 0)
    return INVALID_VALUE;
  ::operator delete (pointer, std::align_val_t{256});
  --driver().state.livePinnedAllocations;
  return SUCCESS;
}

CUresult cuMemcpyHtoD_v2(unsigned long long to, const void *from, std::size_t bytes) {
  return copy(host(to), from, bytes);
}
CUresult cuMemcpyDtoH_v2(void *to, unsigned long long from, std::size_t bytes) {
  return copy(to, host(from), bytes);
}
CUresult cuMemcpyDtoD_v2(unsigned long long to, unsigned long long from, std::size_t bytes) {
  return copy(host(to), host(from), bytes);
}
/// A copy on `stream` (null: the default stream of the current context).
CUresult copyOn(Stream *stream, void *to, const void *from, std::size_t bytes) {
  if (!stream)
    return copy(to, from, bytes);
  if (!ready())
    return notReady();
  if (!inCurrentContext(stream->context))
    return INVALID_HANDLE;
  if (stream->capturing) {
    stream->captured.push_back([=] {
      std::memcpy(to, from, bytes);
      return SUCCESS;
    });
    return SUCCESS;
  }
  std::memcpy(to, from, bytes);
  return SUCCESS;
}

/// Counts an asynchronous copy whose host memory is not pinned (a GPU
/// stages it, and the copy does not overlap kernels).
void notePageable(const void *hostMemory, std::size_t bytes) {
  std::lock_guard lock(driver().mutex);
  auto it = driver().pinned.upper_bound(hostMemory);
  const bool pinned = it != driver().pinned.begin() &&
                      static_cast<const char *>(hostMemory) + bytes <=
                          static_cast<const char *>(std::prev(it)->first) + std::prev(it)->second;
  if (!pinned)
    ++driver().state.pageableAsyncCopies;
}

CUresult cuMemcpyHtoDAsync_v2(unsigned long long to, const void *from, std::size_t bytes, Stream *stream) {
  notePageable(from, bytes);
  return copyOn(stream, host(to), from, bytes);
}
CUresult cuMemcpyDtoHAsync_v2(void *to, unsigned long long from, std::size_t bytes, Stream *stream) {
  notePageable(to, bytes);
  return copyOn(stream, to, host(from), bytes);
}
CUresult cuMemcpyDtoDAsync_v2(unsigned long long to, unsigned long long from, std::size_t bytes, Stream *stream) {
  return copyOn(stream, host(to), host(from), bytes);
}
CUresult cuMemcpyPeer(unsigned long long to, void *, unsigned long long from, void *, std::size_t bytes) {
  ++driver().state.peerCopies;
  return copy(host(to), host(from), bytes);
}
CUresult cuMemcpyPeerAsync(unsigned long long to, void *, unsigned long long from, void *, std::size_t bytes,
                           Stream *stream) {
  ++driver().state.peerCopies;
  return copyOn(stream, host(to), host(from), bytes);
}

CUresult cuStreamCreate(Stream **stream, unsigned) {
  if (!ready())
    return notReady();
  *stream = new Stream;
  (*stream)->context = currentContext;
  ++driver().state.liveStreams;
  return SUCCESS;
}

CUresult cuStreamDestroy_v2(Stream *stream) {
  if (!ready())
    return notReady();
  if (!inCurrentContext(stream->context))
    return INVALID_HANDLE;
  {
    std::lock_guard lock(driver().mutex);
    std::erase(driver().capturing, stream);
  }
  delete stream;
  --driver().state.liveStreams;
  return SUCCESS;
}

CUresult cuStreamSynchronize(Stream *stream) {
  if (!ready())
    return notReady();
  if (!inCurrentContext(stream->context))
    return INVALID_HANDLE;
  if (stream->capturing) {
    stream->invalidated = true;
    return STREAM_CAPTURE_UNSUPPORTED;
  }
  return SUCCESS;
}

CUresult cuStreamBeginCapture_v2(Stream *stream, int) {
  if (!ready())
    return notReady();
  if (!stream || !inCurrentContext(stream->context))
    return INVALID_HANDLE;
  if (stream->capturing)
    return ILLEGAL_STATE;
  std::lock_guard lock(driver().mutex);
  stream->capturing = true;
  stream->invalidated = false;
  stream->captured.clear();
  driver().capturing.push_back(stream);
  return SUCCESS;
}

CUresult cuStreamEndCapture(Stream *stream, Graph **graph) {
  if (!ready())
    return notReady();
  if (!inCurrentContext(stream->context))
    return INVALID_HANDLE;
  if (!stream->capturing)
    return ILLEGAL_STATE;
  std::lock_guard lock(driver().mutex);
  stream->capturing = false;
  std::erase(driver().capturing, stream);
  std::vector<Operation> captured = std::exchange(stream->captured, {});
  if (stream->invalidated) {
    *graph = nullptr;
    return STREAM_CAPTURE_INVALIDATED;
  }
  *graph = new Graph{std::move(captured)};
  ++driver().state.liveGraphs;
  return SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(GraphExec **exec, Graph *graph, unsigned long long) {
  if (!ready())
    return notReady();
  if (!graph)
    return INVALID_VALUE;
  *exec = new GraphExec{graph->operations};
  ++driver().state.liveGraphs;
  return SUCCESS;
}

CUresult cuGraphLaunch(GraphExec *exec, Stream *stream) {
  if (!ready())
    return notReady();
  if (stream && !inCurrentContext(stream->context))
    return INVALID_HANDLE;
  if (stream ? stream->capturing : defaultStreamWorkForbidden())
    return STREAM_CAPTURE_UNSUPPORTED;
  for (const Operation &operation : exec->operations)
    if (CUresult result = operation(); result != SUCCESS)
      return result;
  ++driver().state.graphLaunches;
  return SUCCESS;
}

CUresult cuGraphExecDestroy(GraphExec *exec) {
  delete exec;
  --driver().state.liveGraphs;
  return SUCCESS;
}

CUresult cuGraphDestroy(Graph *graph) {
  delete graph;
  --driver().state.liveGraphs;
  return SUCCESS;
}

CUresult cuEventCreate(Event **event, unsigned) {
  if (!ready())
    return notReady();
  *event = new Event;
  (*event)->context = currentContext;
  return SUCCESS;
}

CUresult cuEventRecord(Event *event, Stream *stream) {
  if (!ready())
    return notReady();
  if (!inCurrentContext(event->context) || (stream && !inCurrentContext(stream->context)))
    return INVALID_HANDLE;
  event->recorded = true;
  event->time = std::chrono::steady_clock::now();
  return SUCCESS;
}

CUresult cuEventSynchronize(Event *) {
  return ready() ? SUCCESS : notReady();
}

CUresult cuEventElapsedTime(float *milliseconds, Event *start, Event *end) {
  if (!ready())
    return notReady();
  if (!start->recorded || !end->recorded)
    return INVALID_HANDLE;
  *milliseconds = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return SUCCESS;
}

CUresult cuEventDestroy_v2(Event *event) {
  if (!ready())
    return notReady();
  delete event;
  return SUCCESS;
}

CUresult cuModuleLoadDataEx(Module **module, const void *image, unsigned count, int *options, void **values) {
  if (!ready())
    return notReady();
  std::string text = static_cast<const char *>(image);
  if (text.find("pyk-fake: invalid ptx") != std::string::npos) {
    writeLog(count, options, values, 5, 6, "ptxas application ptx input, line 3; fatal   : fake failure for testing\n");
    return INVALID_PTX;
  }
  if (std::string missing = pyk::fake_cuda::unresolvedFunction(text); !missing.empty()) {
    const std::string log = "ptxas fatal   : Unresolved extern function '" + missing + "'\n";
    writeLog(count, options, values, 5, 6, log.c_str());
    return INVALID_PTX;
  }
  writeLog(count, options, values, 3, 4, "fake JIT: ok");
  if (text.rfind("PYKFAKECUBIN", 0) == 0)
    ++driver().state.cubinLoads;
  ++driver().state.moduleLoads;
  *module = new Module{text, {}}; // never unloaded: the runtime keeps its modules
  return SUCCESS;
}

CUresult cuLinkCreate_v2(unsigned count, int *options, void **values, LinkState **link) {
  if (!ready())
    return notReady();
  *link = new LinkState{{}, {}, std::vector<int>(options, options + count), std::vector<void *>(values, values + count)};
  return SUCCESS;
}

CUresult cuLinkAddData_v2(LinkState *link, int type, void *data, std::size_t size, const char *, unsigned, int *,
                          void **) {
  if (!ready())
    return notReady();
  if (type != 1 /* CU_JIT_INPUT_PTX */ || !data || size == 0)
    return INVALID_VALUE;
  std::string ptx(static_cast<const char *>(data), size);
  if (ptx.back() == '\0')
    ptx.pop_back();
  link->text += ptx + "\n";
  return SUCCESS;
}

CUresult cuLinkComplete(LinkState *link, void **image, std::size_t *size) {
  if (!ready())
    return notReady();
  if (std::string missing = pyk::fake_cuda::unresolvedFunction(link->text); !missing.empty()) {
    const std::string log = "error   : Undefined reference to '" + missing + "'\n";
    writeLog(static_cast<unsigned>(link->options.size()), link->options.data(), link->values.data(), 5, 6,
             log.c_str());
    return INVALID_PTX;
  }
  ++driver().state.jitLinks;
  link->image = "PYKFAKELINKED\n" + link->text;
  *image = link->image.data();
  *size = link->image.size() + 1;
  return SUCCESS;
}

CUresult cuLinkDestroy(LinkState *link) {
  delete link;
  return SUCCESS;
}

CUresult cuModuleGetFunction(Function **function, Module *module, const char *name) {
  if (!ready())
    return notReady();
  ++driver().state.functionLookups;
  if (module->text.find(std::string(".entry ") + name + "(") == std::string::npos)
    return NOT_FOUND;
  std::lock_guard lock(driver().mutex);
  module->functions.push_back(
      std::make_unique<Function>(Function{name, 0, currentContext, pyk::fake_cuda::entryParamSizes(module->text, name)}));
  *function = module->functions.back().get();
  return SUCCESS;
}

CUresult cuFuncGetAttribute(int *value, int attribute, Function *function) {
  if (!ready())
    return notReady();
  switch (attribute) {
  case 0:
    *value = driver().state.maxThreadsPerFunction;
    return SUCCESS;
  case 1:
    *value = 0;
    return SUCCESS; // static shared bytes
  case 4:
    *value = 32;
    return SUCCESS; // registers
  case 8:
    *value = function->dynamicShared;
    return SUCCESS;
  }
  return INVALID_VALUE;
}

CUresult cuFuncSetAttribute(Function *function, int attribute, int value) {
  if (!ready())
    return notReady();
  if (attribute != 8 || value < 0 || static_cast<std::size_t>(value) > optInShared)
    return INVALID_VALUE;
  function->dynamicShared = value;
  driver().state.dynamicSharedOptIn = value;
  return SUCCESS;
}

/// The blocks of a cooperative launch one multiprocessor holds.
int blocksPerMultiprocessor(int blockSize) {
  const int set = driver().state.blocksPerMultiprocessor;
  return set >= 0 ? set : std::min(32, 2048 / std::max(blockSize, 1));
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, Function *, int blockSize, std::size_t shared) {
  if (!ready())
    return notReady();
  if (blockSize <= 0)
    return INVALID_VALUE;
  driver().state.occupancyBlockSize = blockSize;
  driver().state.occupancySharedBytes = static_cast<long long>(shared);
  *blocks = blocksPerMultiprocessor(blockSize);
  return SUCCESS;
}

CUresult cuLaunchKernel(Function *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, Stream *stream, void **params, void **) {
  if (!ready())
    return notReady();
  if (!inCurrentContext(function->context) || (stream && !inCurrentContext(stream->context)))
    return INVALID_HANDLE;
  if (stream && stream->capturing)
    return capture(stream, function, gx, gy, gz, bx, by, bz, shared, params);
  if (!stream && defaultStreamWorkForbidden())
    return STREAM_CAPTURE_IMPLICIT;
  const CUresult result = runKernel(function, gx, gy, gz, bx, by, bz, shared, params);
  if (result == SUCCESS)
    ++driver().state.launches;
  return result;
}

CUresult cuLaunchCooperativeKernel(Function *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared, Stream *stream, void **params) {
  if (!ready())
    return notReady();
  if (!inCurrentContext(function->context) || (stream && !inCurrentContext(stream->context)))
    return INVALID_HANDLE;
  const int blockSize = static_cast<int>(std::uint64_t{bx} * by * bz);
  if (std::uint64_t{gx} * gy * gz > std::uint64_t(blocksPerMultiprocessor(blockSize)) * multiprocessors)
    return COOPERATIVE_LAUNCH_TOO_LARGE;
  if (stream && stream->capturing)
    return capture(stream, function, gx, gy, gz, bx, by, bz, shared, params);
  if (!stream && defaultStreamWorkForbidden())
    return STREAM_CAPTURE_IMPLICIT;
  const CUresult result = runKernel(function, gx, gy, gz, bx, by, bz, shared, params);
  if (result == SUCCESS) {
    driver().state.cooperativeStream = stream;
    ++driver().state.cooperativeLaunches;
  }
  return result;
}

} // extern "C"

namespace {

CUresult runKernel(Function *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned shared, void **params) {
  if (std::uint64_t{bx} * by * bz > static_cast<std::uint64_t>(driver().state.maxThreadsPerFunction.load()))
    return LAUNCH_OUT_OF_RESOURCES;
  if (shared > defaultShared && shared > static_cast<unsigned>(function->dynamicShared))
    return INVALID_VALUE;
  pyk::detail::CpuKernelEntry entry = nullptr;
  {
    std::lock_guard lock(driver().mutex);
    auto it = driver().kernels.find(function->name);
    if (it != driver().kernels.end())
      entry = it->second;
  }
  if (!entry) {
    std::fprintf(stderr, "fake libcuda: no CPU entry registered for kernel '%s'\n", function->name.c_str());
    return LAUNCH_FAILED;
  }
  std::vector<unsigned char> sharedMemory(shared + 16);
  for (unsigned z = 0; z < gz; ++z)
    for (unsigned y = 0; y < gy; ++y)
      for (unsigned x = 0; x < gx; ++x) {
        pyk::detail::CpuBlockContext block{
            {x, y, z}, {bx, by, bz}, {gx, gy, gz}, shared ? sharedMemory.data() : nullptr, shared};
        entry(params, &block);
      }
  return SUCCESS;
}

} // namespace
