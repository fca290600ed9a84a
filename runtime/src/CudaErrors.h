//===- CudaErrors.h - CUresult names and the CudaError messages ------------===//
//
// The runtime keeps its own table of CUresult names, because through the
// toolkit's stub library (and on drivers that lack a name) cuGetErrorString
// gives nothing. Every failed driver call becomes a pyk::CudaError whose
// message names the call, the error and what the user can do:
//
//   pyk: cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2): the GPU has no
//   room for 4000000 bytes; free device arrays you no longer need
//
//===----------------------------------------------------------------------===//
#ifndef PYK_RUNTIME_CUDAERRORS_H
#define PYK_RUNTIME_CUDAERRORS_H

#include "CudaDriver.h"

#include <string>

namespace pyk::cuda {

/// The name of a CUresult ("CUDA_ERROR_OUT_OF_MEMORY"), or
/// "CUDA_ERROR_<code>" for a code this table does not know.
std::string errorName(CUresult code);

/// What a user can do about an error, or null where the error's name says
/// all there is ("free device arrays you no longer need").
const char *errorHint(CUresult code);

/// What went wrong in a failed call: "CALL failed: NAME (CODE)[: WHAT][;
/// HINT]", where WHAT is what the runtime was doing (may be empty).
std::string describeFailure(const char *call, CUresult code, const std::string &what = {});

/// The message of the CudaError for a failed call: "pyk: " and
/// describeFailure(call, code, what).
std::string errorMessage(const char *call, CUresult code, const std::string &what);

/// Throws the pyk::CudaError for a failed call.
[[noreturn]] void throwError(const char *call, CUresult code, const std::string &what = {});

/// Throws the pyk::CudaError for `code` unless it is CUDA_SUCCESS.
inline void check(CUresult code, const char *call) {
  if (code != CUDA_SUCCESS)
    throwError(call, code);
}

} // namespace pyk::cuda

#endif // PYK_RUNTIME_CUDAERRORS_H
