//===- CudaDriver.cpp - Loading libcuda.so.1 and its entry points ----------===//
//
// dlopen("libcuda.so.1") once, then dlsym every entry point the runtime uses
// by its versioned name (cuMemAlloc_v2, not the cuMemAlloc macro of cuda.h).
// The library is never closed: the driver's handles outlive every caller.
//
//===----------------------------------------------------------------------===//
#include "CudaDriver.h"

#include <dlfcn.h>

#include <cstring>

namespace pyk::cuda {
namespace {

/// The library's name: the driver's soname, installed by the NVIDIA driver
/// (not by the toolkit, whose stubs/libcuda.so only links).
constexpr const char *driverLibrary = "libcuda.so.1";

struct LoadResult {
  Driver driver;
  bool loaded = false;
  std::string whyNot;
};

/// Casts a dlsym result to a function pointer (POSIX guarantees this works).
template <typename Function> Function *asFunction(void *symbol) {
  Function *function;
  static_assert(sizeof(function) == sizeof(symbol));
  std::memcpy(&function, &symbol, sizeof(function));
  return function;
}

LoadResult load() {
  LoadResult result;
  void *library = dlopen(driverLibrary, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    result.whyNot = std::string(driverLibrary) + " cannot be loaded (" + (reason ? reason : "no reason given") +
                    "); install the NVIDIA driver to run kernels on a GPU";
    return result;
  }
  std::string missing;
#define PYK_CUDA_DRIVER_RESOLVE(member, symbol, type)                                                                  \
  result.driver.member = asFunction<type>(dlsym(library, symbol));                                                     \
  if (!result.driver.member)                                                                                           \
    missing += missing.empty() ? symbol : std::string(", ") + symbol;
  PYK_CUDA_DRIVER_FUNCTIONS(PYK_CUDA_DRIVER_RESOLVE)
#undef PYK_CUDA_DRIVER_RESOLVE
  if (!missing.empty()) {
    result.whyNot = std::string(driverLibrary) + " lacks " + missing +
                    "; the NVIDIA driver is too old for pyk: install a driver for CUDA 12 or newer";
    result.driver = Driver{};
    return result;
  }
  result.loaded = true;
  return result;
}

} // namespace

const Driver *loadDriver(std::string *whyNot) {
  static const LoadResult *result = new LoadResult(load()); // never destroyed, like the library
  if (!result->loaded) {
    if (whyNot)
      *whyNot = result->whyNot;
    return nullptr;
  }
  return &result->driver;
}

} // namespace pyk::cuda
