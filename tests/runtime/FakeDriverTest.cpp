//===- FakeDriverTest.cpp - The GPU path, on the fake CUDA driver ----------===//
//
// What a real GPU cannot be made to do on demand (a JIT failure, a launch
// out of resources, an asynchronous error) and what it cannot count (module
// loads, function lookups), checked against fake_cuda/FakeCudaDriver.cpp.
// These tests run only in the process ctest starts on the fake driver.
//
//===----------------------------------------------------------------------===//
#include "StreamImpl.h"
#include "TestSupport.h"
#include "fake_cuda/FakeCudaControl.h"

#include <gmock/gmock.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace pyk::test {
namespace {

using ::testing::HasSubstr;

/// What the grid-barrier probe saw in its arguments, from block 0: the
/// barrier's address, the 8 bytes there, and in checked mode the check
/// record's address and the launch word.
struct ProbeSeen {
  std::uint64_t barrier, barrierValue, checkRecord, launchWord;
};

/// A kernel that synchronises its grid, as the fake driver runs it (block
/// after block, so it never waits): args are a ProbeSeen pointer and the
/// grid barrier's slot, and in checked mode the check record's two.
template <bool Checked> void gridBarrierProbeCpu(void **args, const detail::CpuBlockContext *block) {
  if (block->blockIdx[0] + block->blockIdx[1] + block->blockIdx[2] != 0)
    return;
  ProbeSeen *seen;
  std::memcpy(&seen, args[0], sizeof seen);
  std::memcpy(&seen->barrier, args[1], 8);
  std::memcpy(&seen->barrierValue, reinterpret_cast<const void *>(static_cast<std::uintptr_t>(seen->barrier)), 8);
  if (Checked) {
    std::memcpy(&seen->checkRecord, args[2], 8);
    std::memcpy(&seen->launchWord, args[3], 8);
  }
}

const detail::KernelModule gridModule{"grid.pyk", ".visible .entry grid_barrier_probe(\n"
                                                  ".visible .entry checked_grid_barrier_probe(\n"};
detail::KernelInfo gridProbeKernel{.module = &gridModule,
                                   .symbol = "grid_barrier_probe",
                                   .cpuEntry = gridBarrierProbeCpu<false>,
                                   .argCount = 2,
                                   .gridSynchronises = true};
detail::KernelInfo checkedGridProbeKernel{.module = &gridModule,
                                          .symbol = "checked_grid_barrier_probe",
                                          .cpuEntry = gridBarrierProbeCpu<true>,
                                          .argCount = 2,
                                          .checked = true,
                                          .gridSynchronises = true};

class FakeDriver : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    if (IsSkipped())
      return;
    if (!onFakeDriver())
      GTEST_SKIP() << "needs the fake CUDA driver (ctest runs these tests with it)";
    void *symbol = fakeDriverSymbol("pykFakeCudaState");
    ASSERT_NE(symbol, nullptr);
    PykFakeCudaState *(*getState)();
    std::memcpy(&getState, &symbol, sizeof(symbol));
    fake = getState();
  }

  void TearDown() override {
    if (!fake)
      return;
    fake->blocksPerMultiprocessor = -1;
    EXPECT_EQ(fake->contextErrors.load(), 0) << "a driver call came from a thread without the context";
    EXPECT_EQ(fake->otherContextUses.load(), 0) << "a stream, event or function was used in another GPU's context";
    EXPECT_EQ(fake->badFrees.load(), 0) << "freed a pointer twice or one the driver did not allocate";
  }

  /// Launches vector_add of `kernel` on 8 elements; returns out[7].
  float addEight(detail::KernelInfo &kernel) {
    auto x = to_device(std::vector<float>(8, 1.5f));
    auto out = device_empty_like(x);
    std::uint64_t slots[6];
    const float *xData = x.data();
    float *outData = out.data();
    std::int64_t n = 8;
    std::memcpy(&slots[0], &xData, 8);
    std::memcpy(&slots[1], &n, 8);
    std::memcpy(&slots[2], &xData, 8);
    std::memcpy(&slots[3], &n, 8);
    std::memcpy(&slots[4], &outData, 8);
    std::memcpy(&slots[5], &n, 8);
    void *args[6] = {&slots[0], &slots[1], &slots[2], &slots[3], &slots[4], &slots[5]};
    detail::launch(kernel, {1, 8}, args);
    std::vector<float> host(8);
    out.copy_to_host(host);
    return host[7];
  }

  /// Launches `kernel` (a grid-barrier probe) as generated launch code
  /// does, the barrier's slot 0; returns what it saw, and checks that the
  /// caller's arguments are as they were.
  ProbeSeen probe(detail::KernelInfo &kernel, const Launch &config) {
    ProbeSeen seen{};
    ProbeSeen *seenPointer = &seen;
    std::uint64_t slots[4] = {};
    std::memcpy(&slots[0], &seenPointer, 8);
    void *args[4] = {&slots[0], &slots[1], &slots[2], &slots[3]};
    detail::launch(kernel, config, args);
    EXPECT_EQ(args[1], &slots[1]) << "the launch wrote into the caller's args";
    EXPECT_EQ(slots[1], 0u) << "the launch wrote into the caller's barrier slot";
    return seen;
  }

  /// The bytes of the fake device's live allocation at `pointer` (0: none).
  static unsigned long long allocationBytes(std::uint64_t pointer) {
    void *symbol = fakeDriverSymbol("pykFakeCudaAllocationBytes");
    if (!symbol)
      return 0;
    unsigned long long (*bytes)(unsigned long long);
    std::memcpy(&bytes, &symbol, sizeof(symbol));
    return bytes(pointer);
  }

  PykFakeCudaState *fake = nullptr;
};

