#include "DriverApi.h"

#include "CudaCheck.h"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace bench {
namespace {

template <typename Function> void lookUp(Function &function, const char *name) {
  void *address = nullptr;
  cudaDriverEntryPointQueryResult found{};
  // 12000: the entry points' CUDA 12.0 versions (cuModuleLoadData and the
  // others have not changed since).
  cudaCheck(cudaGetDriverEntryPointByVersion(name, &address, 12000, cudaEnableDefault, &found),
            (std::string("cudaGetDriverEntryPointByVersion ") + name).c_str());
  if (found != cudaDriverEntryPointSuccess || !address)
    throw std::runtime_error(std::string("the CUDA driver has no ") + name);
  function = reinterpret_cast<Function>(address);
}

} // namespace

DriverApi DriverApi::load() {
  DriverApi api;
  lookUp(api.moduleLoadData, "cuModuleLoadData");
  lookUp(api.moduleUnload, "cuModuleUnload");
  lookUp(api.moduleGetFunction, "cuModuleGetFunction");
  lookUp(api.launchKernel, "cuLaunchKernel");
  lookUp(api.ctxSynchronize, "cuCtxSynchronize");
  return api;
}

void driverCheck(CUresult result, const char *what) {
  if (result != CUDA_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed: CUresult " + std::to_string(static_cast<int>(result)));
}

} // namespace bench
