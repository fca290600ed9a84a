// gpu_bench: pyk's kernels through both GPU paths (the PTX one also with
// 32-bit element offsets) against hand-written CUDA on one GPU, after the
// device-to-device copy ceiling; then launch overhead, graph replay and module load time.
// Prints progress lines as it goes and the markdown tables last. Without a
// GPU it runs pyk's kernels on pyk's CPU device at small sizes instead, so
// that the harness and the checks are exercised anywhere. Exits 1 if any
// check failed or any measurement hit an error.
//
// usage: gpu_bench [--runs N] [--small] [--cpu] [--numba FILE] [--tables FILE]
//                  [--generated DIR] [--print-sizes]
#include "Bench.h"
#include "CudaCheck.h"

#include <pyk/pyk.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#ifndef PYK_GPU_BENCH_GENERATED_DIR
#define PYK_GPU_BENCH_GENERATED_DIR "bench/gpu/generated"
#endif

namespace {

struct Options {
  int runs = 20;
  bool small = false, forceCpu = false, printSizes = false;
  std::string numbaFile, tablesFile, generatedDir = PYK_GPU_BENCH_GENERATED_DIR;
};

[[noreturn]] void usage(const char *problem) {
  std::fprintf(stderr,
               "gpu_bench: %s\nusage: gpu_bench [--runs N] [--small] [--cpu] [--numba FILE] [--tables FILE] "
               "[--generated DIR] [--print-sizes]\n",
               problem);
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage((arg + " needs a value").c_str());
      return argv[++i];
    };
    if (arg == "--runs")
      options.runs = std::atoi(value().c_str());
    else if (arg == "--small")
      options.small = true;
    else if (arg == "--cpu")
      options.forceCpu = true;
    else if (arg == "--numba")
      options.numbaFile = value();
    else if (arg == "--tables")
      options.tablesFile = value();
    else if (arg == "--generated")
      options.generatedDir = value();
    else if (arg == "--print-sizes")
      options.printSizes = true;
    else
      usage(("unknown argument " + arg).c_str());
  }
  if (options.runs < 1)
    usage("--runs must be at least 1");
  return options;
}

/// Whether the CUDA runtime sees a GPU; `why` says why not.
bool findGpu(std::string &why) {
  int count = 0;
  const cudaError_t result = cudaGetDeviceCount(&count);
  if (result != cudaSuccess) {
    why = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(result) + " (" + cudaGetErrorString(result) + ")";
    return false;
  }
  if (count == 0) {
    why = "cudaGetDeviceCount found no device";
    return false;
  }
  return true;
}

bool anyFailure(const std::vector<bench::KernelRow> &rows) {
  for (const bench::KernelRow &row : rows)
    for (int impl = bench::PykPtx; impl <= bench::Hand; ++impl)
      if (row.status[impl] == "check failed" || row.status[impl] == "error")
        return true;
  return false;
}

} // namespace

int main(int argc, char **argv) {
  using namespace bench;
  // Before anything starts the driver: every PTX module load must be a real
  // JIT compilation (ModuleLoad.cpp), not a hit in the driver's cache.
  setenv("CUDA_CACHE_DISABLE", "1", 0);
  const Options options = parse(argc, argv);

  std::string noGpu;
  const bool gpu = !options.forceCpu && findGpu(noGpu);
  if (options.forceCpu)
    noGpu = "--cpu";
  const Sizes sizes = sizesFor(gpu && !options.small);
  if (options.printSizes) { // for numba_bench.py, which must use the same sizes
    std::printf("elementwise=%lld stencil_side=%lld matmul=%lld reduction=%lld histogram=%lld blocks_per_sm=8\n",
                static_cast<long long>(sizes.elementwise), static_cast<long long>(sizes.stencilSide),
                static_cast<long long>(sizes.matmul), static_cast<long long>(sizes.reduction),
                static_cast<long long>(sizes.histogram));
    return 0;
  }

  Context context;
  context.gpu = gpu;
  context.generatedDir = options.generatedDir;
  std::string device;
  try {
    if (gpu) {
      // pyk must use the GPU too (an error, not a silent fall-back to the
      // CPU device); the CUDA runtime and pyk share device 0's primary context.
      setenv("PYK_DEVICE", "cuda", 1);
      cudaCheck(cudaSetDevice(0), "cudaSetDevice(0)");
      cudaCheck(cudaFree(nullptr), "cudaFree(0): creating the primary context");
      cudaCheck(cudaDeviceGetAttribute(&context.multiprocessors, cudaDevAttrMultiProcessorCount, 0),
                "cudaDeviceGetAttribute");
      context.gridStrideBlocks = 8u * static_cast<unsigned>(context.multiprocessors);
      context.runs = options.runs;
      context.warmups = 3;
    } else {
      step("no GPU (%s): running pyk's kernels on pyk's CPU device at small sizes, to check the harness and the "
           "kernels; hand-written CUDA, the copy ceiling, raw launches and module loads need a GPU and are skipped. "
           "These times say nothing about a GPU.",
           noGpu.c_str());
      setenv("PYK_DEVICE", "cpu", 1);
      context.gridStrideBlocks = 16;
      context.runs = std::min(options.runs, 3);
      context.warmups = 1;
    }
    device = pyk::device_name();
    if ((pyk::current_device() == pyk::DeviceKind::Cuda) != gpu)
      throw std::runtime_error("pyk chose " + device + ", the CUDA runtime disagrees");
  } catch (const std::exception &error) {
    step("cannot start: %s", error.what());
    return 1;
  }
  if (gpu)
    device += ", " + std::to_string(context.multiprocessors) + " SMs";
  step("device: %s; %d timed runs per measurement; grid-stride kernels launch %u blocks of 256", device.c_str(),
       context.runs, context.gridStrideBlocks);

  const CopyCeiling ceiling = measureCopyCeiling(context);
  std::vector<KernelRow> kernels = runKernels(context, sizes);
  if (!options.numbaFile.empty())
    addNumbaTimes(options.numbaFile, kernels);
  const std::vector<LaunchRow> launches = measureLaunchOverhead(context);
  const std::vector<GraphRow> graphs = measureGraphReplay(context);
  const std::vector<ModuleLoadRow> loads = measureModuleLoads(context);

  const bool failed = anyFailure(kernels);
  step(failed ? "SOME CHECKS FAILED OR ERRORED: see the lines above and the tables" : "all checks passed");
  const std::string text = tables(context, device, ceiling, kernels, launches, graphs, loads, !options.numbaFile.empty());
  std::printf("\n%s", text.c_str());
  if (!options.tablesFile.empty()) {
    std::ofstream out(options.tablesFile);
    out << text;
    if (!out)
      step("cannot write %s", options.tablesFile.c_str());
  }
  return failed ? 1 : 0;
}
