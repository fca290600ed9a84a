// How long loading a module takes: the driver JIT-compiling PTX (what pyk's
// runtime does on a kernel's first launch, for pykc's LLVM PTX or nvcc's PTX
// of pykc's CUDA C++) against loading a cubin that ptxas made ahead of time.
// main sets CUDA_CACHE_DISABLE=1 before the driver starts, so every PTX load
// is a real compilation, not a hit in the driver's JIT cache.
#include "Bench.h"
#include "DriverApi.h"
#include "Files.h"
#include "Timing.h"

#include <chrono>

namespace bench {
namespace {

constexpr int loads = 5;

double medianLoadMs(const DriverApi &api, const std::string &image, const char *what) {
  std::vector<double> ms;
  for (int i = 0; i < loads; ++i) {
    CUmodule module = nullptr;
    const auto start = std::chrono::steady_clock::now();
    driverCheck(api.moduleLoadData(&module, image.c_str()), what);
    const auto stop = std::chrono::steady_clock::now();
    api.moduleUnload(module);
    ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return median(ms);
}

} // namespace

std::vector<ModuleLoadRow> measureModuleLoads(const Context &context) {
  std::vector<ModuleLoadRow> rows;
  if (!context.gpu) {
    step("module load: skipped (no GPU)");
    return rows;
  }
  DriverApi api;
  try {
    api = DriverApi::load();
  } catch (const std::exception &error) {
    step("module load: ERROR: %s", error.what());
    return rows;
  }
  for (const char *name : {"elementwise", "stencil", "matmul", "reduction", "histogram", "launch"}) {
    ModuleLoadRow row;
    row.module = std::string(name) + ".pyk";
    const std::string dir = context.generatedDir;
    try {
      step("module load: %s: %d loads each of LLVM PTX, nvcc PTX, cubin", name, loads);
      row.llvmPtxMs = medianLoadMs(api, readFile(dir + "/modules/" + name + ".ptx"), "cuModuleLoadData(LLVM PTX)");
      row.nvccPtxMs =
          medianLoadMs(api, readFile(dir + "/cuda/" + name + "_cu.pyk.ptx"), "cuModuleLoadData(nvcc PTX)");
      row.cubinMs = medianLoadMs(api, readFile(dir + "/modules/" + name + ".sm_90.cubin"), "cuModuleLoadData(cubin)");
      step("module load: %s: LLVM PTX %.2f ms, nvcc PTX %.2f ms, cubin %.3f ms", name, row.llvmPtxMs, row.nvccPtxMs,
           row.cubinMs);
    } catch (const std::exception &error) {
      step("module load: %s: ERROR: %s", name, error.what());
    }
    rows.push_back(row);
  }
  return rows;
}

} // namespace bench