TEST_F(FakeDriver, ModuleLoadsOnceAndEachFunctionIsLookedUpOnce) {
  // Modules are static, as generated ones are: the runtime keys its module
  // cache by their address.
  static const detail::KernelModule module{"once.pyk", testModule.ptx};
  detail::KernelInfo add{&module, "vector_add", nullptr, 6};
  detail::KernelInfo scaleInfo{&module, "scale", nullptr, 5};
  int loads = fake->moduleLoads, lookups = fake->functionLookups, launches = fake->launches;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i)
        EXPECT_EQ(addEight(add), 3.0f);
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_NE(add.cachedFunction.load(), nullptr);
  EXPECT_EQ(fake->moduleLoads - loads, 1);
  EXPECT_EQ(fake->functionLookups - lookups, 1);
  EXPECT_EQ(fake->launches - launches, 100);

  auto x = to_device(std::vector<float>(4, 2.0f));
  auto out = device_empty_like(x);
  std::uint64_t slots[5] = {};
  float a = 3.0f;
  const float *xData = x.data();
  float *outData = out.data();
  std::int64_t n = 4;
  std::memcpy(&slots[0], &a, 4);
  std::memcpy(&slots[1], &xData, 8);
  std::memcpy(&slots[2], &n, 8);
  std::memcpy(&slots[3], &outData, 8);
  std::memcpy(&slots[4], &n, 8);
  void *args[5] = {&slots[0], &slots[1], &slots[2], &slots[3], &slots[4]};
  detail::launch(scaleInfo, {1, 4}, args);
  EXPECT_EQ(fake->moduleLoads - loads, 1) << "the second kernel of the module loaded it again";
  EXPECT_EQ(fake->functionLookups - lookups, 2);
}

TEST_F(FakeDriver, RejectedPtxGivesTheJitLog) {
  static const detail::KernelModule module{"bad.pyk", "// pyk-fake: invalid ptx\n.visible .entry vector_add(\n"};
  detail::KernelInfo kernel{&module, "vector_add", nullptr, 6};
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      addEight(kernel);
      FAIL() << "loaded invalid PTX";
    } catch (const CudaError &error) {
      EXPECT_EQ(error.call(), "cuModuleLoadDataEx");
      EXPECT_EQ(error.code(), 218);
      EXPECT_EQ(error.name(), "CUDA_ERROR_INVALID_PTX");
      EXPECT_STREQ(error.what(), "pyk: cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (218): loading the PTX of "
                                 "bad.pyk for pyk fake GPU (sm_90); the driver's JIT compiler rejected the PTX; "
                                 "please report this as a pyk bug\nthe JIT compiler's log:\nptxas application ptx "
                                 "input, line 3; fatal   : fake failure for testing");
    }
  }
  EXPECT_EQ(kernel.cachedFunction.load(), nullptr);
}

