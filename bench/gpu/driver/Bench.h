// What the GPU benchmark's parts share: where it runs, the sizes, and the
// rows its tables are made of. main.cpp decides the mode and calls the
// parts in order; each part fills rows and prints what it does as it goes.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

/// How the benchmark runs: on the GPU (pyk's kernels through the CUDA
/// driver, hand-written ones through the CUDA runtime), or, when there is
/// none, pyk's kernels alone on pyk's CPU device at small sizes, so that the
/// harness and the checks still run.
struct Context {
  bool gpu = false;
  int multiprocessors = 0;      ///< on the GPU; grid-stride kernels launch 8 blocks per SM
  unsigned gridStrideBlocks = 0; ///< blocks of the grid-stride kernels (reductions, histogram)
  int runs = 20;                 ///< timed runs per measurement (median reported)
  int warmups = 3;
  std::string generatedDir;      ///< bench/gpu/generated (PTX and cubins for the driver API)
};

/// Problem sizes: several times the H200's 60 MB L2 on the GPU, small on
/// the CPU device. numba_bench.py reads them from --print-sizes.
struct Sizes {
  std::int64_t elementwise;  ///< float32 elements of vector_add and saxpy
  std::int64_t stencilSide;  ///< rows = cols of the Jacobi grid
  std::int64_t matmul;       ///< n of the n x n matrices
  std::int64_t reduction;    ///< int64 (block_sum) and float64 (warp_sum) elements
  std::int64_t histogram;    ///< int32 elements
  int gridSyncSteps;         ///< heat_steps' steps, each ended by a grid sync
};
Sizes sizesFor(bool large);

/// The four implementations every kernel runs in, and Numba's, which
/// numba_bench.py times in its own process (--numba FILE). PykPtx32 is the
/// PTX path compiled with pykc --index-bits=32 (32-bit element offsets).
/// The pyk ones come first and Hand after them (main.cpp's failure scan
/// runs from PykPtx to Hand); Numba, an optional last column, stays last.
enum Impl { PykPtx, PykPtx32, PykCuda, Hand, Numba, ImplCount };
const char *implName(Impl impl);

/// One value per implementation, all `value`: whatever ImplCount is, no
/// entry is left zero-initialised.
template <typename T> std::array<T, ImplCount> perImpl(const T &value) {
  std::array<T, ImplCount> values;
  values.fill(value);
  return values;
}

/// One kernel's measurements. A time is NaN when the implementation did not
/// run or failed its check; `status` then says why.
struct KernelRow {
  std::string name;
  std::string size;
  double bytes = 0;       ///< the fewest bytes it must move through device memory
  double flops = 0;       ///< floating-point operations (0: reported as GB/s)
  bool memoryBound = true;
  std::array<double, ImplCount> ms = perImpl<double>(NAN);
  std::array<std::string, ImplCount> status = perImpl<std::string>("not run");
};

/// The device-to-device copy bandwidth (bytes read + written per second),
/// the ceiling that memory-bound kernels are reported against.
struct CopyCeiling {
  double memcpyGBs = NAN, kernelGBs = NAN;
  double best() const;
};

/// Host time of one launch of an empty kernel with `args` int32 arguments.
struct LaunchRow {
  int args = 0;
  double wrapperUs = NAN, rawUs = NAN;
};

/// Microseconds per kernel, to the end of the synchronisation, of `kernels`
/// empty launches on a stream and of the same launches replayed as a graph.
struct GraphRow {
  int kernels = 0;
  double streamUs = NAN, graphUs = NAN;
};

/// Time to load one module: the driver JIT-compiling PTX (pykc's LLVM PTX
/// and nvcc's PTX of pykc's CUDA C++) against loading a ptxas cubin.
struct ModuleLoadRow {
  std::string module;
  double llvmPtxMs = NAN, nvccPtxMs = NAN, cubinMs = NAN;
};

// The parts, in the order main runs them.
CopyCeiling measureCopyCeiling(const Context &context);
std::vector<KernelRow> runKernels(const Context &context, const Sizes &sizes);
std::vector<LaunchRow> measureLaunchOverhead(const Context &context);
std::vector<GraphRow> measureGraphReplay(const Context &context);
std::vector<ModuleLoadRow> measureModuleLoads(const Context &context);

/// Adds Numba's times from numba_bench.py's output file ("NAME MS" or
/// "NAME FAILED why" per line) to the rows; a missing file is a printed note.
void addNumbaTimes(const std::string &file, std::vector<KernelRow> &rows);

/// The markdown tables, in one string (printed last, and written to a file).
std::string tables(const Context &context, const std::string &device, const CopyCeiling &ceiling,
                   const std::vector<KernelRow> &kernels, const std::vector<LaunchRow> &launches,
                   const std::vector<GraphRow> &graphs, const std::vector<ModuleLoadRow> &loads, bool numbaColumn);

/// Prints one progress line ("gpu_bench: ...") and flushes, so that a run
/// cut short still shows how far it got.
void step(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace bench
