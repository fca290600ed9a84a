//===- TestKernels.cpp - Hand-written kernels for the runtime tests --------===//
#include "TestKernels.h"

#include "TestKernelsPtx.h"

#include <dlfcn.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace pyk::test {
namespace {

using detail::CpuBlockContext;

/// Argument i of a launch, as the CPU entry of a generated kernel reads it.
template <typename T> T arg(void **args, int i) {
  T value;
  std::memcpy(&value, args[i], sizeof(T));
  return value;
}

/// One 8-byte argument slot, as generated launch functions keep them.
struct Slot {
  std::uint64_t bits = 0;
  template <typename T> static Slot of(T value) {
    static_assert(sizeof(T) <= sizeof(std::uint64_t));
    Slot slot;
    std::memcpy(&slot.bits, &value, sizeof(T));
    return slot;
  }
};

/// Calls `body(i)` for every global x index i of the block's threads.
template <typename Body> void forEachThreadX(const CpuBlockContext *block, Body body) {
  for (std::uint32_t t = 0; t < block->blockDim[0]; ++t)
    body(std::int64_t{block->blockIdx[0]} * block->blockDim[0] + t);
}

void vectorAddCpu(void **args, const CpuBlockContext *block) {
  auto x = arg<const float *>(args, 0);
  auto xn = arg<std::int64_t>(args, 1);
  auto y = arg<const float *>(args, 2);
  auto yn = arg<std::int64_t>(args, 3);
  auto out = arg<float *>(args, 4);
  auto outn = arg<std::int64_t>(args, 5);
  forEachThreadX(block, [&](std::int64_t i) {
    if (i < xn && i < yn && i < outn)
      out[i] = x[i] + y[i];
  });
}

void scaleCpu(void **args, const CpuBlockContext *block) {
  auto a = arg<float>(args, 0);
  auto x = arg<const float *>(args, 1);
  auto xn = arg<std::int64_t>(args, 2);
  auto out = arg<float *>(args, 3);
  auto outn = arg<std::int64_t>(args, 4);
  forEachThreadX(block, [&](std::int64_t i) {
    if (i < xn && i < outn)
      out[i] = a * x[i];
  });
}

void countBlocksCpu(void **args, const CpuBlockContext *block) {
  auto counts = arg<int *>(args, 0);
  auto countn = arg<std::int64_t>(args, 1);
  auto ids = arg<int *>(args, 2);
  auto idn = arg<std::int64_t>(args, 3);
  const std::uint32_t *b = block->blockIdx, *d = block->blockDim, *g = block->gridDim;
  std::int64_t index = (std::int64_t{b[2]} * g[1] + b[1]) * g[0] + b[0];
  std::int64_t threads = std::int64_t{d[0]} * d[1] * d[2];
  if (index < countn)
    for (std::int64_t t = 0; t < threads; ++t)
      std::atomic_ref<int>(counts[index]).fetch_add(1);
  if (9 * index + 8 < idn) {
    int *id = ids + 9 * index;
    for (int axis = 0; axis < 3; ++axis) {
      id[axis] = static_cast<int>(b[axis]);
      id[3 + axis] = static_cast<int>(d[axis]);
      id[6 + axis] = static_cast<int>(g[axis]);
    }
  }
}

void reverseBlocksCpu(void **args, const CpuBlockContext *block) {
  auto x = arg<const float *>(args, 0);
  auto xn = arg<std::int64_t>(args, 1);
  auto out = arg<float *>(args, 2);
  auto outn = arg<std::int64_t>(args, 3);
  auto *chunk = static_cast<float *>(block->sharedMemory);
  std::uint32_t n = block->blockDim[0];
  std::int64_t base = std::int64_t{block->blockIdx[0]} * n;
  for (std::uint32_t t = 0; t < n; ++t) // before __syncthreads()
    if (base + t < xn)
      chunk[t] = x[base + t];
  for (std::uint32_t t = 0; t < n; ++t) { // after it
    std::uint32_t from = n - 1 - t;
    if (base + t < outn && base + from < xn)
      out[base + t] = chunk[from];
  }
}

void waitForGateCpu(void **args, const CpuBlockContext *) {
  auto gate = arg<std::atomic<int> *>(args, 0);
  auto done = arg<std::atomic<int> *>(args, 1);
  while (gate->load() == 0)
    std::this_thread::yield();
  done->store(1);
}

void throwInBlockCpu(void **args, const CpuBlockContext *block) {
  auto failing = arg<std::int64_t>(args, 0);
  if (block->blockIdx[0] == failing)
    throw std::runtime_error("block " + std::to_string(failing) + " failed");
}

template <std::size_t N> void launch(detail::KernelInfo &kernel, const Launch &config, Slot (&slots)[N]) {
  void *args[N];
  for (std::size_t i = 0; i < N; ++i)
    args[i] = &slots[i].bits;
  detail::launch(kernel, config, args);
}

} // namespace