TEST_F(FakeDriver, AKernelMissingFromItsModule) {
  static const detail::KernelModule module{"stale.pyk", ".visible .entry other(\n"};
  detail::KernelInfo kernel{&module, "vector_add", nullptr, 6};
  try {
    addEight(kernel);
    FAIL() << "found a missing kernel";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.call(), "cuModuleGetFunction");
    EXPECT_STREQ(error.what(), "pyk: cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND (500): the GPU code of "
                               "vector_add (from stale.pyk) has no kernel named 'vector_add': the generated files "
                               "are out of date; rebuild them with pykc");
  }
}

TEST_F(FakeDriver, TheCubinForTheGpusArchitectureIsUsed) {
  // The fake GPU is sm_90: it runs sm_90 and sm_90a cubins, and PTX for
  // anything else (sm_80 is another major version, sm_91 newer).
  static constexpr char cubin[] = "PYKFAKECUBIN\n.visible .entry vector_add(\n";
  const auto *bytes = reinterpret_cast<const unsigned char *>(cubin);
  static const detail::CubinImage sm90[] = {{"sm_90", bytes, sizeof(cubin)}};
  static const detail::CubinImage sm90a[] = {{"sm_90a", bytes, sizeof(cubin)}};
  static const detail::CubinImage sm80[] = {{"sm_80", bytes, sizeof(cubin)}};
  static const detail::CubinImage sm91[] = {{"sm_91", bytes, sizeof(cubin)}};
  static const detail::CubinImage several[] = {{"sm_75", bytes, sizeof(cubin)}, {"sm_80", bytes, sizeof(cubin)},
                                               {"sm_90", bytes, sizeof(cubin)}};
  struct Case {
    detail::KernelModule module;
    bool usesCubin;
  };
  static const Case cases[] = {{{"cubin.pyk", testModule.ptx, sm90, 1}, true},
                               {{"cubin.pyk", testModule.ptx, sm90a, 1}, true},
                               {{"cubin.pyk", testModule.ptx, sm80, 1}, false},
                               {{"cubin.pyk", testModule.ptx, sm91, 1}, false},
                               {{"cubin.pyk", testModule.ptx, several, 3}, true}};
  for (const Case &c : cases) {
    const std::string arch = c.module.cubins[c.module.cubinCount - 1].arch;
    detail::KernelInfo kernel{&c.module, "vector_add", nullptr, 6};
    int cubins = fake->cubinLoads, loads = fake->moduleLoads;
    EXPECT_EQ(addEight(kernel), 3.0f) << arch;
    EXPECT_EQ(fake->moduleLoads - loads, 1) << arch;
    EXPECT_EQ(fake->cubinLoads - cubins, c.usesCubin ? 1 : 0) << arch;
  }
}

TEST_F(FakeDriver, WithoutPtxTheMessageNamesTheCubinsArchitectures) {
  static constexpr char cubin[] = "PYKFAKECUBIN\n.visible .entry vector_add(\n";
  static const detail::CubinImage images[] = {{"sm_75", reinterpret_cast<const unsigned char *>(cubin), sizeof(cubin)},
                                              {"sm_80", reinterpret_cast<const unsigned char *>(cubin), sizeof(cubin)}};
  static const detail::KernelModule module{"old.pyk", nullptr, images, 2};
  detail::KernelInfo kernel{&module, "vector_add", nullptr, 6};
  try {
    addEight(kernel);
    FAIL() << "launched without code for the GPU";
  } catch (const Error &error) {
    EXPECT_THAT(error.what(), HasSubstr("old.pyk was compiled without PTX and has cubins for sm_75, sm_80 only"));
  }
}

