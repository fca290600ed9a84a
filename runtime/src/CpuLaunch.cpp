//===- CpuLaunch.cpp - Running a kernel on the CPU device ------------------===//
//
// Each pool thread keeps one dynamic-shared-memory buffer and reuses it for
// every block it runs (as a GPU reuses a multiprocessor's shared memory), so
// a launch allocates nothing per block; the buffer only grows.
//
//===----------------------------------------------------------------------===//
#include "CpuLaunch.h"

#include "BlockScheduler.h"
#include "CheckFailures.h"
#include "CpuCooperativeLaunch.h"
#include "CpuStream.h"
#include "DeviceState.h"
#include "LaunchCheck.h"
#include "LaunchWatchdog.h"
#include "StreamImpl.h"
#include "ThreadPool.h"
#include "pyk/Error.h"

#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace pyk::detail {
namespace {

/// One thread's dynamic shared memory, reused by the blocks it runs.
class SharedMemoryBuffer {
public:
  SharedMemoryBuffer() = default;
  SharedMemoryBuffer(const SharedMemoryBuffer &) = delete;
  SharedMemoryBuffer &operator=(const SharedMemoryBuffer &) = delete;
  ~SharedMemoryBuffer() { release(); }

  /// At least `bytes` bytes, aligned to cpuSharedMemoryAlignment.
  void *get(std::size_t bytes) {
    if (bytes > size_) {
      release();
      data_ = ::operator new (bytes, std::align_val_t{cpuSharedMemoryAlignment});
      size_ = bytes;
    }
    return data_;
  }

private:
  void release() {
    if (data_)
      ::operator delete (data_, std::align_val_t{cpuSharedMemoryAlignment});
    data_ = nullptr;
    size_ = 0;
  }

  void *data_ = nullptr;
  std::size_t size_ = 0;
};

thread_local SharedMemoryBuffer sharedMemory;

/// Blocks the calling thread is running: more than one when a block
/// launches a kernel on the default stream, which runs in its thread.
thread_local unsigned blocksRunning = 0;

/// Counts the calling thread's block while it runs.
class RunningBlock {
public:
  RunningBlock() noexcept { ++blocksRunning; }
  ~RunningBlock() { --blocksRunning; }
  RunningBlock(const RunningBlock &) = delete;
  RunningBlock &operator=(const RunningBlock &) = delete;
};

/// A launch queued on a stream, with its own copy of the argument values.
struct QueuedLaunch {
  const KernelInfo *kernel;
  Dim3 grid, block;
  std::size_t sharedBytes;
  std::size_t fiberStackBytes;
  std::vector<std::uint64_t> values; ///< argument i in values[i]
  std::vector<void *> args;          ///< args[i] == &values[i]
  pyk_check_record checkRecord{};    ///< checked kernels: this launch's
};

/// Runs the launch, then raises what its check record holds. A failed check
/// wins over a KernelError of the launch: the check skipped a store or read
/// a zero, which can send a block past a barrier or a grid sync that the
/// others wait at, and the check names the cause.
void runCheckedCpuKernel(const KernelInfo &kernel, const Dim3 &grid, const Dim3 &block, std::size_t sharedBytes,
                         std::size_t fiberStackBytes, void **args, pyk_check_record &record) {
  try {
    runCpuKernel(kernel, grid, block, sharedBytes, fiberStackBytes, args);
  } catch (const KernelError &) {
    raiseCheckFailure(record);
    throw;
  }
  raiseCheckFailure(record);
}

} // namespace

void cpuBlockIndex(const CpuBlockLoop &loop, std::uint64_t index, std::uint32_t blockIdx[3]) {
  blockIdx[0] = static_cast<std::uint32_t>(index % loop.grid[0]);
  const std::uint64_t rest = index / loop.grid[0];
  blockIdx[1] = static_cast<std::uint32_t>(rest % loop.grid[1]);
  blockIdx[2] = static_cast<std::uint32_t>(rest / loop.grid[1]);
}

void runCpuBlock(void *context, std::uint64_t index) {
  const CpuBlockLoop &loop = *static_cast<const CpuBlockLoop *>(context);
  CpuBlockContext block;
  cpuBlockIndex(loop, index, block.blockIdx);
  for (int axis = 0; axis < 3; ++axis) {
    block.blockDim[axis] = loop.block[axis];
    block.gridDim[axis] = loop.grid[axis];
  }
  block.sharedMemory = loop.sharedBytes ? sharedMemory.get(loop.sharedBytes) : nullptr;
  block.sharedBytes = loop.sharedBytes;
  BlockScheduler &scheduler = BlockScheduler::ofThisThread();
  scheduler.setFiberStackBytes(loop.fiberStackBytes);
  scheduler.setGridBarrier(loop.gridBarrier);
  RunningBlock running;
  WatchedBlock watched(loop.watched, block.blockIdx);
  loop.entry(loop.args, &block);
  // An entry that runs its threads on fibers cannot throw (generated code
  // has no unwind tables); it records its error instead. Thrown here, it
  // takes the path of any exception from a block: the pool skips the
  // blocks nobody has started yet, lets those already running finish, and
  // rethrows the first error to the launcher (the launch on the default
  // stream, the stream's worker otherwise, whose next synchronize() raises
  // it). In a cooperative launch it fails the grid (GridBarrier.h).
  if (std::exception_ptr error = takeCpuBlockError())
    std::rethrow_exception(error);
}