const detail::KernelModule testModule{"test_kernels.cu", testKernelsPtx};
detail::KernelInfo vectorAddKernel{&testModule, "vector_add", vectorAddCpu, 6};
// scale() passes its float as generated launch functions pass scalars
// (a pointer to the parameter itself), so its KernelInfo gives the sizes.
const std::uint8_t scaleArgSizes[] = {sizeof(float), 8, 8, 8, 8};
detail::KernelInfo scaleKernel{&testModule, "scale", scaleCpu, 5, scaleArgSizes};
detail::KernelInfo countBlocksKernel{&testModule, "count_blocks", countBlocksCpu, 4};
detail::KernelInfo reverseBlocksKernel{&testModule, "reverse_blocks", reverseBlocksCpu, 4};
detail::KernelInfo gpuOnlyKernel{&testModule, "vector_add", nullptr, 6};

namespace {
const detail::KernelModule cpuOnlyModule{"cpu_only_kernels", nullptr};
detail::KernelInfo waitForGateKernel{&cpuOnlyModule, "wait_for_gate", waitForGateCpu, 2};
detail::KernelInfo throwInBlockKernel{&cpuOnlyModule, "throw_in_block", throwInBlockCpu, 1};
} // namespace

void vectorAdd(const Launch &config, detail::ArrayArgument<const float, 1> x, detail::ArrayArgument<const float, 1> y,
               detail::ArrayArgument<float, 1> out) {
  detail::requireArrayOnDevice(vectorAddKernel, "x", x.device());
  detail::requireArrayOnDevice(vectorAddKernel, "y", y.device());
  detail::requireArrayOnDevice(vectorAddKernel, "out", out.device());
  Slot slots[] = {Slot::of(x.data()),   Slot::of(x.shape(0)), Slot::of(y.data()),
                  Slot::of(y.shape(0)), Slot::of(out.data()), Slot::of(out.shape(0))};
  launch(vectorAddKernel, config, slots);
}

void scale(const Launch &config, float a, detail::ArrayArgument<const float, 1> x,
           detail::ArrayArgument<float, 1> out) {
  // As pykc generates it: arrays' data pointers and extents on the stack,
  // the scalar parameter in place.
  void *data[] = {const_cast<float *>(x.data()), out.data()};
  std::int64_t extents[] = {x.shape(0), out.shape(0)};
  void *args[] = {&a, &data[0], &extents[0], &data[1], &extents[1]};
  detail::launch(scaleKernel, config, args);
}

void countBlocks(const Launch &config, detail::ArrayArgument<int, 1> counts, detail::ArrayArgument<int, 1> ids) {
  Slot slots[] = {Slot::of(counts.data()), Slot::of(counts.shape(0)), Slot::of(ids.data()), Slot::of(ids.shape(0))};
  launch(countBlocksKernel, config, slots);
}

void reverseBlocks(const Launch &config, detail::ArrayArgument<const float, 1> x, detail::ArrayArgument<float, 1> out) {
  Slot slots[] = {Slot::of(x.data()), Slot::of(x.shape(0)), Slot::of(out.data()), Slot::of(out.shape(0))};
  launch(reverseBlocksKernel, config, slots);
}

void waitForGate(const Launch &config, std::atomic<int> *gate, std::atomic<int> *done) {
  Slot slots[] = {Slot::of(gate), Slot::of(done)};
  launch(waitForGateKernel, config, slots);
}

void throwInBlock(const Launch &config, std::int64_t failingBlock) {
  Slot slots[] = {Slot::of(failingBlock)};
  launch(throwInBlockKernel, config, slots);
}

void failAtCpu(void **args, const detail::CpuBlockContext *block) {
  std::int64_t failing;
  pyk_check_record *record;
  std::uint64_t launch;
  std::memcpy(&failing, args[0], sizeof failing);
  std::memcpy(&record, args[1], sizeof record);
  std::memcpy(&launch, args[2], sizeof launch);
  for (std::uint32_t t = 0; t < block->blockDim[0]; ++t) {
    const std::int64_t i = std::int64_t{block->blockIdx[0]} * block->blockDim[0] + t;
    std::uint32_t expected = 0;
    if (i != failing || !record || !std::atomic_ref<std::uint32_t>(record->failed).compare_exchange_strong(expected, 1))
      continue;
    record->site = 0;
    record->launch = launch;
    record->index = i;
    record->extent = failing;
    for (int axis = 0; axis < 3; ++axis) {
      record->thread[axis] = axis == 0 ? t : 0;
      record->block[axis] = block->blockIdx[axis];
    }
  }
}

void *fakeDriverSymbol(const char *name) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!library)
    return nullptr;
  void *found = dlsym(library, name);
  dlclose(library); // drops only the reference this call took
  return found;
}

bool registerKernelWithFakeDriver(const char *symbol, detail::CpuKernelEntry entry) {
  void *found = fakeDriverSymbol("pykFakeCudaRegisterKernel");
  if (!found)
    return false;
  using Register = void (*)(const char *, detail::CpuKernelEntry);
  Register registerKernel;
  std::memcpy(&registerKernel, &found, sizeof(found));
  registerKernel(symbol, entry);
  return true;
}

bool registerWithFakeDriver() {
  static const bool registered = [] {
    bool all = true;
    for (const detail::KernelInfo *kernel : {&vectorAddKernel, &scaleKernel, &countBlocksKernel, &reverseBlocksKernel})
      all = registerKernelWithFakeDriver(kernel->symbol, kernel->cpuEntry) && all;
    return all;
  }();
  return registered;
}

} // namespace pyk::test