/// PTX as pykc embeds it for kernels that call a declared CUDA C++
/// function: declared `.extern`, defined by the linked files' PTX.
constexpr char callingPtx[] = ".extern .func (.param .b32 func_retval0) mul_f32\n(\n.param .b64 mul_f32_param_0\n)\n;\n"
                              ".visible .entry vector_add(\n";
const char *const definingPtx[] = {"// other.cu\n.visible .func  (.param .b32 func_retval0) add_f32(\n",
                                   "// functions.cu\n.visible .func  (.param .b32 func_retval0) mul_f32(\n"
                                   ".param .b64 mul_f32_param_0\n)\n{\nret;\n}\n"};

TEST_F(FakeDriver, PtxThatCallsCudaCxxIsLinkedWithItWhenLoaded) {
  static const detail::KernelModule module{"calls.pyk", callingPtx, nullptr, 0, nullptr, 0, definingPtx, 2};
  detail::KernelInfo kernel{&module, "vector_add", nullptr, 6};
  int links = fake->jitLinks, loads = fake->moduleLoads;
  EXPECT_EQ(addEight(kernel), 3.0f);
  EXPECT_EQ(addEight(kernel), 3.0f);
  EXPECT_EQ(fake->jitLinks - links, 1);
  EXPECT_EQ(fake->moduleLoads - loads, 1);

  // A cubin for the GPU is linked already: loaded as it is.
  static constexpr char cubin[] = "PYKFAKECUBIN\n.visible .entry vector_add(\n";
  static const detail::CubinImage images[] = {{"sm_90", reinterpret_cast<const unsigned char *>(cubin), sizeof(cubin)}};
  static const detail::KernelModule withCubin{"calls.pyk", callingPtx, images, 1, nullptr, 0, definingPtx, 2};
  detail::KernelInfo fromCubin{&withCubin, "vector_add", nullptr, 6};
  int cubins = fake->cubinLoads;
  EXPECT_EQ(addEight(fromCubin), 3.0f);
  EXPECT_EQ(fake->jitLinks - links, 1);
  EXPECT_EQ(fake->cubinLoads - cubins, 1);
}

TEST_F(FakeDriver, AFunctionNoLinkedFileDefinesIsNamed) {
  static const detail::KernelModule module{"unlinked.pyk", callingPtx, nullptr, 0, nullptr, 0, definingPtx, 1};
  detail::KernelInfo kernel{&module, "vector_add", nullptr, 6};
  try {
    addEight(kernel);
    FAIL() << "linked without the definition";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.call(), "cuLinkComplete");
    EXPECT_THAT(error.what(),
                HasSubstr("linking the PTX of unlinked.pyk with the CUDA C++ it calls, for pyk fake GPU (sm_90)"));
    EXPECT_THAT(error.what(), HasSubstr("the JIT compiler's log:\nerror   : Undefined reference to 'mul_f32'"));
  }
  EXPECT_EQ(kernel.cachedFunction.load(), nullptr);
}

TEST_F(FakeDriver, PtxThatCallsCudaCxxDoesNotLoadAlone) {
  // What a module built before pykc linked the files did: the driver
  // rejects it, as a GPU's does.
  static const detail::KernelModule module{"alone.pyk", callingPtx};
  detail::KernelInfo kernel{&module, "vector_add", nullptr, 6};
  try {
    addEight(kernel);
    FAIL() << "loaded PTX that calls a function it does not define";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.call(), "cuModuleLoadDataEx");
    EXPECT_THAT(error.what(), HasSubstr("ptxas fatal   : Unresolved extern function 'mul_f32'"));
  }
}

