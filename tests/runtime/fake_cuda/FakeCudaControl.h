//===- FakeCudaControl.h - Steering the fake CUDA driver from tests --------===//
//
// The fake libcuda.so.1 (FakeCudaDriver.cpp) implements the driver entry
// points the runtime uses on the host: device memory is host memory, a
// launch runs the kernel's registered CPU entry block by block, and modules
// are PTX text searched for ".entry NAME(". A module whose PTX declares a
// function `.extern` and does not define it fails to load, as on a GPU;
// cuLinkComplete joins the PTX it was given and checks the same. Tests
// reach these extra functions with dlsym on the loaded library. A
// cooperative launch runs its blocks one after another too, so a kernel it
// runs must not wait at a grid barrier.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_TEST_FAKECUDACONTROL_H
#define PYK_TEST_FAKECUDACONTROL_H

#include "pyk/Launch.h"

#include <atomic>

/// Counters and knobs of the fake driver.
struct PykFakeCudaState {
  std::atomic<int> moduleLoads{0};              ///< successful cuModuleLoadDataEx calls
  std::atomic<int> cubinLoads{0};               ///< of which images were (fake) cubins
  std::atomic<int> jitLinks{0};                 ///< successful cuLinkComplete calls
  std::atomic<int> functionLookups{0};          ///< cuModuleGetFunction calls
  std::atomic<int> launches{0};                 ///< successful cuLaunchKernel calls
  std::atomic<int> liveAllocations{0};          ///< cuMemAlloc_v2 minus cuMemFree_v2
  std::atomic<int> badFrees{0};                 ///< cuMemFree_v2 of unknown pointers
  std::atomic<int> contextErrors{0};            ///< calls from a thread with no current context
  std::atomic<int> otherContextUses{0};         ///< a stream, event or function used in another device's context
  std::atomic<int> peerCopies{0};               ///< cuMemcpyPeer and cuMemcpyPeerAsync calls
  std::atomic<int> liveStreams{0};              ///< cuStreamCreate minus cuStreamDestroy_v2
  std::atomic<int> livePinnedAllocations{0};    ///< cuMemHostAlloc minus cuMemFreeHost
  std::atomic<int> pageableAsyncCopies{0};      ///< asynchronous copies to or from host memory that is not pinned
  std::atomic<int> capturedLaunches{0};         ///< launches kept by a capturing stream
  std::atomic<int> graphLaunches{0};            ///< successful cuGraphLaunch calls
  std::atomic<int> liveGraphs{0};               ///< graphs and executable graphs not yet destroyed
  std::atomic<int> maxThreadsPerFunction{1024}; ///< CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
  std::atomic<int> dynamicSharedOptIn{0};       ///< the last CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES set
  std::atomic<int> synchronizeError{0};         ///< what cuCtxSynchronize returns
  // Cooperative launches (kernels that synchronise their grid).
  std::atomic<int> cooperativeLaunches{0}; ///< successful cuLaunchCooperativeKernel calls
  /// What cuOccupancyMaxActiveBlocksPerMultiprocessor says; negative: 2048
  /// threads' worth of blocks, at most 32 (the fake GPU has 132
  /// multiprocessors, which the runtime reads once, when it selects it).
  std::atomic<int> blocksPerMultiprocessor{-1};
  std::atomic<int> occupancyBlockSize{0};         ///< of the last occupancy query
  std::atomic<long long> occupancySharedBytes{0}; ///< of the last occupancy query
  std::atomic<void *> cooperativeStream{nullptr}; ///< the CUstream of the last cooperative launch
};

extern "C" {
/// The fake's state (one per process).
PykFakeCudaState *pykFakeCudaState();
/// Makes launches of the kernel named `symbol` run `entry`.
void pykFakeCudaRegisterKernel(const char *symbol, pyk::detail::CpuKernelEntry entry);
/// The bytes of the live allocation at `pointer` (a CUdeviceptr that
/// cuMemAlloc_v2 returned and cuMemFree_v2 has not freed), or 0.
unsigned long long pykFakeCudaAllocationBytes(unsigned long long pointer);
}

#endif // PYK_TEST_FAKECUDACONTROL_H