bool cpuThreadRunsABlock() noexcept {
  return blocksRunning != 0;
}

void runCpuKernel(const KernelInfo &kernel, const Dim3 &grid, const Dim3 &block, std::size_t sharedBytes,
                  std::size_t fiberStackBytes, void **args) {
  WatchedLaunch watchedStorage{};
  const WatchedLaunch *watched = watchLaunch(kernel, watchedStorage);
  CpuBlockLoop loop{.entry = kernel.cpuEntry,
                    .args = args,
                    .grid = {grid.x, grid.y, grid.z},
                    .block = {block.x, block.y, block.z},
                    .sharedBytes = sharedBytes,
                    .fiberStackBytes = fiberStackBytes,
                    .watched = watched,
                    .gridBarrier = nullptr};
  std::uint64_t blocks = std::uint64_t{grid.x} * grid.y * grid.z;
  if (kernel.gridSynchronises)
    return runCooperativeCpuKernel(kernel, loop, blocks);
  cpuThreadPool().parallelFor(blocks, runCpuBlock, &loop);
}

std::size_t cpuFiberStackBytes(const KernelInfo &kernel) {
  const std::size_t besides = deviceState().cpuFiberStackBytes;
  if (kernel.localMemoryBytes <= maxCpuFiberStackBytes - besides)
    return besides + static_cast<std::size_t>(kernel.localMemoryBytes);
  throw Error("pyk: cannot launch " + kernelLabel(kernel) + " on the CPU device: a thread of it may hold " +
              std::to_string(kernel.localMemoryBytes) + " bytes of local arrays (its own and its device " +
              "functions', once per call), which with PYK_CPU_FIBER_STACK's " + std::to_string(besides) +
              " bytes besides is more than the " + std::to_string(maxCpuFiberStackBytes) +
              " bytes of stack a CPU-device thread may have; make the kernel's local arrays smaller");
}

void launchOnCpu(const KernelInfo &kernel, const Launch &config, void **args) {
  if (kernel.gridSynchronises)
    checkCooperativeCpuLaunch(kernel, config);
  const std::size_t fiberStackBytes = cpuFiberStackBytes(kernel);
  if (!config.stream) {
    if (anyCpuStreamCapturing())
      rejectDefaultStreamWorkWhileCapturing(("launching " + kernelLabel(kernel) + " on the default stream").c_str());
    waitForCpuStreams();
    pyk_check_record record{};
    if (kernel.checked)
      bindCheckArguments(kernel, args, &record);
    runCheckedCpuKernel(kernel, config.grid, config.block, config.shared_bytes, fiberStackBytes, args, record);
    return;
  }
  StreamImpl &stream = checkedImpl(*config.stream, "launching a kernel");
  // The values args points to live in the caller's frame; the queued launch
  // keeps copies (kernel.argSizes bytes each, 8 when it is null).
  auto queued = std::make_shared<QueuedLaunch>();
  queued->kernel = &kernel;
  queued->grid = config.grid;
  queued->block = config.block;
  queued->sharedBytes = config.shared_bytes;
  queued->fiberStackBytes = fiberStackBytes;
  const unsigned slots = kernel.argCount + (kernel.checked ? 2 : 0);
  queued->values.assign(slots, 0);
  queued->args.resize(slots);
  for (unsigned i = kernel.argCount; i < slots; ++i)
    queued->args[i] = &queued->values[i];
  if (kernel.checked)
    bindCheckArguments(kernel, queued->args.data(), &queued->checkRecord);
  for (unsigned i = 0; i < kernel.argCount; ++i) {
    std::size_t size = kernel.argSizes ? kernel.argSizes[i] : sizeof(std::uint64_t);
    if (size > sizeof(std::uint64_t))
      throw Error("pyk: cannot launch " + kernelLabel(kernel) + ": argument " + std::to_string(i) + " is " +
                  std::to_string(size) + " bytes; the launch ABI passes at most 8 bytes per argument");
    std::memcpy(&queued->values[i], args[i], size);
    queued->args[i] = &queued->values[i];
  }
  stream.cpu->submit([queued] {
    runCheckedCpuKernel(*queued->kernel, queued->grid, queued->block, queued->sharedBytes, queued->fiberStackBytes,
                        queued->args.data(), queued->checkRecord);
  });
}

} // namespace pyk::detail