TEST_F(FakeDriver, AnAdoptedStreamIsUsedAndLeftToItsOwner) {
  const int live = fake->liveStreams;
  auto owner = std::make_unique<Stream>(); // stands for the program's own CUDA stream
  ASSERT_EQ(fake->liveStreams - live, 1);
  {
    Stream adopted = Stream::adopt(owner->native());
    detail::KernelInfo kernel{&testModule, "vector_add", nullptr, 6};
    EXPECT_EQ(addEight(kernel), 3.0f);
    auto x = to_device(std::vector<float>(4, 1.0f));
    std::vector<float> back(4);
    x.copy_to_host_async(back, adopted);
    adopted.synchronize();
    EXPECT_EQ(back[3], 1.0f);
  }
  EXPECT_EQ(fake->liveStreams - live, 1) << "pyk destroyed a stream it adopted";
  owner.reset();
  EXPECT_EQ(fake->liveStreams - live, 0);
}

TEST_F(FakeDriver, PinnedBuffersAreCopiedWithoutStagingAndFreed) {
  const int pinned = fake->livePinnedAllocations, pageable = fake->pageableAsyncCopies;
  Stream stream;
  auto x = device_empty<float>({64});
  {
    PinnedBuffer<float> host(64);
    EXPECT_EQ(fake->livePinnedAllocations - pinned, 1);
    x.copy_from_host_async(host.data(), host.size(), stream);
    x.copy_to_host_async(host.data() + 0, host.size(), stream);
    stream.synchronize();
    EXPECT_EQ(fake->pageableAsyncCopies - pageable, 0);
  }
  EXPECT_EQ(fake->livePinnedAllocations - pinned, 0);
  std::vector<float> ordinary(64);
  x.copy_to_host_async(ordinary, stream); // pageable: the driver stages it
  stream.synchronize();
  EXPECT_EQ(fake->pageableAsyncCopies - pageable, 1);
}

TEST_F(FakeDriver, MoreSharedMemoryThanTheDefaultIsOptedInto) {
  auto x = to_device(std::vector<float>(1024, 1.0f));
  auto out = device_empty_like(x);
  reverseBlocks({1, 1024, 100 * 1024}, x, out);
  EXPECT_EQ(fake->dynamicSharedOptIn.load(), 100 * 1024);
}

TEST_F(FakeDriver, LaunchOutOfResourcesSaysWhy) {
  fake->maxThreadsPerFunction = 512;
  try {
    auto x = to_device(std::vector<float>(1024, 1.0f));
    auto out = device_empty_like(x);
    vectorAdd({1, 1024}, x, x, out);
    ADD_FAILURE() << "launched";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.call(), "cuLaunchKernel");
    EXPECT_STREQ(error.what(), "pyk: cuLaunchKernel failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701): launching "
                               "vector_add (from test_kernels.cu) with grid (1, 1, 1) and block (1024, 1, 1); the "
                               "kernel uses 32 registers per thread, so a block of it can have at most 512 threads, "
                               "not 1024; launch fewer threads per block, or limit the kernel's registers");
  }
  fake->maxThreadsPerFunction = 1024;
}

TEST_F(FakeDriver, SynchronizeReportsAsynchronousErrors) {
  fake->synchronizeError = 700;
  try {
    synchronize();
    ADD_FAILURE() << "no error";
  } catch (const CudaError &error) {
    EXPECT_EQ(error.call(), "cuCtxSynchronize");
    EXPECT_EQ(error.name(), "CUDA_ERROR_ILLEGAL_ADDRESS");
    EXPECT_THAT(error.what(), HasSubstr("pyk: cuCtxSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS (700): a kernel or "
                                        "copy that ran before this pyk::synchronize() failed; a kernel read or wrote "
                                        "outside an array: compile it with pykc --checked"));
  }
  fake->synchronizeError = 0;
}

TEST_F(FakeDriver, EveryArrayIsFreedOnce) {
  int live = fake->liveAllocations;
  {
    auto a = to_device(std::vector<float>(100, 1.0f));
    auto b = std::move(a);
    auto c = device_empty_like(b);
    c = std::move(b);
    EXPECT_EQ(fake->liveAllocations - live, 1);
  }
  EXPECT_EQ(fake->liveAllocations - live, 0);
}

