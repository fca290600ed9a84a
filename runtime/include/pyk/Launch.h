//===- pyk/Launch.h - Launch configuration and the kernel launch ABI -------===//
//
// pyk::Launch{grid, block[, shared_bytes, stream]} is what a generated launch
// function takes. The detail:: part is the contract between the code pykc
// generates (NAME.pyk.cpp) and the runtime; users do not need it.
//
//===----------------------------------------------------------------------===//
#ifndef PYK_LAUNCH_H
#define PYK_LAUNCH_H

#include "pyk/CheckRecord.h"
#include "pyk/CpuBlockContext.h"
#include "pyk/Device.h"
#include "pyk/Stream.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace pyk {

namespace detail {
/// Throws LaunchConfigError: a Dim3 was given `value`, which no uint32 holds.
[[noreturn]] void rejectDimension(const std::string &value, bool negative);
} // namespace detail

/// A 1-, 2- or 3-D extent of a grid or block; unset dimensions are 1. From
/// integers of any type, so that `{blocks, threads}` works with int or
/// size_t variables alike; a negative value (or one beyond 2^32 - 1) is a
/// LaunchConfigError here, where it would otherwise wrap around to a huge
/// unsigned extent.
struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  Dim3() = default;
  template <typename X, typename Y = int, typename Z = int,
            typename = std::enable_if_t<std::is_integral_v<X> && std::is_integral_v<Y> && std::is_integral_v<Z>>>
  Dim3(X x_, Y y_ = 1, Z z_ = 1) : x(extent(x_)), y(extent(y_)), z(extent(z_)) {}

private:
  template <typename Int> static std::uint32_t extent(Int value) {
    if constexpr (std::is_signed_v<Int>)
      if (value < 0)
        detail::rejectDimension(std::to_string(value), /*negative=*/true);
    if (static_cast<unsigned long long>(value) > UINT32_MAX)
      detail::rejectDimension(std::to_string(value), /*negative=*/false);
    return static_cast<std::uint32_t>(value);
  }
};

/// How to launch a kernel: grid and block extents, dynamic shared memory in
/// bytes, and the stream (null: the default stream).
struct Launch {
  Dim3 grid;
  Dim3 block;
  std::size_t shared_bytes = 0;
  Stream *stream = nullptr;
};

