// CUDA runtime errors as exceptions, so that one failing kernel or call
// ends that measurement (caught, printed, marked in the table) and the run
// goes on with the others.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace bench {

inline void cudaCheck(cudaError_t result, const char *what) {
  if (result != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(result) + " (" +
                             cudaGetErrorString(result) + ")");
}

} // namespace bench