TEST_F(FakeDriver, EveryThreadGetsTheContext) {
  std::thread([] {
    auto x = to_device(std::vector<float>(64, 2.0f));
    auto out = device_empty_like(x);
    Stream stream;
    Event event;
    scale({1, 64, 0, &stream}, 2.0f, x, out);
    event.record(&stream);
    event.synchronize();
  }).join();
}

//===--- Kernels that synchronise their grid --------------------------------===//

TEST_F(FakeDriver, OnlyKernelsThatSynchroniseTheirGridAreLaunchedCooperatively) {
  ASSERT_TRUE(registerKernelWithFakeDriver("grid_barrier_probe", gridBarrierProbeCpu<false>));
  detail::KernelInfo add{&testModule, "vector_add", nullptr, 6};
  int launches = fake->launches, cooperative = fake->cooperativeLaunches;
  EXPECT_EQ(addEight(add), 3.0f);
  EXPECT_EQ(fake->launches - launches, 1);
  EXPECT_EQ(fake->cooperativeLaunches - cooperative, 0);
  probe(gridProbeKernel, {{3, 2}, {64, 2}, 512});
  EXPECT_EQ(fake->launches - launches, 1);
  EXPECT_EQ(fake->cooperativeLaunches - cooperative, 1);
  EXPECT_EQ(fake->occupancyBlockSize.load(), 128) << "the occupancy asked for the launch's block";
  EXPECT_EQ(fake->occupancySharedBytes.load(), 512);
}

TEST_F(FakeDriver, AGridLargerThanTheGpuHoldsAtOnceIsALaunchConfigError) {
  ASSERT_TRUE(registerKernelWithFakeDriver("grid_barrier_probe", gridBarrierProbeCpu<false>));
  const int cooperative = fake->cooperativeLaunches;
  fake->blocksPerMultiprocessor = 2;
  try {
    probe(gridProbeKernel, {265, 128});
    ADD_FAILURE() << "launched";
  } catch (const LaunchConfigError &error) {
    EXPECT_STREQ(error.what(),
                 "pyk: cannot launch grid_barrier_probe (from grid.pyk) with grid (265, 1, 1) and block (128, 1, 1): "
                 "the kernel synchronises its grid (cuda.cg.this_grid().sync()), so it is launched cooperatively, "
                 "with every block resident on the GPU at once; the grid has 265 blocks, and pyk fake GPU (sm_90) "
                 "holds at most 264 blocks of 128 threads with 0 bytes of dynamic shared memory at once (2 per "
                 "multiprocessor on 132 multiprocessors): launch at most 264 blocks");
  }
  EXPECT_EQ(fake->cooperativeLaunches - cooperative, 0);
  probe(gridProbeKernel, {{132, 2}, 128});
  EXPECT_EQ(fake->cooperativeLaunches - cooperative, 1) << "the largest grid that fits was not launched";
  fake->blocksPerMultiprocessor = 0;
  try {
    probe(gridProbeKernel, {1, 1024, 4096});
    ADD_FAILURE() << "launched";
  } catch (const LaunchConfigError &error) {
    EXPECT_STREQ(error.what(),
                 "pyk: cannot launch grid_barrier_probe (from grid.pyk) with grid (1, 1, 1) and block (1024, 1, 1): "
                 "the kernel synchronises its grid (cuda.cg.this_grid().sync()), so it is launched cooperatively, "
                 "with every block resident on the GPU at once; the grid has 1 blocks, and not one block of 1024 "
                 "threads with 4096 bytes of dynamic shared memory fits on a multiprocessor of pyk fake GPU (sm_90) "
                 "(its registers or shared memory): launch smaller blocks");
  }
  EXPECT_EQ(fake->cooperativeLaunches - cooperative, 1);
}