namespace detail {

/// The CPU-device entry of a kernel, compiled by pykc for the host: runs
/// every thread of the block `context` describes. `args` is laid out as for
/// cuLaunchKernel: args[i] points to the i-th parameter value, where an
/// array parameter is its data pointer followed by one int64 per extent.
/// The runtime calls it once per block, blocks in parallel on its threads;
/// context->sharedMemory is null when Launch::shared_bytes is 0 and aligned
/// to 64 bytes otherwise. An exception it throws reaches the launch (the
/// default stream) or the stream's next synchronize(), and so does an error
/// that pyk_cpu_run_block (pyk/CpuDevice.h) recorded while it ran.
using CpuKernelEntry = void (*)(void **args, const CpuBlockContext *context);

/// GPU code assembled ahead of time for one architecture.
struct CubinImage {
  const char *arch; ///< "sm_90" (or "sm_90a": that GPU only)
  const unsigned char *data;
  std::size_t size;
};
/// The kernels of one .pyk file, as pykc embeds them. It must live as long
/// as the program launches its kernels (generated ones are static): the
/// runtime keys its cache of loaded GPU modules by its address and keeps
/// them loaded until the program exits.
struct KernelModule {
  const char *sourceName; ///< the .pyk file, for messages
  const char *ptx;        ///< PTX text for the GPU (null-terminated)
  /// Cubins for the architectures the program was built for (pyk_add_kernels
  /// ARCH). A GPU loads the one for its architecture, or the newest of its
  /// major version below it (the GPU runs those), and otherwise the PTX,
  /// which the driver compiles (JIT) on first use.
  const CubinImage *cubins = nullptr;
  std::size_t cubinCount = 0;
  /// Checked mode: what each check site of the module reports, indexed by
  /// pyk_check_record::site.
  const CheckSiteInfo *checkSites = nullptr;
  std::size_t checkSiteCount = 0;
  /// The PTX of the CUDA C++ files the kernels call (cuda.declare_device,
  /// link=), compiled by nvcc. A GPU that loads `ptx` links it with these
  /// (cuLinkCreate); the cubins are linked with them already.
  const char *const *linkedPtx = nullptr;
  std::size_t linkedPtxCount = 0;
};

/// One kernel. The runtime caches the loaded GPU function in it, so that a
/// launch does no lookup by name.
struct KernelInfo {
  const KernelModule *module;
  const char *symbol;        ///< the kernel's name in the PTX
  CpuKernelEntry cpuEntry;   ///< the CPU device's code for it
  unsigned argCount;         ///< entries in the args array of a launch
  /// Bytes of each argument value (argCount entries, each at most 8). A
  /// launch queued on a CPU-device stream copies the values, because args
  /// points into its caller's frame. Null: 8 bytes each, and every args[i]
  /// must then point to 8 readable bytes.
  const std::uint8_t *argSizes = nullptr;
  /// `@cuda.jit(launch_bounds=T)`: the most threads per block a launch may
  /// have (the GPU's code is compiled for it); 0 when not given.
  unsigned maxThreadsPerBlock = 0;
  /// Compiled in checked mode (pyk/CheckRecord.h): `args` has two more
  /// entries after the argCount ones, pointing to 8 bytes each, which the
  /// runtime fills in with the check record's address and this
  /// KernelInfo's.
  bool checked = false;
  /// The most bytes of local arrays (cuda.local.array) one thread of the
  /// kernel may hold at once, its device functions' included; 0 when it
  /// has none. The CPU device keeps them on the thread's stack: a launch
  /// gives each fiber of a kernel that synchronises this much stack more
  /// than PYK_CPU_FIBER_STACK, and rejects a kernel for which that is over
  /// the CPU device's limit, before running anything.
  std::uint64_t localMemoryBytes = 0;
  /// The kernel synchronises its whole grid (`cuda.cg.this_grid().sync()`,
  /// in it or in a device function it calls): it is launched cooperatively,
  /// every block resident at once, and a grid larger than the device can
  /// hold at once is a LaunchConfigError naming the largest that fits. Its
  /// last argument, args[argCount - 1], points to a uint64 that the launch
  /// function sets to 0 and a GPU launch replaces with the address of the
  /// grid barrier: two uint32 words, an arrival count and a generation,
  /// zero when first used and left with count 0 by every launch that
  /// completes. Each stream has its own, so that cooperative grids on two
  /// streams never share one. The CPU device's code ignores it: it calls
  /// pyk_cpu_grid_sync (pyk/CpuDevice.h).
  bool gridSynchronises = false;
  std::atomic<void *> cachedFunction{nullptr}; ///< CUfunction, filled on first GPU launch
};

/// Validates `config` (LaunchConfigError) and runs the kernel on the
/// current device; asynchronous on a GPU. On the CPU device a launch on the
/// default stream first waits for the work queued on every stream, then
/// runs before returning; a launch on a stream is queued behind its work.
void launch(KernelInfo &kernel, const Launch &config, void **args);

/// Numba's max_cooperative_grid_blocks: the most blocks of `block` threads
/// with `sharedBytes` of dynamic shared memory a grid of `kernel` (one that
/// synchronises its grid: gridSynchronises) may have on the current device,
/// all of them resident at once; a larger grid is a LaunchConfigError. On a
/// GPU the driver's occupancy for this kernel times the multiprocessors (0
/// when not one block fits); on the CPU device its own limit. Generated
/// code calls it: pyk::kernels::max_cooperative_grid_blocks::KERNEL(block).
std::uint32_t maxCooperativeGridBlocks(KernelInfo &kernel, const Dim3 &block, std::size_t sharedBytes);

/// Throws ShapeError: `array` has too many elements for a kernel compiled
/// with pykc --index-bits=32.
[[noreturn]] void rejectWideArray(const KernelInfo &kernel, const char *array, std::int64_t elements);

/// Kernels compiled with pykc --index-bits=32 compute element offsets in
/// 32-bit arithmetic: their launch functions call this for each array
/// argument before launching, on every device alike.
inline void requireNarrowOffsets(const KernelInfo &kernel, const char *array, std::int64_t elements) {
  if (elements >= (std::int64_t{1} << 31))
    rejectWideArray(kernel, array, elements);
}

/// Throws DeviceError: `array` belongs to device `device`, not the current one.
[[noreturn]] void rejectArrayDevice(const KernelInfo &kernel, const char *array, int device);

/// Launch functions call this for each array argument before launching: it
/// must belong to the current device (-1, an ArrayView of memory pyk did not
/// allocate, is not checked).
inline void requireArrayOnDevice(const KernelInfo &kernel, const char *array, int device) {
  if (device >= 0 && device != get_device())
    rejectArrayDevice(kernel, array, device);
}

} // namespace detail
} // namespace pyk

#endif // PYK_LAUNCH_H
