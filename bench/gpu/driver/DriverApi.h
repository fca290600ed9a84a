// The few CUDA driver entry points the launch and module-load measurements
// call directly, looked up through the CUDA runtime
// (cudaGetDriverEntryPointByVersion) rather than linked: the program then
// links no libcuda and starts on a machine without a driver, where it runs
// its CPU-device checks instead.
#pragma once

#include <cuda.h>

namespace bench {

struct DriverApi {
  CUresult (*moduleLoadData)(CUmodule *, const void *) = nullptr;
  CUresult (*moduleUnload)(CUmodule) = nullptr;
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *) = nullptr;
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           CUstream, void **, void **) = nullptr;
  CUresult (*ctxSynchronize)() = nullptr;

  /// Looks them up (the CUDA runtime must have a device); throws on failure.
  static DriverApi load();
};

/// Throws std::runtime_error naming the call and the CUresult.
void driverCheck(CUresult result, const char *what);

} // namespace bench