TEST_F(FakeDriver, TheLargestCooperativeGridIsTheOccupancyTimesTheMultiprocessors) {
  ASSERT_TRUE(registerKernelWithFakeDriver("grid_barrier_probe", gridBarrierProbeCpu<false>));
  fake->blocksPerMultiprocessor = 3;
  EXPECT_EQ(detail::maxCooperativeGridBlocks(gridProbeKernel, {32, 4}, 256), 3u * 132u);
  EXPECT_EQ(fake->occupancyBlockSize.load(), 128) << "the occupancy asked for the block's threads";
  EXPECT_EQ(fake->occupancySharedBytes.load(), 256);
  fake->blocksPerMultiprocessor = 0;
  EXPECT_EQ(detail::maxCooperativeGridBlocks(gridProbeKernel, {1024}, 0), 0u) << "not one block fits";
  // More dynamic shared memory than a block gets by default is allowed
  // first, as a launch allows it, or the occupancy would not count it.
  fake->blocksPerMultiprocessor = 1;
  EXPECT_EQ(detail::maxCooperativeGridBlocks(gridProbeKernel, {256}, 64 * 1024), 132u);
  EXPECT_EQ(fake->dynamicSharedOptIn.load(), 64 * 1024);
}

TEST_F(FakeDriver, EachStreamHasAGridBarrierOfItsOwn) {
  ASSERT_TRUE(registerKernelWithFakeDriver("grid_barrier_probe", gridBarrierProbeCpu<false>));
  const ProbeSeen onDefault = probe(gridProbeKernel, {4, 32});
  EXPECT_EQ(fake->cooperativeStream.load(), nullptr);
  EXPECT_EQ(probe(gridProbeKernel, {2, 64}).barrier, onDefault.barrier) << "the default stream's changed";
  std::uint64_t first = 0, second = 0;
  const int live = fake->liveAllocations;
  {
    Stream a, b, unused;
    first = probe(gridProbeKernel, {4, 32, 0, &a}).barrier;
    EXPECT_EQ(fake->cooperativeStream.load(), static_cast<void *>(a.impl()->cuStream));
    EXPECT_EQ(probe(gridProbeKernel, {8, 32, 0, &a}).barrier, first) << "a stream's changed";
    second = probe(gridProbeKernel, {4, 32, 0, &b}).barrier;
    EXPECT_EQ(fake->cooperativeStream.load(), static_cast<void *>(b.impl()->cuStream));
    EXPECT_NE(first, second);
    EXPECT_NE(first, onDefault.barrier);
    EXPECT_NE(second, onDefault.barrier);
    for (std::uint64_t barrier : {onDefault.barrier, first, second})
      EXPECT_EQ(allocationBytes(barrier), 8u) << "not a live allocation of two uint32 words";
    EXPECT_EQ(fake->liveAllocations - live, 2) << "a stream without cooperative launches got a barrier";
  }
  EXPECT_EQ(onDefault.barrierValue, 0u);
  EXPECT_EQ(allocationBytes(first), 0u) << "a destroyed stream's barrier was not freed";
  EXPECT_EQ(allocationBytes(second), 0u) << "a destroyed stream's barrier was not freed";
  EXPECT_EQ(fake->liveAllocations - live, 0);
}

TEST_F(FakeDriver, ABarrierIsZeroWhenFirstUsed) {
  ASSERT_TRUE(registerKernelWithFakeDriver("grid_barrier_probe", gridBarrierProbeCpu<false>));
  Stream stream;
  const ProbeSeen seen = probe(gridProbeKernel, {2, 32, 0, &stream});
  EXPECT_NE(seen.barrier, 0u);
  EXPECT_EQ(seen.barrierValue, 0u);
}

TEST_F(FakeDriver, ACheckedKernelThatSynchronisesItsGridGetsItsBarrierAndItsCheckRecord) {
  ASSERT_TRUE(registerKernelWithFakeDriver("checked_grid_barrier_probe", gridBarrierProbeCpu<true>));
  const ProbeSeen seen = probe(checkedGridProbeKernel, {2, 32});
  EXPECT_EQ(allocationBytes(seen.barrier), 8u);
  EXPECT_EQ(allocationBytes(seen.checkRecord), sizeof(pyk_check_record));
  EXPECT_EQ(seen.launchWord, reinterpret_cast<std::uintptr_t>(&checkedGridProbeKernel));
  synchronize();
}

} // namespace
} // namespace pyk::test
